/**
 * Applicant groups (docs/wire-contract.md §2.1-§2.3, §4.1, §4.2): the response objects, the create body and the list
 * query. Responses are loose objects so fields the service adds later reach the caller.
 */
import type * as z from 'zod';
import { MILLISECONDS_THRESHOLD } from '../../helpers/dates.js';
import { zod } from '../../load/zod.js';
import {
  centsRentProblem,
  dollarsRentProblem,
  MONTHLY_RENT_MAX_DOLLARS,
  type RentUnit,
  rentCentsMeant,
  wireRent,
} from '../rent.js';
import { withWireRule } from '../wire-rule.js';
import {
  commonRequestSchemas,
  commonSchemas,
  exactObject,
  type FilterGroupStatus,
  GROUP_STATUSES,
  type GroupStatus,
  openEnum,
  REQUEST_INCOME_SOURCES,
  REQUEST_VERIFICATION_TYPES,
  type RequestIncomeSource,
  type RequestVerificationType,
  requestEnum,
  responseObject,
  type VerificationType,
  wireQuery,
} from './common.js';
import { onFirstUse } from './on-first-use.js';

// ---------------------------------------------------------------------------------------------
// Public types: what callers read in their editor. Each is proved equal to its schema's
// input and output by test/schemas/types.test-d.ts, so the two cannot drift apart.
// ---------------------------------------------------------------------------------------------

/** Property of an applicant group, as returned by the service. */
export interface Property {
  /** Property identifier (a uuid). */
  id: string;
  /** Property name, as given on create. */
  name: string;
  /** Street address, as given on create. */
  street_address: string;
  /** City of the property, free text as entered on create. */
  city: string;
  /** State as given on create: a full name (`California`) or a two-letter code (`CA`). */
  state: string;
  /** ZIP code as entered on create: five digits, or ZIP+4 (`62701-1234`). */
  zip_code: string;
}

/** One verification requested of an applicant (an item of `applicant.verifications`). */
export interface Verification {
  /** Verification identifier (a uuid); `VERIFICATION_*` webhook events name it. */
  id: string;
  /**
   * Kind of verification. Known values: `payroll_income_verification`, `identity_verification`,
   * `asset_verification`, `income_verification`; a newer value is passed through as a string.
   */
  type: VerificationType;
  /** Status of the verification. Known values: `not_started`, `in_progress`, `completed`; a newer value is passed through. */
  status: GroupStatus;
}

/** An applicant of an applicant group. */
export interface Applicant {
  /** Applicant identifier (a uuid). */
  id: string;
  /** Given name, as entered on create; the invitation greets the applicant by it. */
  first_name: string;
  /** Family name, as entered on create. */
  last_name: string;
  /** Email address the invitation went to. */
  email: string;
  /**
   * Phone number in international form with country code (`+14155550123`). Absent or `null` when
   * no phone number was given on create (then no text invitation was sent).
   */
  phone_number?: string | null | undefined;
  /** When the applicant was created: an ISO 8601 date-time in UTC (`2024-06-05T16:00:00Z`). */
  created_at: string;
  /** When the applicant last changed: an ISO 8601 date-time in UTC. */
  updated_at: string;
  /** The verifications requested of this applicant. */
  verifications: Verification[];
}

/** An applicant group, as returned by create and list. */
export interface ApplicantGroup {
  /** Group identifier (a uuid). */
  id: string;
  /** Display name of the decision maker (a landlord, a property manager or a company). */
  decision_maker_display_name: string;
  /** The property the applicants apply for. */
  property: Property;
  /**
   * Current status of the group. Known values: `not_started`, `in_progress`, `completed`; a newer
   * value is passed through as a string. A group that is not completed within 14 days expires
   * (see `is_expired`).
   */
  status: GroupStatus;
  /**
   * When the group was created: Unix time in SECONDS, fractional (`1717603200.482913`).
   * `toDate(created_at_timestamp)` gives a `Date`.
   */
  created_at_timestamp: number;
  /**
   * Monthly rent in CENTS (an integer: `285000` is $2,850). Create takes dollars
   * (`monthly_rent`); `centsToDollars()` converts.
   */
  monthly_rent_cents: number;
  /** Unit number or identifier, as given on create (`property.unit`); empty when none was. */
  unit_number: string;
  /** Unit identifier (a uuid); `null` when the group is not tied to a unit record. */
  unit_id: string | null;
  /** Whether this is a free verification. */
  is_free: boolean;
  /** Whether the decision maker pays for the verification. */
  is_decision_maker_paying: boolean;
  /**
   * The `correlation_id` given on create; `null` when none was. The SDK uses it to recover a
   * create safely after an ambiguous failure.
   */
  correlation_id: string | null;
  /**
   * Verification kinds in the group. Known values: `payroll_income_verification`,
   * `identity_verification`, `asset_verification`, `income_verification`.
   */
  verification_types: VerificationType[];
  /** Whether the group has expired: a group not fully completed within 14 days expires. */
  is_expired: boolean;
  /** The applicants of the group. */
  applicants: Applicant[];
}

/** Body of `GET /api/v1/applicant_groups` (one page). */
export interface ApplicantGroupListResponse {
  /** The groups of this page, each with its applicants. */
  applicant_groups: ApplicantGroup[];
  /**
   * Total number of groups matching the query, over all pages. The vendor documents it as
   * optional: absent or `null`, pagination ends on an empty or short page instead.
   */
  total_count?: number | null | undefined;
}

/** One verification to request of an applicant on create. */
export interface VerificationRequest {
  /** Kind of verification: `payroll_income_verification`, `identity_verification` or `asset_verification`. */
  type: RequestVerificationType;
  /** Income sources the applicant may connect: `bank`, `payroll`. Left out: the service decides. */
  allowed_income_sources?: RequestIncomeSource[] | undefined;
}

/** One applicant in the body of an applicant-group create. */
export interface ApplicantCreateParams {
  /** First name (not blank). */
  first_name: string;
  /** Last name (not blank). */
  last_name: string;
  /** Email address; the invitation goes there unless invitations are disabled. */
  email: string;
  /**
   * Phone number in international E.164 form, no spaces (`+14155550123`); giving it also sends a
   * text invitation. (The field is `phone_number`, not `phone`.)
   */
  phone_number?: string | undefined;
  /** Verifications to request of this applicant. */
  verifications?: VerificationRequest[] | undefined;
}

/** The property in the body of an applicant-group create. */
export interface PropertyCreateParams {
  /** Property name (not blank). */
  name: string;
  /** Street address (not blank). */
  street_address: string;
  /** City (not blank). */
  city: string;
  /** State: a full name (`California`) or a two-letter code (`CA`); both are accepted here. */
  state: string;
  /** ZIP code (not blank). */
  zip_code: string;
  /** Unit number or identifier; returned as the group's `unit_number`. */
  unit?: string | undefined;
}

/**
 * The fields of an applicant-group create other than the rent: see {@link ApplicantGroupCreateParams}.
 */
export interface ApplicantGroupCreateFields {
  /** The applicants, at least one; each receives an invitation unless invitations are disabled. */
  applicants: ApplicantCreateParams[];
  /** The property the applicants apply for. */
  property: PropertyCreateParams;
  /** Display name of the decision maker (may be a company name); not blank. */
  decision_maker_display_name: string;
  /** An absolute http(s) URL receiving webhook notifications for this group. */
  webhook_url?: string | undefined;
  /** When true, no invitation is sent by email or text; pass true when using the embedded widget. */
  is_invitation_disabled?: boolean | undefined;
  /**
   * Your own identifier for this group (snake_case: `correlation_id`). With it the SDK recovers a
   * create after an ambiguous failure instead of risking a second set of invitations.
   */
  correlation_id?: string | undefined;
  /** Group configuration. */
  config?: ApplicantGroupConfig | undefined;
}

/** The rent of a create, stated in dollars. */
export interface RentInDollars {
  /**
   * Monthly rent in DOLLARS (not cents): positive, at most 100 000 (`MONTHLY_RENT_MAX_DOLLARS`); whole dollars
   * while the API reads dollars (`apiRentUnit: 'dollars'`, the default). The SDK sends it in the
   * unit the API reads; responses report it in cents (`monthly_rent_cents`).
   */
  monthly_rent: number;
  /** Not with `monthly_rent`: give one of the two. */
  monthly_rent_cents?: undefined;
}

/** The rent of a create, stated in cents (the unit responses use). */
export interface RentInCents {
  /**
   * Monthly rent in CENTS (`185000` is $1,850): a positive integer, at most 10 000 000; a
   * multiple of 100 while the API reads dollars (`apiRentUnit: 'dollars'`, the default). The SDK
   * sends it as `monthly_rent` in the unit the API reads.
   */
  monthly_rent_cents: number;
  /** Not with `monthly_rent_cents`: give one of the two. */
  monthly_rent?: undefined;
}

/**
 * Body of an applicant-group create: the fields, and the rent in dollars (`monthly_rent`) or in
 * cents (`monthly_rent_cents`), exactly one. Exact: an unknown key is rejected before any I/O.
 */
export type ApplicantGroupCreateParams = ApplicantGroupCreateInDollars | ApplicantGroupCreateInCents;

/** An applicant-group create body stating the rent in dollars (`monthly_rent`). */
export interface ApplicantGroupCreateInDollars extends ApplicantGroupCreateFields, RentInDollars {}

/** An applicant-group create body stating the rent in cents (`monthly_rent_cents`). */
export interface ApplicantGroupCreateInCents extends ApplicantGroupCreateFields, RentInCents {}

/** Configuration of an applicant group on create. */
export interface ApplicantGroupConfig {
  /** Whether business bank accounts are blocked. */
  block_business_accounts?: boolean | undefined;
}

/** Filters of `applicantGroups.list()`. Exact: an unknown key is rejected before any I/O. */
export interface ApplicantGroupListParams {
  /** Free-text search query. */
  search?: string | undefined;
  /**
   * Statuses to include (sent comma-separated). Known values: `not_started`, `in_progress`,
   * `completed`, and `pending` (what the service's own reference shows a new group in); any other
   * string is sent as given.
   */
  statuses?: FilterGroupStatus[] | undefined;
  /** Only the group(s) created with this exact `correlation_id`. */
  correlation_id?: string | undefined;
  /** Only groups created after this time: Unix SECONDS or a `Date` (milliseconds are rejected). */
  created_after?: number | Date | undefined;
  /** Only groups created before this time: Unix SECONDS or a `Date` (milliseconds are rejected). */
  created_before?: number | Date | undefined;
  /** Page number, from 1. */
  page?: number | undefined;
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** The body sent on the wire: `monthly_rent` in the unit the API reads, never `monthly_rent_cents`. */
export interface ApplicantGroupCreateWireBody extends ApplicantGroupCreateFields {
  /** The rent in the unit the API reads (`apiRentUnit`). */
  monthly_rent: number;
}

const wireSchemas = new Map<string, z.ZodType<ApplicantGroupCreateWireBody, ApplicantGroupCreateParams>>();

/** Options of {@link applicantGroupCreateWireSchema}. */
export interface CreateWireSchemaOptions {
  /**
   * Whether a `monthly_rent_cents` under `MONTHLY_RENT_FLOOR_CENTS` ($100) is refused (default
   * true); off when the caller said such a rent is intended (`rentBelowFloor: 'allow'`).
   */
  rentFloor?: boolean | undefined;
}

/**
 * The create body for an API reading `monthly_rent` in `unit`, parsed into the wire body: the
 * rent converted to `unit` and sent as `monthly_rent`.
 */
export function applicantGroupCreateWireSchema(
  unit: RentUnit,
  { rentFloor = true }: CreateWireSchemaOptions = {},
): z.ZodType<ApplicantGroupCreateWireBody, ApplicantGroupCreateParams> {
  const key = `${unit}:${rentFloor}`;
  const cached = wireSchemas.get(key);
  if (cached) return cached;
  const { createParamsSchema, wireBodySchema } = applicantGroupCreateSchemas();
  const schema = createParamsSchema(unit, rentFloor)
    .transform(({ monthly_rent, monthly_rent_cents, ...fields }): ApplicantGroupCreateWireBody => {
      // The union admits no body without a rent, so the fallback is never used.
      const cents = rentCentsMeant({ monthly_rent, monthly_rent_cents }) ?? 0;
      return { ...fields, monthly_rent: wireRent(cents, unit) };
    })
    .pipe(wireBodySchema(unit));
  wireSchemas.set(key, schema);
  return schema;
}

function toUnixSeconds(value: number | Date): string {
  const seconds = value instanceof Date ? value.getTime() / 1000 : value;
  return String(Math.floor(seconds));
}

/**
 * The schemas of the responses and of the list query, built on first use and the same objects
 * after: importing the client builds none of them (docs/benchmarks.md, "Cold start, round 6").
 * `../applicant-groups.ts` exports each one.
 */
export const applicantGroupSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const {
    centsSchema,
    dateTimeSchema,
    filterGroupStatusSchema,
    groupStatusSchema,
    idSchema,
    timestampSchema,
    verificationTypeSchema,
  } = commonSchemas();
  /** Property of an applicant group, as returned by the service. */
  const propertySchema = responseObject({
    id: idSchema,
    name: z.string(),
    street_address: z.string(),
    city: z.string(),
    state: z.string(),
    zip_code: z.string(),
  });

  /** Status of one verification: values seen in_progress; not_started and completed as for groups. */
  const verificationStatusSchema = openEnum(GROUP_STATUSES);

  /** One verification requested of an applicant (items of `applicant.verifications`). */
  const verificationSchema = responseObject({
    id: idSchema,
    type: verificationTypeSchema,
    status: verificationStatusSchema,
  });

  /** An applicant of an applicant group. */
  const applicantSchema = responseObject({
    id: idSchema,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullish(),
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
    verifications: z.array(verificationSchema),
  });

  /** An applicant group, as returned by create and list. */
  const applicantGroupSchema = responseObject({
    id: idSchema,
    decision_maker_display_name: z.string(),
    property: propertySchema,
    status: groupStatusSchema,
    created_at_timestamp: timestampSchema,
    monthly_rent_cents: centsSchema,
    unit_number: z.string(),
    unit_id: idSchema.nullable(),
    is_free: z.boolean(),
    is_decision_maker_paying: z.boolean(),
    correlation_id: z.string().nullable(),
    verification_types: z.array(verificationTypeSchema),
    is_expired: z.boolean(),
    applicants: z.array(applicantSchema),
  });

  /** Body of `GET /api/v1/applicant_groups`; `total_count` is optional (the vendor marks it so). */
  const applicantGroupListResponseSchema = responseObject({
    applicant_groups: z.array(applicantGroupSchema),
    total_count: z.int().nullish(),
  });

  // ---------------------------------------------------------------------------------------------
  // Requests: exact objects (see exactObject in common.ts)
  // ---------------------------------------------------------------------------------------------

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

  /**
   * Query of `GET /api/v1/applicant_groups` (docs/wire-contract.md §4.1). Parsing yields the query record to send:
   * only the keys given, `statuses` comma-joined, timestamps as integer Unix seconds.
   */
  const applicantGroupListParamsSchema = wireQuery(
    exactObject(
      {
        search: z.string().optional(),
        statuses: z.array(filterGroupStatusSchema).optional(),
        correlation_id: z.string().optional(),
        created_after: unixSecondsParamSchema.optional(),
        created_before: unixSecondsParamSchema.optional(),
        page: z
          .int({ error: 'must be an integer page number' })
          .min(1, { error: 'must be 1 or more' })
          .optional(),
      },
      'extraQuery',
    ),
    (params) => {
      const query: Record<string, string> = {};
      if (params.search !== undefined) query.search = params.search;
      if (params.statuses !== undefined && params.statuses.length > 0)
        query.statuses = params.statuses.join(',');
      if (params.correlation_id !== undefined) query.correlation_id = params.correlation_id;
      if (params.created_after !== undefined) query.created_after = toUnixSeconds(params.created_after);
      if (params.created_before !== undefined) query.created_before = toUnixSeconds(params.created_before);
      if (params.page !== undefined) query.page = String(params.page);
      return query;
    },
  );
  return {
    propertySchema,
    verificationStatusSchema,
    verificationSchema,
    applicantSchema,
    applicantGroupSchema,
    applicantGroupListResponseSchema,
    applicantGroupListParamsSchema,
  };
});

/**
 * The schemas of the create body, built on first use (a client that only reads never builds
 * them) and the same objects after. `../applicant-groups.ts` exports each one.
 */
export const applicantGroupCreateSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const { emailSchema, httpUrlSchema, phoneNumberSchema, requiredTextSchema, usStateSchema } =
    commonRequestSchemas();
  /** One verification to request of an applicant on create. */
  const verificationRequestSchema = exactObject({
    type: requestEnum(REQUEST_VERIFICATION_TYPES),
    allowed_income_sources: z.array(requestEnum(REQUEST_INCOME_SOURCES)).optional(),
  });

  /** One applicant in the body of `POST /api/v1/applicant_groups`. */
  const applicantCreateParamsSchema = exactObject({
    first_name: requiredTextSchema,
    last_name: requiredTextSchema,
    email: emailSchema,
    phone_number: phoneNumberSchema.optional(),
    verifications: z.array(verificationRequestSchema).optional(),
  });

  /** The property in the body of `POST /api/v1/applicant_groups`. */
  const propertyCreateParamsSchema = exactObject({
    name: requiredTextSchema,
    street_address: requiredTextSchema,
    city: requiredTextSchema,
    state: usStateSchema,
    zip_code: requiredTextSchema,
    unit: z.string().optional(),
  });

  const groupCreateFields = {
    applicants: z.array(applicantCreateParamsSchema).min(1, { error: 'must list at least one applicant' }),
    property: propertyCreateParamsSchema,
    decision_maker_display_name: requiredTextSchema,
    webhook_url: httpUrlSchema.optional(),
    is_invitation_disabled: z.boolean().optional(),
    correlation_id: requiredTextSchema.optional(),
    config: exactObject({
      block_business_accounts: z.boolean().optional(),
    }).optional(),
  };

  const NOT_BOTH = 'give monthly_rent (dollars) or monthly_rent_cents (cents), not both';

  /** A rent amount checked by `problem` (rent.ts) for the unit the API reads. */
  function rentAmount(problem: (value: unknown) => string | undefined, missing: string) {
    return z
      .number({ error: (issue) => (issue.input === undefined ? missing : problem(issue.input)) })
      .superRefine((value, ctx) => {
        const found = problem(value);
        if (found !== undefined) ctx.addIssue({ code: 'custom', input: value, message: found });
      });
  }

  /**
   * The create body for an API reading `monthly_rent` in `unit`: the rent in dollars or in cents,
   * exactly one, each refused by the rules of the wire unit (rent.ts).
   */
  function createParamsSchema(unit: RentUnit, rentFloor = true) {
    return z.union([
      exactObject({
        ...groupCreateFields,
        monthly_rent: rentAmount(
          (value) => dollarsRentProblem(value, unit),
          'is required: the monthly rent in dollars (or give monthly_rent_cents, in cents)',
        ),
        monthly_rent_cents: z.undefined({ error: NOT_BOTH }).optional(),
      }),
      exactObject({
        ...groupCreateFields,
        monthly_rent_cents: rentAmount((value) => centsRentProblem(value, unit, rentFloor), 'is required'),
        monthly_rent: z.undefined({ error: NOT_BOTH }).optional(),
      }),
    ]);
  }

  /**
   * Body of `POST /api/v1/applicant_groups` as callers give it, under the default `apiRentUnit`
   * (`dollars`): exact; newer fields go in the per-call `extraBody` option.
   */
  const applicantGroupCreateParamsSchema = createParamsSchema('dollars');

  /**
   * The wire body's own shape, so the create's output side is describable (the OpenAPI document):
   * the rent a positive whole number in `unit`, at most {@link MONTHLY_RENT_MAX_DOLLARS} dollars.
   * The caller's rent was already checked by the rules of `unit` (rent.ts), which imply these.
   */
  const wireBodySchema = (unit: RentUnit) => {
    const ceiling = unit === 'cents' ? MONTHLY_RENT_MAX_DOLLARS * 100 : MONTHLY_RENT_MAX_DOLLARS;
    return exactObject({
      ...groupCreateFields,
      monthly_rent: withWireRule(z.int().positive().max(ceiling), {
        description: `The monthly rent in ${unit}, as the API reads it (the client option apiRentUnit).`,
      }),
    });
  };
  return {
    verificationRequestSchema,
    applicantCreateParamsSchema,
    propertyCreateParamsSchema,
    applicantGroupCreateParamsSchema,
    createParamsSchema,
    wireBodySchema,
  };
});
