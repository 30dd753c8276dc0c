/**
 * Building blocks shared by every schema family. Responses are read liberally (the service adds
 * fields and enum values without notice), requests strictly (a bad body would send real emails).
 */
import { z } from 'zod';
import { stateNameForCode } from '../helpers/states.js';

/**
 * The type of an open enum: the known values autocomplete, yet any other string is accepted.
 * `string & {}` keeps TypeScript from collapsing the literals into plain `string`.
 */
export type OpenEnum<T extends string> = T | (string & {});

/**
 * A string schema whose type lists the known values while any other string still parses, so a
 * value the service adds later does not break callers.
 *
 * @param values The values documented or seen in the spec.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const known: ReadonlySet<string> = new Set(values);
  return z
    .custom<OpenEnum<T[number]>>((value) => typeof value === 'string', {
      error: (issue) =>
        `Expected a string (known values: ${values.join(', ')}), received ${typeName(issue.input)}`,
    })
    .meta({ description: `One of ${values.join(', ')}, or a value added later.`, knownValues: [...known] });
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Identifiers are uuids on the wire today, but responses accept any string so a format change cannot break reads. */
export const idSchema = z.string();

/** ISO 8601 date-time string as sent by the service; kept as text (the SDK does not reformat wire values). */
export const dateTimeSchema = z.string();

/** An integer amount of cents. */
export const centsSchema = z.int();

/** Unix timestamp of creation: seconds (fractional) or, on screening groups, milliseconds. See `toDate()`. */
export const timestampSchema = z.number();

/** Known statuses of an applicant group or screening group (spec 3.2). */
export const GROUP_STATUSES = ['not_started', 'in_progress', 'completed'] as const;

/** Status of an applicant group or screening group: not_started, in_progress, completed, or a newer value. */
export const groupStatusSchema = openEnum(GROUP_STATUSES);
/** Status of an applicant group or screening group. */
export type GroupStatus = z.infer<typeof groupStatusSchema>;

/** Verification kinds seen in the spec (2.1, 2.3). */
export const VERIFICATION_TYPES = [
  'payroll_income_verification',
  'identity_verification',
  'asset_verification',
  'income_verification',
] as const;

/** Kind of verification: payroll_income_verification, identity_verification, asset_verification, ... */
export const verificationTypeSchema = openEnum(VERIFICATION_TYPES);
/** Kind of verification. */
export type VerificationType = z.infer<typeof verificationTypeSchema>;

/** Income sources an applicant may connect (spec 2.8: bank, payroll; documents for uploads). */
export const INCOME_SOURCES = ['bank', 'payroll', 'documents'] as const;

/** An income source: bank, payroll, documents, or a newer value. */
export const incomeSourceSchema = openEnum(INCOME_SOURCES);
/** An income source. */
export type IncomeSource = z.infer<typeof incomeSourceSchema>;

/** Outcomes of a completed screening or verification (spec 2.7). */
export const COMPLETION_REASONS = [
  'finished',
  'no_bank',
  'no_online_banking',
  'share_bank',
  'no_income',
  'bank_cannot_connect',
  'missing_bank',
] as const;

/** Values of reason_completed (spec 2.7): `not_completed`, then the outcomes of a completed screening. */
export const REASONS_COMPLETED = ['not_completed', ...COMPLETION_REASONS] as const;

/** Why a screening or verification is complete; `not_completed` while it is not. */
export const reasonCompletedSchema = openEnum(REASONS_COMPLETED);
/** Why a screening or verification is complete. */
export type ReasonCompleted = z.infer<typeof reasonCompletedSchema>;

// ---------------------------------------------------------------------------------------------
// Request rules: checked before any I/O, because a create sends invitations to real people.
// ---------------------------------------------------------------------------------------------

/** A required text field: blank or whitespace-only strings are rejected. */
export const requiredTextSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .refine((value) => value.trim().length > 0, { error: 'must not be empty' });

/** An email address (syntax only: the service checks that it exists and answers 400 if not). */
export const emailSchema = z.email({
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be a valid email address'),
});

const E164 = /^\+[1-9]\d{6,14}$/;

/** A phone number in international E.164 form: `+`, the country code and number, 7 to 15 digits in all. */
export const phoneNumberSchema = z
  .string({
    error:
      'must be a string phone number in international E.164 form, like +1 415 555 0123 written without spaces',
  })
  .regex(E164, {
    error:
      'must be an international phone number in E.164 form: "+", then the country code and number (7 to 15 digits, first digit 1-9), like +1 415 555 0123 written without spaces',
  });

/** An absolute http(s) URL, such as a webhook endpoint. */
export const httpUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'must be an absolute http:// or https:// URL',
});

/** A monthly rent in dollars (not cents): positive and finite. */
export const monthlyRentSchema = z
  .number({ error: 'must be a number of dollars (not cents), e.g. 1850' })
  .positive({ error: 'must be a positive amount in dollars (not cents)' });

/**
 * A US state spelled out in full, as the screening-group endpoint requires ("no initials"). A
 * two-letter value is rejected; when it is a USPS code the message names the state to use.
 */
export const spelledOutStateSchema = requiredTextSchema.superRefine((value, ctx) => {
  const letters = value.replace(/[.\s]/g, '');
  if (!/^[A-Za-z]{2}$/.test(letters)) return;
  const name = stateNameForCode(letters);
  ctx.addIssue({
    code: 'custom',
    input: value,
    message: name
      ? `must be the state spelled out: use the full state name "${name}", not "${value}"`
      : `must be the state spelled out in full (e.g. "California"), not a two-letter code ("${value}")`,
  });
});

/** Type guard for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
