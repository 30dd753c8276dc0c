/**
 * Webhook events. The interface spec names `webhook_url` but shows no events; the shapes below
 * come from the vendor's documentation (see the webhooks issue). Every event is a JSON object
 * with a `code`. Events are read liberally: unknown fields are kept (`z.looseObject`) and an
 * unknown `code` is an {@link UnknownWebhookEvent}, not an error, because the vendor adds events
 * without notice and a receiver must not start rejecting deliveries when it does.
 */
import { z } from 'zod';
import { idSchema, openEnum, reasonCompletedSchema } from './common.js';

/** Report kinds named in the vendor's `REPORT_READY` documentation. */
export const WEBHOOK_REPORT_TYPES = ['income', 'asset', 'identity'] as const;

/** Kind of report in a `REPORT_READY` event: income, asset, identity, or a newer value. */
export const webhookReportTypeSchema = openEnum(WEBHOOK_REPORT_TYPES);
/** Kind of report in a `REPORT_READY` event. */
export type WebhookReportType = z.infer<typeof webhookReportTypeSchema>;

// Shared field groups of the screening (earlier) interface; JSDoc on each key flows into the
// inferred event types, so every event field is documented where the caller reads it.
const screeningGroupFields = {
  /** The screening group the event is about. */
  screening_group_id: idSchema,
};

const screeningFields = {
  ...screeningGroupFields,
  /** The screening (one applicant's screening in the group) the event is about. */
  screening_id: idSchema,
};

const bankFields = {
  ...screeningFields,
  /** The name of the bank concerned. */
  value: z.string(),
};

// ---------------------------------------------------------------------------------------------
// Applicant groups (current interface)
// ---------------------------------------------------------------------------------------------

/** `VERIFICATION_STARTED`: an applicant started a verification. */
export const verificationStartedEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('VERIFICATION_STARTED'),
  /** The verification that started. */
  verification_id: idSchema,
});
/** `VERIFICATION_STARTED`: an applicant started a verification. */
export type VerificationStartedEvent = z.infer<typeof verificationStartedEventSchema>;

/** `VERIFICATION_COMPLETED`: a verification completed; sent again when an applicant re-opens and completes it. */
export const verificationCompletedEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('VERIFICATION_COMPLETED'),
  /** The verification that completed. */
  verification_id: idSchema,
  /** Why the verification is complete, e.g. `finished`, `no_bank`, `no_income`. */
  reason_completed: reasonCompletedSchema,
});
/** `VERIFICATION_COMPLETED`: a verification completed; sent again when an applicant re-opens and completes it. */
export type VerificationCompletedEvent = z.infer<typeof verificationCompletedEventSchema>;

/** `REPORT_READY`: a report can be read with `reports.retrieve(report_id)`. */
export const reportReadyEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('REPORT_READY'),
  /** The applicant group the report belongs to. */
  applicant_group_id: idSchema,
  /** The applicant the report is about. */
  applicant_id: idSchema,
  /** The report that is ready. */
  report_id: idSchema,
  /** Kind of report: income, asset, identity, or a newer value. */
  report_type: webhookReportTypeSchema,
});
/** `REPORT_READY`: a report can be read with `reports.retrieve(report_id)`. */
export type ReportReadyEvent = z.infer<typeof reportReadyEventSchema>;

// ---------------------------------------------------------------------------------------------
// Screening groups (earlier interface)
// ---------------------------------------------------------------------------------------------

/** `BEGIN_SCREENING`: an applicant began a screening. */
export const beginScreeningEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('BEGIN_SCREENING'),
  ...screeningFields,
});
/** `BEGIN_SCREENING`: an applicant began a screening. */
export type BeginScreeningEvent = z.infer<typeof beginScreeningEventSchema>;

/** `SCREENING_COMPLETED`: one applicant's screening completed. */
export const screeningCompletedEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('SCREENING_COMPLETED'),
  ...screeningFields,
});
/** `SCREENING_COMPLETED`: one applicant's screening completed. */
export type ScreeningCompletedEvent = z.infer<typeof screeningCompletedEventSchema>;

/** `SCREENING_GROUP_COMPLETED`: every screening of the group completed. */
export const screeningGroupCompletedEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('SCREENING_GROUP_COMPLETED'),
  ...screeningGroupFields,
});
/** `SCREENING_GROUP_COMPLETED`: every screening of the group completed. */
export type ScreeningGroupCompletedEvent = z.infer<typeof screeningGroupCompletedEventSchema>;

/** `BANK_NOT_SUPPORTED`: the applicant's bank (`value`) is not supported. */
export const bankNotSupportedEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('BANK_NOT_SUPPORTED'),
  ...bankFields,
});
/** `BANK_NOT_SUPPORTED`: the applicant's bank (`value`) is not supported. */
export type BankNotSupportedEvent = z.infer<typeof bankNotSupportedEventSchema>;

/** `BANK_CANNOT_CONNECT`: the applicant's bank (`value`) could not be connected. */
export const bankCannotConnectEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('BANK_CANNOT_CONNECT'),
  ...bankFields,
});
/** `BANK_CANNOT_CONNECT`: the applicant's bank (`value`) could not be connected. */
export type BankCannotConnectEvent = z.infer<typeof bankCannotConnectEventSchema>;

/** `NO_BANK`: the applicant said they have no bank account. */
export const noBankEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('NO_BANK'),
  ...screeningFields,
});
/** `NO_BANK`: the applicant said they have no bank account. */
export type NoBankEvent = z.infer<typeof noBankEventSchema>;

/** `SHARE_BANK`: the applicant shares a bank account (with another applicant). */
export const shareBankEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('SHARE_BANK'),
  ...screeningFields,
});
/** `SHARE_BANK`: the applicant shares a bank account (with another applicant). */
export type ShareBankEvent = z.infer<typeof shareBankEventSchema>;

/** `NO_INCOME`: the applicant said they have no income. */
export const noIncomeEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('NO_INCOME'),
  ...screeningFields,
});
/** `NO_INCOME`: the applicant said they have no income. */
export type NoIncomeEvent = z.infer<typeof noIncomeEventSchema>;

/** `RE_OPEN_SCREENING`: a completed screening was re-opened by the applicant. */
export const reOpenScreeningEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('RE_OPEN_SCREENING'),
  ...screeningFields,
});
/** `RE_OPEN_SCREENING`: a completed screening was re-opened by the applicant. */
export type ReOpenScreeningEvent = z.infer<typeof reOpenScreeningEventSchema>;

/** `REPORT_SOON_TO_EXPIRE`: the group's report data will expire soon. */
export const reportSoonToExpireEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('REPORT_SOON_TO_EXPIRE'),
  ...screeningGroupFields,
});
/** `REPORT_SOON_TO_EXPIRE`: the group's report data will expire soon. */
export type ReportSoonToExpireEvent = z.infer<typeof reportSoonToExpireEventSchema>;

/** `REPORT_EXPIRED`: the group's report data expired and can no longer be read. */
export const reportExpiredEventSchema = z.looseObject({
  /** Event code. */
  code: z.literal('REPORT_EXPIRED'),
  ...screeningGroupFields,
});
/** `REPORT_EXPIRED`: the group's report data expired and can no longer be read. */
export type ReportExpiredEvent = z.infer<typeof reportExpiredEventSchema>;

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
] as const satisfies ReadonlyArray<(typeof knownEventSchemas)[number]['shape']['code']['value']>;

/** A code this SDK knows. */
export type WebhookEventCode = (typeof WEBHOOK_EVENT_CODES)[number];

/** A known event with a valid shape: a union discriminated on `code`. */
export const knownWebhookEventSchema = z.discriminatedUnion('code', knownEventSchemas);

/** An event whose `code` this SDK knows, validated and typed. `switch (event.code)` narrows it. */
export type KnownWebhookEvent = z.infer<typeof knownWebhookEventSchema>;

/**
 * An event whose `code` this SDK does not know yet: delivered as received, not rejected.
 * At run time its `code` is never one of {@link WEBHOOK_EVENT_CODES}.
 */
export interface UnknownWebhookEvent {
  /** Event code, not one of {@link WEBHOOK_EVENT_CODES}. */
  code: string;
  /** Every other field, as sent. */
  [field: string]: unknown;
}

/**
 * A webhook event: a known event (typed) or an unknown one (kept as sent).
 *
 * TypeScript cannot express "any string except these", so `event.code === 'REPORT_READY'` alone
 * leaves `ReportReadyEvent | UnknownWebhookEvent`. Narrow with {@link isKnownWebhookEvent} first,
 * then `switch (event.code)` gives each event its exact type.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

// Types check that every listed code has a schema; this map is the single run-time lookup.
const schemaByCode: ReadonlyMap<string, z.ZodType<KnownWebhookEvent>> = new Map(
  knownEventSchemas.map((schema) => [schema.shape.code.value, schema]),
);

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
 * Any JSON object with a string `code`. A known code is validated against its event schema
 * (issues name the field, e.g. `report_id`); an unknown code passes through as an
 * {@link UnknownWebhookEvent}.
 */
export const webhookEventSchema = z
  .looseObject({
    /** Event code: one of {@link WEBHOOK_EVENT_CODES}, or a newer one. */
    code: z.string(),
  })
  .transform((event, ctx): WebhookEvent => {
    const schema = schemaByCode.get(event.code);
    if (schema === undefined) return event;
    const result = schema.safeParse(event);
    if (result.success) return result.data;
    // Re-raise the event schema's issues unchanged so their paths still name the bad field.
    for (const issue of result.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  });
