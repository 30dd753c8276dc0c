/**
 * Webhook events. The vendor's documentation names `webhook_url` but shows no events; the shapes below
 * come from the vendor's documentation (docs/wire-contract.md §6). Every event is a JSON object
 * with a `code`. Events are read liberally: unknown fields are kept (`z.looseObject`) and an
 * unknown `code` is an {@link UnknownWebhookEvent}, not an error, because the vendor adds events
 * without notice and a receiver must not start rejecting deliveries when it does.
 */
import type * as z from 'zod';
import { zod } from '../../load/zod.js';
import { commonSchemas, type OpenEnum, openEnum, type ReasonCompleted, responseObject } from './common.js';
import { onFirstUse } from './on-first-use.js';

/** Report kinds named in the vendor's `REPORT_READY` documentation. */
export const WEBHOOK_REPORT_TYPES = ['income', 'asset', 'identity'] as const;

/** Kind of report in a `REPORT_READY` event. Known values: `income`, `asset`, `identity`. */
export type WebhookReportType = OpenEnum<(typeof WEBHOOK_REPORT_TYPES)[number]>;

// ---------------------------------------------------------------------------------------------
// Public types (proved equal to the schemas below by test/webhooks/events.test-d.ts)
// ---------------------------------------------------------------------------------------------

/** `VERIFICATION_STARTED`: an applicant started a verification. */
export interface VerificationStartedEvent {
  /** Event code: `VERIFICATION_STARTED`. */
  code: 'VERIFICATION_STARTED';
  /** The verification that started (an `applicant.verifications[].id`). */
  verification_id: string;
}

/** `VERIFICATION_COMPLETED`: a verification completed; sent again when an applicant re-opens and completes it. */
export interface VerificationCompletedEvent {
  /** Event code: `VERIFICATION_COMPLETED`. */
  code: 'VERIFICATION_COMPLETED';
  /** The verification that completed (an `applicant.verifications[].id`). */
  verification_id: string;
  /** Why the verification is complete. Known values: `finished`, `no_bank`, `no_online_banking`, `share_bank`, `no_income`, `bank_cannot_connect`, `missing_bank`. */
  reason_completed: ReasonCompleted;
}

/** `REPORT_READY`: a report can be read with `reports.retrieve(report_id)`. */
export interface ReportReadyEvent {
  /** Event code: `REPORT_READY`. */
  code: 'REPORT_READY';
  /** The applicant group the report belongs to. */
  applicant_group_id: string;
  /**
   * The applicant the report is about. Absent (or `null`) for a household report, which covers
   * every applicant of the group.
   */
  applicant_id?: string | null | undefined;
  /** The report that is ready: pass it to `reports.retrieve()`. */
  report_id: string;
  /** Kind of report. Known values: `income`, `asset`, `identity`; a newer value is passed through. */
  report_type: WebhookReportType;
}

/** Fields of every screening-group event. */
export interface ScreeningGroupEventFields {
  /** The screening group the event is about. */
  screening_group_id: string;
}

/** Fields of every event about one applicant's screening. */
export interface ScreeningEventFields extends ScreeningGroupEventFields {
  /** The screening (one applicant's screening in the group) the event is about. */
  screening_id: string;
}

/** Fields of the bank events. */
export interface BankEventFields extends ScreeningEventFields {
  /** The name of the bank concerned. */
  value: string;
}

/** `BEGIN_SCREENING`: an applicant began a screening. */
export interface BeginScreeningEvent extends ScreeningEventFields {
  /** Event code: `BEGIN_SCREENING`. */
  code: 'BEGIN_SCREENING';
}

/** `SCREENING_COMPLETED`: one applicant's screening completed. */
export interface ScreeningCompletedEvent extends ScreeningEventFields {
  /** Event code: `SCREENING_COMPLETED`. */
  code: 'SCREENING_COMPLETED';
}

/** `SCREENING_GROUP_COMPLETED`: every screening of the group completed. */
export interface ScreeningGroupCompletedEvent extends ScreeningGroupEventFields {
  /** Event code: `SCREENING_GROUP_COMPLETED`. */
  code: 'SCREENING_GROUP_COMPLETED';
}

/** `BANK_NOT_SUPPORTED`: the applicant's bank (`value`) is not supported. */
export interface BankNotSupportedEvent extends BankEventFields {
  /** Event code: `BANK_NOT_SUPPORTED`. */
  code: 'BANK_NOT_SUPPORTED';
}

/** `BANK_CANNOT_CONNECT`: the applicant's bank (`value`) could not be connected. */
export interface BankCannotConnectEvent extends BankEventFields {
  /** Event code: `BANK_CANNOT_CONNECT`. */
  code: 'BANK_CANNOT_CONNECT';
}

/** `NO_BANK`: the applicant said they have no bank account. */
export interface NoBankEvent extends ScreeningEventFields {
  /** Event code: `NO_BANK`. */
  code: 'NO_BANK';
}

/** `SHARE_BANK`: the applicant shares a bank account (with another applicant). */
export interface ShareBankEvent extends ScreeningEventFields {
  /** Event code: `SHARE_BANK`. */
  code: 'SHARE_BANK';
}

/** `NO_INCOME`: the applicant said they have no income. */
export interface NoIncomeEvent extends ScreeningEventFields {
  /** Event code: `NO_INCOME`. */
  code: 'NO_INCOME';
}

/** `RE_OPEN_SCREENING`: a completed screening was re-opened by the applicant. */
export interface ReOpenScreeningEvent extends ScreeningEventFields {
  /** Event code: `RE_OPEN_SCREENING`. */
  code: 'RE_OPEN_SCREENING';
}

/** `REPORT_SOON_TO_EXPIRE`: the group's report data will expire soon. */
export interface ReportSoonToExpireEvent extends ScreeningGroupEventFields {
  /** Event code: `REPORT_SOON_TO_EXPIRE`. */
  code: 'REPORT_SOON_TO_EXPIRE';
}

/** `REPORT_EXPIRED`: the group's report data expired and can no longer be read. */
export interface ReportExpiredEvent extends ScreeningGroupEventFields {
  /** Event code: `REPORT_EXPIRED`. */
  code: 'REPORT_EXPIRED';
}

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

/** Every event code this SDK knows, applicant-group codes first, then screening-group codes. */
export const WEBHOOK_EVENT_CODES = [
  'VERIFICATION_STARTED',
  'VERIFICATION_COMPLETED',
  'REPORT_READY',
  'BEGIN_SCREENING',
  'SCREENING_COMPLETED',
  'SCREENING_GROUP_COMPLETED',
  'BANK_NOT_SUPPORTED',
  'BANK_CANNOT_CONNECT',
  'NO_BANK',
  'SHARE_BANK',
  'NO_INCOME',
  'RE_OPEN_SCREENING',
  'REPORT_SOON_TO_EXPIRE',
  'REPORT_EXPIRED',
] as const satisfies ReadonlyArray<KnownEventCode>;

/** The code of an event some schema below knows: every listed code must be one. */
type KnownEventCode = z.output<ReturnType<typeof webhookSchemas>['knownWebhookEventSchema']>['code'];

/** A code this SDK knows. */
export type WebhookEventCode = (typeof WEBHOOK_EVENT_CODES)[number];

/** An event whose `code` this SDK knows, validated and typed. `switch (event.code)` narrows it. */
export type KnownWebhookEvent =
  | VerificationStartedEvent
  | VerificationCompletedEvent
  | ReportReadyEvent
  | BeginScreeningEvent
  | ScreeningCompletedEvent
  | ScreeningGroupCompletedEvent
  | BankNotSupportedEvent
  | BankCannotConnectEvent
  | NoBankEvent
  | ShareBankEvent
  | NoIncomeEvent
  | ReOpenScreeningEvent
  | ReportSoonToExpireEvent
  | ReportExpiredEvent;

/**
 * An event whose `code` this SDK does not know yet: delivered as received, not rejected.
 * At run time its `code` is never one of {@link WEBHOOK_EVENT_CODES}. Its other fields are all
 * there; `extraFields(event)` reads them.
 */
export interface UnknownWebhookEvent {
  /** Event code, not one of {@link WEBHOOK_EVENT_CODES}. */
  code: string;
}

/**
 * A webhook event: a known event (typed) or an unknown one (kept as sent).
 *
 * TypeScript cannot express "any string except these", so `event.code === 'REPORT_READY'` alone
 * leaves `ReportReadyEvent | UnknownWebhookEvent`. Narrow with {@link isKnownWebhookEvent} first,
 * then `switch (event.code)` gives each event its exact type.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

const knownCodes: ReadonlySet<string> = new Set<string>(WEBHOOK_EVENT_CODES);

/** Whether `code` is one of {@link WEBHOOK_EVENT_CODES}. */
export function isKnownWebhookEventCode(code: string): code is WebhookEventCode {
  return knownCodes.has(code);
}

/**
 * Narrows a parsed {@link WebhookEvent} to a {@link KnownWebhookEvent}. Sound for events from
 * `unwrapWebhook` / `webhookEventSchema`, which have validated every known code's shape.
 */
export function isKnownWebhookEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return knownCodes.has(event.code);
}

/**
 * The webhook event schemas, built on first use and the same objects after: importing the client
 * builds none of them (docs/benchmarks.md, "Cold start, round 6"). `../webhooks.ts` exports each one.
 */
export const webhookSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const { idSchema, reasonCompletedSchema } = commonSchemas();
  /** Kind of report in a `REPORT_READY` event: income, asset, identity, or a newer value. */
  const webhookReportTypeSchema = openEnum(WEBHOOK_REPORT_TYPES);
  const screeningGroupFields = { screening_group_id: idSchema };
  const screeningFields = { ...screeningGroupFields, screening_id: idSchema };
  const bankFields = { ...screeningFields, value: z.string() };

  /** `VERIFICATION_STARTED`: an applicant started a verification. */
  const verificationStartedEventSchema = responseObject({
    code: z.literal('VERIFICATION_STARTED'),
    verification_id: idSchema,
  });

  /** `VERIFICATION_COMPLETED`: a verification completed. */
  const verificationCompletedEventSchema = responseObject({
    code: z.literal('VERIFICATION_COMPLETED'),
    verification_id: idSchema,
    reason_completed: reasonCompletedSchema,
  });

  /** `REPORT_READY`: a report can be read; `applicant_id` is absent for household reports. */
  const reportReadyEventSchema = responseObject({
    code: z.literal('REPORT_READY'),
    applicant_group_id: idSchema,
    applicant_id: idSchema.nullish(),
    report_id: idSchema,
    report_type: webhookReportTypeSchema,
  });

  /** `BEGIN_SCREENING`: an applicant began a screening. */
  const beginScreeningEventSchema = responseObject({
    code: z.literal('BEGIN_SCREENING'),
    ...screeningFields,
  });

  /** `SCREENING_COMPLETED`: one applicant's screening completed. */
  const screeningCompletedEventSchema = responseObject({
    code: z.literal('SCREENING_COMPLETED'),
    ...screeningFields,
  });

  /** `SCREENING_GROUP_COMPLETED`: every screening of the group completed. */
  const screeningGroupCompletedEventSchema = responseObject({
    code: z.literal('SCREENING_GROUP_COMPLETED'),
    ...screeningGroupFields,
  });

  /** `BANK_NOT_SUPPORTED`: the applicant's bank (`value`) is not supported. */
  const bankNotSupportedEventSchema = responseObject({
    code: z.literal('BANK_NOT_SUPPORTED'),
    ...bankFields,
  });

  /** `BANK_CANNOT_CONNECT`: the applicant's bank (`value`) could not be connected. */
  const bankCannotConnectEventSchema = responseObject({
    code: z.literal('BANK_CANNOT_CONNECT'),
    ...bankFields,
  });

  /** `NO_BANK`: the applicant said they have no bank account. */
  const noBankEventSchema = responseObject({ code: z.literal('NO_BANK'), ...screeningFields });

  /** `SHARE_BANK`: the applicant shares a bank account (with another applicant). */
  const shareBankEventSchema = responseObject({ code: z.literal('SHARE_BANK'), ...screeningFields });

  /** `NO_INCOME`: the applicant said they have no income. */
  const noIncomeEventSchema = responseObject({ code: z.literal('NO_INCOME'), ...screeningFields });

  /** `RE_OPEN_SCREENING`: a completed screening was re-opened by the applicant. */
  const reOpenScreeningEventSchema = responseObject({
    code: z.literal('RE_OPEN_SCREENING'),
    ...screeningFields,
  });

  /** `REPORT_SOON_TO_EXPIRE`: the group's report data will expire soon. */
  const reportSoonToExpireEventSchema = responseObject({
    code: z.literal('REPORT_SOON_TO_EXPIRE'),
    ...screeningGroupFields,
  });

  /** `REPORT_EXPIRED`: the group's report data expired and can no longer be read. */
  const reportExpiredEventSchema = responseObject({
    code: z.literal('REPORT_EXPIRED'),
    ...screeningGroupFields,
  });

  // ---------------------------------------------------------------------------------------------
  // The union
  // ---------------------------------------------------------------------------------------------

  const knownEventSchemas = [
    verificationStartedEventSchema,
    verificationCompletedEventSchema,
    reportReadyEventSchema,
    beginScreeningEventSchema,
    screeningCompletedEventSchema,
    screeningGroupCompletedEventSchema,
    bankNotSupportedEventSchema,
    bankCannotConnectEventSchema,
    noBankEventSchema,
    shareBankEventSchema,
    noIncomeEventSchema,
    reOpenScreeningEventSchema,
    reportSoonToExpireEventSchema,
    reportExpiredEventSchema,
  ] as const;

  /** A known event with a valid shape: a union discriminated on `code`. */
  const knownWebhookEventSchema = z.discriminatedUnion('code', knownEventSchemas);

  // Types check that every listed code has a schema; this map is the single run-time lookup.
  const schemaByCode: ReadonlyMap<string, z.ZodType<KnownWebhookEvent>> = new Map(
    knownEventSchemas.map((schema) => [schema.shape.code.value, schema]),
  );

  /**
   * Any JSON object with a string `code`. A known code is validated against its event schema
   * (issues name the field, e.g. `report_id`); an unknown code passes through as an
   * {@link UnknownWebhookEvent}.
   */
  const webhookEventSchema = responseObject({ code: z.string() }).transform((event, ctx): WebhookEvent => {
    const schema = schemaByCode.get(event.code);
    if (schema === undefined) return event;
    const result = schema.safeParse(event);
    if (result.success) return result.data;
    // Re-raise the event schema's issues unchanged so their paths still name the bad field.
    for (const issue of result.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  });
  return {
    webhookReportTypeSchema,
    verificationStartedEventSchema,
    verificationCompletedEventSchema,
    reportReadyEventSchema,
    beginScreeningEventSchema,
    screeningCompletedEventSchema,
    screeningGroupCompletedEventSchema,
    bankNotSupportedEventSchema,
    bankCannotConnectEventSchema,
    noBankEventSchema,
    shareBankEventSchema,
    noIncomeEventSchema,
    reOpenScreeningEventSchema,
    reportSoonToExpireEventSchema,
    reportExpiredEventSchema,
    knownWebhookEventSchema,
    webhookEventSchema,
  };
});
