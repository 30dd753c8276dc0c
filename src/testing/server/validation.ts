/**
 * Validation of create bodies, as the mock's stand-in for the production server: each invalid
 * field is reported by its path (`applicants[0].email`) in the 400 body. The mock checks on its
 * own, independently of the SDK's request schemas, so it can catch what the SDK lets through.
 */

import * as z from 'zod';
import { E164_PHONE_PATTERN, formatPath, stateNameForCode } from '../../internal.js';
import type { FieldError } from './responses.js';

function text(name: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`),
    })
    .trim()
    .min(1, `${name} must not be empty`);
}

function optionalText(name: string) {
  return z.string({ error: `${name} must be a string` }).nullish();
}

function email(name: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`),
    })
    .trim()
    .pipe(z.email(`${name} is not a valid email address`));
}

function phone(name: string) {
  return z
    .string({ error: `${name} must be a string` })
    .regex(E164_PHONE_PATTERN, `${name} must be in E.164 form, e.g. +14155550123`)
    .nullish();
}

/** Highest monthly rent accepted, in dollars: past it a figure is a typo (cents sent as dollars). */
export const MONTHLY_RENT_MAX_DOLLARS = 100_000;

/** `monthly_rent` as a number: "is required" when absent, "must be a number" when not one. */
function rentNumber() {
  return z.number({
    error: (issue) =>
      issue.input === undefined ? 'monthly_rent is required' : 'monthly_rent must be a number',
  });
}

/**
 * The rent rule: "monthly_rent | number, integer | Dollars" (docs/wire-contract.md), a positive
 * whole number of dollars up to {@link MONTHLY_RENT_MAX_DOLLARS}. The same rule as the SDK's
 * request schema, so the mock refuses what a careless client lets through; once the SDK exports
 * its rent rule, this one function is what to point at it.
 */
function rent() {
  return rentNumber()
    .int('monthly_rent must be a whole number of dollars (not cents, no fractions)')
    .positive('monthly_rent must be a positive amount of dollars')
    .max(MONTHLY_RENT_MAX_DOLLARS, `monthly_rent must be at most ${MONTHLY_RENT_MAX_DOLLARS} dollars`);
}

/**
 * The applicant-group rent as the wire carries it: a positive whole number, in the unit the mock
 * reads (`apiRentUnit`). Which unit, and the ceiling, are checked by {@link applicantGroupRentProblem}.
 */
function wireRent() {
  return rentNumber()
    .int('monthly_rent must be a whole number (no fractions)')
    .positive('monthly_rent must be positive');
}

/** What is wrong with an applicant-group `monthly_rent` read in `unit`, or `undefined`. */
export function applicantGroupRentProblem(value: number, unit: 'dollars' | 'cents'): string | undefined {
  const ceiling = unit === 'cents' ? MONTHLY_RENT_MAX_DOLLARS * 100 : MONTHLY_RENT_MAX_DOLLARS;
  return value > ceiling ? `monthly_rent must be at most ${ceiling} ${unit}` : undefined;
}

const webhookUrl = z.url({ protocol: /^https?$/, error: 'webhook_url must be an http(s) URL' }).nullish();

const optionalBoolean = (name: string) => z.boolean({ error: `${name} must be a boolean` }).nullish();

function requiredObject<T extends z.ZodRawShape>(name: string, shape: T) {
  return z.looseObject(shape, {
    error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be an object`),
  });
}

function requiredArray<T extends z.ZodType>(name: string, item: T) {
  return z
    .array(item, {
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be an array`),
    })
    .min(1, `${name} must list at least one applicant`);
}

/** Body of POST /api/v1/applicant_groups as the mock accepts it. */
export const applicantGroupCreateSchema = z.looseObject({
  applicants: requiredArray(
    'applicants',
    requiredObject('applicant', {
      first_name: text('first_name'),
      last_name: text('last_name'),
      email: email('email'),
      phone_number: phone('phone_number'),
      verifications: z
        .array(
          z.looseObject({
            type: text('type'),
            allowed_income_sources: z.array(z.string()).nullish(),
          }),
          { error: 'verifications must be an array' },
        )
        .nullish(),
    }),
  ),
  property: requiredObject('property', {
    name: text('name'),
    street_address: text('street_address'),
    city: text('city'),
    state: text('state'),
    zip_code: text('zip_code'),
    unit: optionalText('unit'),
  }),
  decision_maker_display_name: text('decision_maker_display_name'),
  monthly_rent: wireRent(),
  webhook_url: webhookUrl,
  is_invitation_disabled: optionalBoolean('is_invitation_disabled'),
  is_decision_maker_paying: optionalBoolean('is_decision_maker_paying'),
  correlation_id: optionalText('correlation_id'),
  unit_id: z.uuid('unit_id must be a uuid').nullish(),
  config: z
    .looseObject(
      { block_business_accounts: optionalBoolean('block_business_accounts') },
      { error: 'config must be an object' },
    )
    .nullish(),
});

/** A validated applicant-group create body. */
export type ApplicantGroupCreate = z.output<typeof applicantGroupCreateSchema>;

const spelledOutState = text('state').superRefine((value, context) => {
  if (/^[A-Za-z]{2}$/.test(value)) {
    const full = stateNameForCode(value);
    context.addIssue({
      code: 'custom',
      message: full
        ? `state must be spelled out: use "${full}" instead of "${value}"`
        : `state must be spelled out, not initials ("${value}")`,
    });
  }
});

/** Body of POST /api/v1/screening_groups as the mock accepts it. */
export const screeningGroupCreateSchema = z.looseObject({
  applicants: requiredArray(
    'applicants',
    requiredObject('applicant', {
      applicant_first_name: text('applicant_first_name'),
      applicant_last_name: text('applicant_last_name'),
      applicant_email: email('applicant_email'),
      applicant_phone_number: phone('applicant_phone_number'),
    }),
  ),
  property: requiredObject('property', {
    name: text('name'),
    street_address: text('street_address'),
    city: text('city'),
    state: spelledOutState,
    zip_code: text('zip_code'),
    unit: optionalText('unit'),
  }),
  is_decision_maker_paying: z.boolean({
    error: (issue) =>
      issue.input === undefined
        ? 'is_decision_maker_paying is required'
        : 'is_decision_maker_paying must be a boolean',
  }),
  decision_maker_display_name: text('decision_maker_display_name'),
  monthly_rent: rent(),
  income_multiplier_threshold: z
    .number({ error: 'income_multiplier_threshold must be a number' })
    .positive('income_multiplier_threshold must be positive')
    .nullish(),
  criteria_rule_set_id: optionalText('criteria_rule_set_id'),
  webhook_url: webhookUrl,
  is_invitation_disabled: optionalBoolean('is_invitation_disabled'),
  correlation_id: optionalText('correlation_id'),
});

/** A validated screening-group create body. */
export type ScreeningGroupCreate = z.output<typeof screeningGroupCreateSchema>;

/** A field name for the mock's error body: `applicants[0].email`, or `(body)` for the body itself. */
export function fieldName(path: readonly PropertyKey[]): string {
  return formatPath(path) || '(body)';
}

/** Parses `body` with `schema`, or returns one {@link FieldError} per invalid field. */
export function validate<S extends z.ZodType>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; fields: FieldError[] } {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    fields: result.error.issues.map((issue) => ({ field: fieldName(issue.path), message: issue.message })),
  };
}

// Production checks that each email exists and refuses nonexistent ones; the mock treats the
// reserved `.invalid` top-level domain (RFC 2606) as "does not exist".
function isNonexistentEmail(address: string): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return domain === 'invalid' || domain.endsWith('.invalid');
}

/** Field errors for applicant emails that "do not exist" (domain ending in `.invalid`). */
export function nonexistentEmails(addresses: readonly string[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  addresses.forEach((address, index) => {
    if (isNonexistentEmail(address)) {
      errors.push({
        field: `applicants[${index}].${field}`,
        message: `email address ${address} does not exist`,
      });
    }
  });
  return errors;
}
