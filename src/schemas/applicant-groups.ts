/**
 * Applicant groups (spec 2.1-2.3, 4.1, 4.2): the response objects, the create body and the list
 * query. Responses are loose objects so fields the service adds later reach the caller.
 */
import { z } from 'zod';
import { MILLISECONDS_THRESHOLD } from '../helpers/dates.js';
import {
  centsSchema,
  dateTimeSchema,
  emailSchema,
  GROUP_STATUSES,
  groupStatusSchema,
  httpUrlSchema,
  idSchema,
  incomeSourceSchema,
  monthlyRentSchema,
  openEnum,
  phoneNumberSchema,
  requiredTextSchema,
  timestampSchema,
  verificationTypeSchema,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Property of an applicant group, as returned by the service (spec 2.2). */
export const propertySchema = z.looseObject({
  /** Property identifier (uuid). */
  id: idSchema,
  /** Property name. */
  name: z.string(),
  /** Street address. */
  street_address: z.string(),
  /** City. */
  city: z.string(),
  /** State, as sent on create. */
  state: z.string(),
  /** ZIP code. */
  zip_code: z.string(),
});
/** Property of an applicant group (spec 2.2). */
export type Property = z.infer<typeof propertySchema>;

/** Status of one verification: values seen in_progress; not_started and completed as for groups. */
export const verificationStatusSchema = openEnum(GROUP_STATUSES);

/** One verification requested of an applicant (items of `applicant.verifications`, spec 2.3). */
export const verificationSchema = z.looseObject({
  /** Verification identifier (uuid). */
  id: idSchema,
  /** Kind of verification; value seen: asset_verification. */
  type: verificationTypeSchema,
  /** Status of the verification; value seen: in_progress. */
  status: verificationStatusSchema,
});
/** One verification requested of an applicant (spec 2.3). */
export type Verification = z.infer<typeof verificationSchema>;

/** An applicant of an applicant group (spec 2.3). */
export const applicantSchema = z.looseObject({
  /** Applicant identifier (uuid). */
  id: idSchema,
  /** First name. */
  first_name: z.string(),
  /** Last name. */
  last_name: z.string(),
  /** Email address the invitation went to. */
  email: z.string(),
  /**
   * Phone number, international format with country code. Optional on create, so a response may
   * omit it or carry `null` when none was given.
   */
  phone_number: z.string().nullable().optional(),
  /** ISO 8601 date-time, UTC. */
  created_at: dateTimeSchema,
  /** ISO 8601 date-time, UTC. */
  updated_at: dateTimeSchema,
  /** Verifications requested of this applicant. */
  verifications: z.array(verificationSchema),
});
/** An applicant of an applicant group (spec 2.3). */
export type Applicant = z.infer<typeof applicantSchema>;

/** An applicant group (spec 2.1), as returned by create and list. */
export const applicantGroupSchema = z.looseObject({
  /** Group identifier (uuid). */
  id: idSchema,
  /** Display name of the decision maker. */
  decision_maker_display_name: z.string(),
  /** The property; present in list and create responses. */
  property: propertySchema,
  /** Current status of the group: not_started, in_progress, completed, or a newer value. */
  status: groupStatusSchema,
  /** Unix timestamp of creation, in seconds (float). `toDate()` turns it into a `Date`. */
  created_at_timestamp: timestampSchema,
  /** Monthly rent in cents. */
  monthly_rent_cents: centsSchema,
  /** Unit number or identifier. */
  unit_number: z.string(),
  /** Unit identifier (uuid), `null` when the group has none. */
  unit_id: idSchema.nullable(),
  /** Whether this is a free verification. */
  is_free: z.boolean(),
  /** Whether the decision maker pays for the verification. */
  is_decision_maker_paying: z.boolean(),
  /** External correlation identifier supplied by the caller, `null` when none was. */
  correlation_id: z.string().nullable(),
  /** Verification kinds in the group; values seen: payroll_income_verification, identity_verification. */
  verification_types: z.array(verificationTypeSchema),
  /** Whether the group has expired (a request not fully completed within 14 days expires). */
  is_expired: z.boolean(),
  /** The applicants of the group. */
  applicants: z.array(applicantSchema),
});
/** An applicant group (spec 2.1). */
export type ApplicantGroup = z.infer<typeof applicantGroupSchema>;

/** Body of `GET /api/v1/applicant_groups` (spec 4.1). */
export const applicantGroupListResponseSchema = z.looseObject({
  /** The groups of this page, each with its applicants. */
  applicant_groups: z.array(applicantGroupSchema),
  /** Total number of groups matching the query. */
  total_count: z.int(),
});
/** Body of `GET /api/v1/applicant_groups`. */
export type ApplicantGroupListResponse = z.infer<typeof applicantGroupListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** One verification to request of an applicant on create. */
export const verificationRequestSchema = z.looseObject({
  /** Kind of verification: payroll_income_verification, identity_verification, asset_verification, ... */
  type: verificationTypeSchema,
  /** Income sources the applicant may use: bank, payroll, documents, ... */
  allowed_income_sources: z.array(incomeSourceSchema).optional(),
});
/** One verification to request of an applicant on create. */
export type VerificationRequest = z.input<typeof verificationRequestSchema>;

/** One applicant in the body of `POST /api/v1/applicant_groups` (spec 4.2). */
export const applicantCreateParamsSchema = z.looseObject({
  /** First name. */
  first_name: requiredTextSchema,
  /** Last name. */
  last_name: requiredTextSchema,
  /** Email address; the invitation goes there unless invitations are disabled. */
  email: emailSchema,
  /** Phone number in E.164 form (`+14155550123`); giving it also sends a text invitation. */
  phone_number: phoneNumberSchema.optional(),
  /** Verifications to request of this applicant. */
  verifications: z.array(verificationRequestSchema).optional(),
});
/** One applicant in the body of an applicant-group create. */
export type ApplicantCreateParams = z.input<typeof applicantCreateParamsSchema>;

/** The property in the body of `POST /api/v1/applicant_groups` (spec 4.2). */
export const propertyCreateParamsSchema = z.looseObject({
  /** Property name. */
  name: requiredTextSchema,
  /** Street address. */
  street_address: requiredTextSchema,
  /** City. */
  city: requiredTextSchema,
  /** State. */
  state: requiredTextSchema,
  /** ZIP code. */
  zip_code: requiredTextSchema,
  /** Unit number or identifier. */
  unit: z.string().optional(),
});
/** The property in the body of an applicant-group create. */
export type PropertyCreateParams = z.input<typeof propertyCreateParamsSchema>;

/** Body of `POST /api/v1/applicant_groups` (spec 4.2). Unknown fields pass through for newer API versions. */
export const applicantGroupCreateParamsSchema = z.looseObject({
  /** The applicants, at least one; each receives an invitation unless invitations are disabled. */
  applicants: z.array(applicantCreateParamsSchema).min(1, { error: 'must list at least one applicant' }),
  /** The property the applicants apply for. */
  property: propertyCreateParamsSchema,
  /** Display name of the decision maker (may be a company name). */
  decision_maker_display_name: requiredTextSchema,
  /** Monthly rent in dollars (not cents). */
  monthly_rent: monthlyRentSchema,
  /** URL receiving webhook notifications for this group. */
  webhook_url: httpUrlSchema.optional(),
  /** When true, no invitation is sent by email or text; pass true when using the embedded widget. */
  is_invitation_disabled: z.boolean().optional(),
  /** External correlation identifier; lets the SDK recover a create safely after an ambiguous failure. */
  correlation_id: requiredTextSchema.optional(),
  /** Group configuration. */
  config: z
    .looseObject({
      /** Whether business bank accounts are blocked. */
      block_business_accounts: z.boolean().optional(),
    })
    .optional(),
});
/** Body of an applicant-group create, as the caller writes it. */
export type ApplicantGroupCreateParams = z.input<typeof applicantGroupCreateParamsSchema>;

/**
 * A Unix timestamp in seconds or a `Date`, sent as integer Unix seconds. A number at or above
 * `MILLISECONDS_THRESHOLD` (year 5138 in seconds) is rejected rather than guessed at: it is almost
 * certainly `Date.now()` milliseconds, and sending it as seconds would silently match nothing.
 */
const unixSecondsParamSchema = z.union(
  [
    z.number().min(0, { error: 'must be Unix seconds, 0 or more' }).lt(MILLISECONDS_THRESHOLD, {
      error: 'must be Unix seconds; this looks like milliseconds (divide by 1000 or pass a Date)',
    }),
    z.date({ error: 'must be a valid Date' }),
  ],
  { error: 'must be Unix seconds (a number) or a Date' },
);

function toUnixSeconds(value: number | Date): string {
  const seconds = value instanceof Date ? value.getTime() / 1000 : value;
  return String(Math.floor(seconds));
}

/**
 * Query of `GET /api/v1/applicant_groups` (spec 4.1). Parsing yields the query record to send:
 * only the keys given, `statuses` comma-joined, timestamps as integer Unix seconds.
 */
export const applicantGroupListParamsSchema = z
  .object({
    /** Search query. */
    search: z.string().optional(),
    /** Statuses to include: not_started, in_progress, completed, ... (sent comma-separated). */
    statuses: z
      .array(
        groupStatusSchema.refine((status) => !status.includes(','), {
          error: 'a status must not contain a comma',
        }),
      )
      .optional(),
    /** Exact external correlation identifier. */
    correlation_id: z.string().optional(),
    /** Only groups created after this time (Unix seconds or a `Date`). */
    created_after: unixSecondsParamSchema.optional(),
    /** Only groups created before this time (Unix seconds or a `Date`). */
    created_before: unixSecondsParamSchema.optional(),
    /** Page number, from 1. */
    page: z
      .int({ error: 'must be an integer page number' })
      .min(1, { error: 'must be 1 or more' })
      .optional(),
  })
  .transform((params): Record<string, string> => {
    const query: Record<string, string> = {};
    if (params.search !== undefined) query.search = params.search;
    if (params.statuses !== undefined && params.statuses.length > 0)
      query.statuses = params.statuses.join(',');
    if (params.correlation_id !== undefined) query.correlation_id = params.correlation_id;
    if (params.created_after !== undefined) query.created_after = toUnixSeconds(params.created_after);
    if (params.created_before !== undefined) query.created_before = toUnixSeconds(params.created_before);
    if (params.page !== undefined) query.page = String(params.page);
    return query;
  });
/** Filters of `applicantGroups.list()`, as the caller writes them. */
export type ApplicantGroupListParams = z.input<typeof applicantGroupListParamsSchema>;
