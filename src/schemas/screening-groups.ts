/**
 * Screening groups, the earlier interface family (spec 2.6, 2.7, 4.5, 4.6). Its deprecated
 * fields are still typed so existing callers keep compiling, with `@deprecated` pointing at the
 * income criteria that replace them.
 */
import { z } from 'zod';
import {
  emailSchema,
  GROUP_STATUSES,
  groupStatusSchema,
  httpUrlSchema,
  idSchema,
  monthlyRentSchema,
  openEnum,
  phoneNumberSchema,
  reasonCompletedSchema,
  requiredTextSchema,
  spelledOutStateSchema,
  timestampSchema,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Screening statuses (spec 3.1). */
export const SCREENING_STATUSES = GROUP_STATUSES;

/** One applicant's screening (spec 2.7). */
export const screeningSchema = z.looseObject({
  /** Screening identifier. */
  id: idSchema,
  /** Applicant first name. */
  applicant_first_name: z.string(),
  /** Applicant last name. */
  applicant_last_name: z.string(),
  /** Applicant email. */
  applicant_email: z.string(),
  /**
   * not_started (invitation not yet followed), in_progress (begun, final report not submitted)
   * or completed (outcome in `reason_completed`).
   */
  screening_status: openEnum(SCREENING_STATUSES),
  /**
   * not_completed, finished, no_bank, no_online_banking, share_bank, no_income,
   * bank_cannot_connect or missing_bank (spec 2.7 gives their meanings).
   */
  reason_completed: reasonCompletedSchema,
});
/** One applicant's screening (spec 2.7). */
export type Screening = z.infer<typeof screeningSchema>;

/** Values of the deprecated approval recommendation. */
export const APPROVAL_RECOMMENDATIONS = ['unavailable', 'approve', 'decline'] as const;

/** A screening group (spec 2.6). */
export const screeningGroupSchema = z.looseObject({
  /** Group identifier. */
  id: idSchema,
  /** One screening per applicant. */
  screenings: z.array(screeningSchema),
  /** not_started, in_progress or completed. */
  status: groupStatusSchema,
  /** Property name. */
  property_name: z.string(),
  /** Street address; on create it may include the unit appended, on list the unit is separate. */
  property_street_address: z.string(),
  /** Unit number. */
  unit_number: z.string(),
  /** Monthly rent in cents. */
  monthly_rent_cents: z.number(),
  /**
   * unavailable, approve or decline.
   * @deprecated Replaced by income criteria: pass `criteria_rule_set_id` on create and read
   * `criteria_rule_results` in the income report.
   */
  approval_recommendation: openEnum(APPROVAL_RECOMMENDATIONS),
  /** Whether the decision maker pays. */
  is_decision_maker_paying: z.boolean(),
  /** Whether the group expired (requests expire within 14 days if not fully completed). */
  is_expired: z.boolean(),
  /** Whether the report expired; false when no report exists. A list sample also carries `null`. */
  is_report_expired: z.boolean().nullable(),
  /** Display name of the decision maker. */
  decision_maker_display_name: z.string(),
  /**
   * Net income to rent multiplier the group was created with.
   * @deprecated Replaced by income criteria: pass `criteria_rule_set_id` on create and read
   * `criteria_rule_results` in the income report.
   */
  income_multiplier_threshold: z.number(),
  /** Saved with the group to correlate to an id held by the caller; `null` when none was given. */
  correlation_id: z.string().nullable(),
  /** UNIX timestamp of creation; may be milliseconds (a sample is fractional ms-scale). `toDate()` handles both. */
  created_at_timestamp: timestampSchema,
});
/** A screening group (spec 2.6). */
export type ScreeningGroup = z.infer<typeof screeningGroupSchema>;

/** Body of `GET /api/v1/screening_groups` (spec 4.5). */
export const screeningGroupListResponseSchema = z.looseObject({
  /** The groups of this page (25 per page). */
  screening_groups: z.array(screeningGroupSchema),
  /** Total number of groups. */
  total_count: z.int(),
});
/** Body of `GET /api/v1/screening_groups`. */
export type ScreeningGroupListResponse = z.infer<typeof screeningGroupListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** One applicant in the body of `POST /api/v1/screening_groups` (spec 4.6). */
export const screeningApplicantCreateParamsSchema = z.looseObject({
  /** First name. */
  applicant_first_name: requiredTextSchema,
  /** Last name. */
  applicant_last_name: requiredTextSchema,
  /** Email; receives the invitation. In production a nonexistent address gives 400. */
  applicant_email: emailSchema,
  /** Phone number in E.164 form (`+14155550123`); giving it also sends a text message. */
  applicant_phone_number: phoneNumberSchema.optional(),
});
/** One applicant in the body of a screening-group create. */
export type ScreeningApplicantCreateParams = z.input<typeof screeningApplicantCreateParamsSchema>;

/** The property in the body of `POST /api/v1/screening_groups`; it is displayed to the applicant. */
export const screeningPropertyCreateParamsSchema = z.looseObject({
  /** Property name. */
  name: requiredTextSchema,
  /** Street address. */
  street_address: requiredTextSchema,
  /** City. */
  city: requiredTextSchema,
  /** ZIP code. */
  zip_code: requiredTextSchema,
  /** State, fully spelled out (`California`, not `CA`). */
  state: spelledOutStateSchema,
  /** Unit. */
  unit: z.string().optional(),
});
/** The property in the body of a screening-group create. */
export type ScreeningPropertyCreateParams = z.input<typeof screeningPropertyCreateParamsSchema>;

/** Body of `POST /api/v1/screening_groups` (spec 4.6). Unknown fields pass through for newer API versions. */
export const screeningGroupCreateParamsSchema = z.looseObject({
  /** The applicants, at least one; each receives an invitation unless invitations are disabled. */
  applicants: z
    .array(screeningApplicantCreateParamsSchema)
    .min(1, { error: 'must list at least one applicant' }),
  /** The property, displayed to the applicant. */
  property: screeningPropertyCreateParamsSchema,
  /** Whether the decision maker (true) or the applicant (false) pays. */
  is_decision_maker_paying: z.boolean({ error: 'must be true or false (whether the decision maker pays)' }),
  /** Display name of the decision maker; may be a company name. */
  decision_maker_display_name: requiredTextSchema,
  /** Monthly rent in dollars; for several applicants, the rent of the whole household. */
  monthly_rent: monthlyRentSchema,
  /**
   * Net income to rent multiplier; the service defaults to 2.5.
   * @deprecated Replaced by income criteria: pass `criteria_rule_set_id` instead.
   */
  income_multiplier_threshold: z.number().positive({ error: 'must be a positive multiplier' }).optional(),
  /** Criteria rule set to use; the default rule set applies when left out. */
  criteria_rule_set_id: requiredTextSchema.optional(),
  /** URL receiving webhook notifications for this group. */
  webhook_url: httpUrlSchema.optional(),
  /** When true, no invitation is sent. */
  is_invitation_disabled: z.boolean().optional(),
});
/** Body of a screening-group create, as the caller writes it. */
export type ScreeningGroupCreateParams = z.input<typeof screeningGroupCreateParamsSchema>;

/** Query of `GET /api/v1/screening_groups` (spec 4.5); parsing yields the query record to send. */
export const screeningGroupListParamsSchema = z
  .object({
    /** Page to pull, from 1; each page holds 25 records. */
    page: z
      .int({ error: 'must be an integer page number' })
      .min(1, { error: 'must be 1 or more' })
      .optional(),
  })
  .transform(
    (params): Record<string, string> => (params.page === undefined ? {} : { page: String(params.page) }),
  );
/** Filters of `screeningGroups.list()`, as the caller writes them. */
export type ScreeningGroupListParams = z.input<typeof screeningGroupListParamsSchema>;
