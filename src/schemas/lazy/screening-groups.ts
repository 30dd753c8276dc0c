/**
 * Screening groups, the earlier interface family (docs/wire-contract.md §2.6, §2.7, §4.5, §4.6). Its deprecated
 * fields are still typed so existing callers keep compiling, with `@deprecated` pointing at the
 * income criteria that replace them.
 */
import { zod } from '../../load/zod.js';
import {
  commonRequestSchemas,
  commonSchemas,
  exactObject,
  GROUP_STATUSES,
  type GroupStatus,
  type OpenEnum,
  openEnum,
  type ReasonCompleted,
  responseObject,
  wireQuery,
} from './common.js';
import { onFirstUse } from './on-first-use.js';

/** Screening statuses: not_started, in_progress, completed. */
export const SCREENING_STATUSES = GROUP_STATUSES;

/** Values of the deprecated approval recommendation. */
export const APPROVAL_RECOMMENDATIONS = ['unavailable', 'approve', 'decline'] as const;

// ---------------------------------------------------------------------------------------------
// Public types (proved equal to the schemas below by test/schemas/types.test-d.ts)
// ---------------------------------------------------------------------------------------------

/** One applicant's screening in a screening group. */
export interface Screening {
  /** Screening identifier. */
  id: string;
  /** Given name of the applicant, as entered on create. */
  applicant_first_name: string;
  /** Family name of the applicant, as entered on create. */
  applicant_last_name: string;
  /** Applicant email; the invitation went there. */
  applicant_email: string;
  /**
   * `not_started` (invitation not yet followed), `in_progress` (begun, final report not
   * submitted) or `completed` (outcome in `reason_completed`); a newer value is passed through.
   */
  screening_status: OpenEnum<(typeof SCREENING_STATUSES)[number]>;
  /**
   * Why the screening is complete; `not_completed` while it is not. Known values: `finished`,
   * `no_bank`, `no_online_banking`, `share_bank`, `no_income`, `bank_cannot_connect`, `missing_bank`.
   */
  reason_completed: ReasonCompleted;
}

/**
 * A screening group (the earlier interface family). Only `id` is sure to be present: the one
 * complete object in the service's pages lacks `is_expired`, `decision_maker_display_name`,
 * `correlation_id` and `income_multiplier_threshold`, so every other field is optional (and may
 * be `null`).
 */
export interface ScreeningGroup {
  /** Group identifier. */
  id: string;
  /** One screening per applicant. */
  screenings?: Screening[] | null | undefined;
  /** Known values: `not_started`, `in_progress`, `completed`; a newer value is passed through. */
  status?: GroupStatus | null | undefined;
  /** Name of the property, as entered on create. */
  property_name?: string | null | undefined;
  /** Street address; on create it may include the unit appended, on list the unit is separate. */
  property_street_address?: string | null | undefined;
  /** Unit number; empty when none was given. */
  unit_number?: string | null | undefined;
  /** Monthly rent in CENTS (`285000` is $2,850). Create takes dollars (`monthly_rent`). */
  monthly_rent_cents?: number | null | undefined;
  /**
   * Known values: `unavailable`, `approve`, `decline`. Absent or `null` once the service stops
   * sending it.
   * @deprecated Replaced by income criteria: pass `criteria_rule_set_id` on create and read
   * `criteria_rule_results` in the income report (`reports.retrieve`).
   */
  approval_recommendation?: OpenEnum<(typeof APPROVAL_RECOMMENDATIONS)[number]> | null | undefined;
  /** Whether the decision maker pays (`false`: the applicant pays). */
  is_decision_maker_paying?: boolean | null | undefined;
  /**
   * Whether the group expired: requests expire within 14 days if not fully completed. Absent from
   * the service's own example of a retrieved group.
   */
  is_expired?: boolean | null | undefined;
  /** Whether the report expired; `false` when no report exists. `null` is also sent (seen in lists and retrieves). */
  is_report_expired?: boolean | null | undefined;
  /** Display name of the decision maker (may be a company name). Absent from the service's own example. */
  decision_maker_display_name?: string | null | undefined;
  /**
   * Net income to rent multiplier the group was created with (`2.5` by default). Absent or
   * `null` once the service stops sending it.
   * @deprecated Replaced by income criteria: pass `criteria_rule_set_id` on create and read
   * `criteria_rule_results` in the income report (`reports.retrieve`).
   */
  income_multiplier_threshold?: number | null | undefined;
  /** Saved with the group to correlate to an id held by the caller; `null` or absent when none was given. */
  correlation_id?: string | null | undefined;
  /**
   * When the group was created: a Unix timestamp, in SECONDS or, as some samples show, in
   * MILLISECONDS (possibly fractional). `toDate(created_at_timestamp)` tells them apart.
   */
  created_at_timestamp?: number | null | undefined;
}

/** Body of `GET /api/v1/screening_groups` (one page of 25). */
export interface ScreeningGroupListResponse {
  /** The groups of this page (25 per page). */
  screening_groups: ScreeningGroup[];
  /**
   * Total number of groups over all pages. The vendor documents it as optional: absent or
   * `null`, pagination ends on an empty or short page instead.
   */
  total_count?: number | null | undefined;
}

/** One applicant in the body of a screening-group create. */
export interface ScreeningApplicantCreateParams {
  /** First name (not blank). */
  applicant_first_name: string;
  /** Last name (not blank). */
  applicant_last_name: string;
  /** Email; receives the invitation. In production a nonexistent address gives 400. */
  applicant_email: string;
  /** Phone number in international E.164 form, no spaces (`+14155550123`); giving it also sends a text message. */
  applicant_phone_number?: string | undefined;
}

/** The property in the body of a screening-group create; it is displayed to the applicant. */
export interface ScreeningPropertyCreateParams {
  /** Property name (not blank). */
  name: string;
  /** Street address (not blank). */
  street_address: string;
  /** City (not blank). */
  city: string;
  /** ZIP code (not blank). */
  zip_code: string;
  /** State, SPELLED OUT (`California`, not `CA`): a two-letter code is rejected, naming the state to use. */
  state: string;
  /** Unit number or other unit label, free text. */
  unit?: string | undefined;
}

/** Body of a screening-group create. Exact: an unknown key is rejected before any I/O. */
export interface ScreeningGroupCreateParams {
  /** The applicants, at least one; each receives an invitation unless invitations are disabled. */
  applicants: ScreeningApplicantCreateParams[];
  /** The property, displayed to the applicant. */
  property: ScreeningPropertyCreateParams;
  /** Whether the decision maker (`true`) or the applicant (`false`) pays. */
  is_decision_maker_paying: boolean;
  /** Display name of the decision maker; may be a company name. */
  decision_maker_display_name: string;
  /**
   * Monthly rent in DOLLARS (not cents): a positive whole number, at most 100 000
   * (`MONTHLY_RENT_MAX_DOLLARS`). For several applicants, the rent of the whole household.
   */
  monthly_rent: number;
  /**
   * Net income to rent multiplier; the service defaults to 2.5.
   * @deprecated Replaced by income criteria: pass `criteria_rule_set_id` instead.
   */
  income_multiplier_threshold?: number | undefined;
  /** Criteria rule set to use (replaces `income_multiplier_threshold`); the default rule set applies when left out. */
  criteria_rule_set_id?: string | undefined;
  /** An absolute http(s) URL receiving webhook notifications for this group. */
  webhook_url?: string | undefined;
  /** When true, no invitation is sent. */
  is_invitation_disabled?: boolean | undefined;
  /**
   * Your own identifier, saved with the group (the service's older pages document it). Screening
   * groups cannot be looked up by it, so unlike an applicant group's it gives no recovery after
   * an ambiguous failure: that create still throws `GroupMayHaveBeenCreatedError`.
   */
  correlation_id?: string | undefined;
}

/** Filters of `screeningGroups.list()`. Exact: an unknown key is rejected before any I/O. */
export interface ScreeningGroupListParams {
  /** Page to pull, from 1; each page holds 25 records. */
  page?: number | undefined;
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/**
 * The screening group schemas, built on first use and the same objects after: importing the client
 * builds none of them (docs/benchmarks.md, "Cold start, round 6"). `../screening-groups.ts` exports each one.
 */
export const screeningGroupSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const { groupStatusSchema, idSchema, reasonCompletedSchema, timestampSchema } = commonSchemas();
  const {
    emailSchema,
    httpUrlSchema,
    monthlyRentSchema,
    phoneNumberSchema,
    requiredTextSchema,
    spelledOutStateSchema,
  } = commonRequestSchemas();
  /** One applicant's screening. */
  const screeningSchema = responseObject({
    id: idSchema,
    applicant_first_name: z.string(),
    applicant_last_name: z.string(),
    applicant_email: z.string(),
    screening_status: openEnum(SCREENING_STATUSES),
    reason_completed: reasonCompletedSchema,
  });

  /** A screening group: only `id` is required (docs/wire-contract.md §2.6). */
  const screeningGroupSchema = responseObject({
    id: idSchema,
    screenings: z.array(screeningSchema).nullish(),
    status: groupStatusSchema.nullish(),
    property_name: z.string().nullish(),
    property_street_address: z.string().nullish(),
    unit_number: z.string().nullish(),
    monthly_rent_cents: z.number().nullish(),
    approval_recommendation: openEnum(APPROVAL_RECOMMENDATIONS).nullish(),
    is_decision_maker_paying: z.boolean().nullish(),
    is_expired: z.boolean().nullish(),
    is_report_expired: z.boolean().nullish(),
    decision_maker_display_name: z.string().nullish(),
    income_multiplier_threshold: z.number().nullish(),
    correlation_id: z.string().nullish(),
    created_at_timestamp: timestampSchema.nullish(),
  });

  /** Body of `GET /api/v1/screening_groups`; `total_count` is optional (the vendor marks it so). */
  const screeningGroupListResponseSchema = responseObject({
    screening_groups: z.array(screeningGroupSchema),
    total_count: z.int().nullish(),
  });

  // ---------------------------------------------------------------------------------------------
  // Requests: exact objects (see exactObject in common.ts)
  // ---------------------------------------------------------------------------------------------

  /** One applicant in the body of `POST /api/v1/screening_groups`. */
  const screeningApplicantCreateParamsSchema = exactObject({
    applicant_first_name: requiredTextSchema,
    applicant_last_name: requiredTextSchema,
    applicant_email: emailSchema,
    applicant_phone_number: phoneNumberSchema.optional(),
  });

  /** The property in the body of `POST /api/v1/screening_groups`. */
  const screeningPropertyCreateParamsSchema = exactObject({
    name: requiredTextSchema,
    street_address: requiredTextSchema,
    city: requiredTextSchema,
    zip_code: requiredTextSchema,
    state: spelledOutStateSchema,
    unit: z.string().optional(),
  });

  /** Body of `POST /api/v1/screening_groups`: exact; newer fields go in the per-call `extraBody` option. */
  const screeningGroupCreateParamsSchema = exactObject({
    applicants: z
      .array(screeningApplicantCreateParamsSchema)
      .min(1, { error: 'must list at least one applicant' }),
    property: screeningPropertyCreateParamsSchema,
    is_decision_maker_paying: z.boolean({ error: 'must be true or false (whether the decision maker pays)' }),
    decision_maker_display_name: requiredTextSchema,
    monthly_rent: monthlyRentSchema,
    income_multiplier_threshold: z.number().positive({ error: 'must be a positive multiplier' }).optional(),
    criteria_rule_set_id: requiredTextSchema.optional(),
    webhook_url: httpUrlSchema.optional(),
    is_invitation_disabled: z.boolean().optional(),
    correlation_id: requiredTextSchema.optional(),
  });

  /** Query of `GET /api/v1/screening_groups` (docs/wire-contract.md §4.5); parsing yields the query record to send. */
  const screeningGroupListParamsSchema = wireQuery(
    exactObject(
      {
        page: z
          .int({ error: 'must be an integer page number' })
          .min(1, { error: 'must be 1 or more' })
          .optional(),
      },
      'extraQuery',
    ),
    (params): Record<string, string> => (params.page === undefined ? {} : { page: String(params.page) }),
  );
  return {
    screeningSchema,
    screeningGroupSchema,
    screeningGroupListResponseSchema,
    screeningApplicantCreateParamsSchema,
    screeningPropertyCreateParamsSchema,
    screeningGroupCreateParamsSchema,
    screeningGroupListParamsSchema,
  };
});
