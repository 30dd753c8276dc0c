/**
 * Building blocks shared by every schema family. Responses are read liberally (the service adds
 * fields and enum values without notice), requests strictly (a bad body would send real emails).
 */
import type * as z from 'zod';
import { stateCodeForName, stateNameForCode, US_STATES } from '../../helpers/states.js';
import { zod } from '../../load/zod.js';
import { dollarsRentProblem, MONTHLY_RENT_MAX_DOLLARS } from '../rent.js';
import { suggestValue } from '../suggest.js';
import { withWireRule } from '../wire-rule.js';
import { onFirstUse } from './on-first-use.js';

/**
 * The type of an open enum: the known values autocomplete, yet any other string is accepted.
 * `string & {}` keeps TypeScript from collapsing the literals into plain `string`.
 */
export type OpenEnum<T extends string> = T | (string & {});

/**
 * A string schema whose type lists the known values while any other string still parses, so a
 * value the service adds later does not break callers.
 *
 * @param values The values documented or seen in the vendor's documentation (docs/wire-contract.md §2.8).
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const z = zod();
  const known: ReadonlySet<string> = new Set(values);
  return z
    .custom<OpenEnum<T[number]>>(isOpenEnumValue, {
      error: (issue) => openEnumMessage(values, issue.input),
    })
    .meta({ description: `One of ${values.join(', ')}, or a value added later.`, knownValues: [...known] });
}

/**
 * What an open enum accepts: any string. One function, so that the cold checks' generator
 * (scripts/cold-checks.ts) recognises an open enum's check by identity.
 */
export function isOpenEnumValue(value: unknown): value is string {
  return typeof value === 'string';
}

/** The issue of an open enum given `input`, which is not a string. */
export function openEnumMessage(values: readonly string[], input: unknown): string {
  return `Expected a string (known values: ${values.join(', ')}), received ${typeName(input)}`;
}

/** What zod's messages call the type of `value`: `null`, `array`, or its `typeof`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * A response object: unknown keys are KEPT at run time (the service adds fields without notice),
 * yet the type lists only the known fields, with no index signature, so a typo such as
 * `group.staus` is a compile error. TypeScript object types already allow extra properties, so
 * the type is true of the value; `extraFields()` reads the unknown ones.
 */
export function responseObject<const Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): z.ZodObject<z.core.util.Writeable<Shape>, z.core.$strip> {
  const z = zod();
  // Only the static catchall differs (`$loose` adds `[key: string]: unknown`); the runtime
  // schema is z.looseObject's, so the fast path and zod keep every unknown key.
  return z.looseObject(shape) as unknown as z.ZodObject<z.core.util.Writeable<Shape>, z.core.$strip>;
}

/** Known statuses of an applicant group or screening group (docs/wire-contract.md §3.2). */
export const GROUP_STATUSES = ['not_started', 'in_progress', 'completed'] as const;

/**
 * Status of an applicant group or screening group. Known values: `not_started`, `in_progress`,
 * `completed`; a newer value is passed through as a string.
 */
export type GroupStatus = OpenEnum<(typeof GROUP_STATUSES)[number]>;

/** A status the list filter accepts: `not_started`, `in_progress` or `completed`. */
export type KnownGroupStatus = (typeof GROUP_STATUSES)[number];

/**
 * Statuses the applicant-group list filter knows: the spec's three, and `pending`, the status the
 * service's own reference shows a new group in (docs/wire-contract.md).
 */
export const FILTER_GROUP_STATUSES = [...GROUP_STATUSES, 'pending'] as const;

/** A status of the list filter. Known values: `not_started`, `in_progress`, `completed`, `pending`. */
export type FilterGroupStatus = OpenEnum<(typeof FILTER_GROUP_STATUSES)[number]>;

const knownGroupStatuses: ReadonlySet<string> = new Set(GROUP_STATUSES);

/** Whether `status` is one of {@link GROUP_STATUSES}, the values the list filter accepts. */
export function isKnownGroupStatus(status: string): status is KnownGroupStatus {
  return knownGroupStatuses.has(status);
}

/** Verification kinds a response may carry: the values the vendor's documentation shows, and `income_verification`. */
export const VERIFICATION_TYPES = [
  'payroll_income_verification',
  'identity_verification',
  'asset_verification',
  'income_verification',
] as const;

/** Kind of verification. */
export type VerificationType = OpenEnum<(typeof VERIFICATION_TYPES)[number]>;

/** Verification kinds a create body may request: only the values the vendor's documentation shows (docs/wire-contract.md §2.1, §2.3). */
export const REQUEST_VERIFICATION_TYPES = [
  'payroll_income_verification',
  'identity_verification',
  'asset_verification',
] as const;

/** A verification kind a create body may request. */
export type RequestVerificationType = (typeof REQUEST_VERIFICATION_TYPES)[number];

/** Income sources a response may name: bank, payroll (docs/wire-contract.md §2.8) and documents (uploads). */
export const INCOME_SOURCES = ['bank', 'payroll', 'documents'] as const;

/** Income sources a create body may allow: only the values the vendor's documentation shows (bank, payroll). */
export const REQUEST_INCOME_SOURCES = ['bank', 'payroll'] as const;

/** An income source a create body may allow. */
export type RequestIncomeSource = (typeof REQUEST_INCOME_SOURCES)[number];

/** An income source. */
export type IncomeSource = OpenEnum<(typeof INCOME_SOURCES)[number]>;

/** Outcomes of a completed screening or verification (docs/wire-contract.md §2.7). */
export const COMPLETION_REASONS = [
  'finished',
  'no_bank',
  'no_online_banking',
  'share_bank',
  'no_income',
  'bank_cannot_connect',
  'missing_bank',
] as const;

/** Values of reason_completed (docs/wire-contract.md §2.7): `not_completed`, then the outcomes of a completed screening. */
export const REASONS_COMPLETED = ['not_completed', ...COMPLETION_REASONS] as const;

/** Why a screening or verification is complete. */
export type ReasonCompleted = OpenEnum<(typeof REASONS_COMPLETED)[number]>;

// ---------------------------------------------------------------------------------------------
// Request rules: checked before any I/O, because a create sends invitations to real people.
// ---------------------------------------------------------------------------------------------

/**
 * A list's query: `params` checks what the caller passes, `toWire` turns the checked parameters
 * into the query strings to send, and parsing returns those strings. Built on zod's `overwrite`
 * (a check that replaces the value once the parameters passed) rather than `transform`, which
 * allocates a closure per parse and cost about a microsecond per list call on Node 20
 * (docs/benchmarks.md, round 4). `toWire` runs only on parameters that passed.
 */
export function wireQuery<Params extends z.ZodType>(
  params: Params,
  toWire: (checked: z.output<Params>) => Record<string, string>,
): z.ZodType<Record<string, string>, z.input<Params>> {
  const query = params.overwrite((checked) => toWire(checked) as unknown as z.output<Params>);
  // What `overwrite` leaves is `toWire`'s record, whatever its declared type: the output says so.
  return query as unknown as z.ZodType<Record<string, string>, z.input<Params>>;
}

/** The per-call option that carries fields newer than the SDK: `extraBody` for bodies, `extraQuery` for queries. */
export type EscapeHatch = 'extraBody' | 'extraQuery';

/**
 * A request object: exactly the known keys. An unknown key (`correlationId`, `phone`) is rejected
 * before any I/O with a did-you-mean, and the message names the per-call option for fields newer
 * than the SDK, so a typo can never be sent and silently ignored.
 *
 * @param shape The known fields.
 * @param escapeHatch The option that carries newer fields: `extraBody` (default) or `extraQuery`.
 */
export function exactObject<const Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  escapeHatch: EscapeHatch = 'extraBody',
) {
  const z = zod();
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? unknownKeysMessage(issue.keys, known, escapeHatch) : undefined,
  });
}

function unknownKeysMessage(
  keys: readonly string[],
  known: readonly string[],
  escapeHatch: EscapeHatch,
): string {
  const hints = keys.map((key) => suggestValue(key, known));
  const each = keys.map((key, index) => {
    const hint = hints[index];
    return hint === undefined ? `"${key}"` : `"${key}" (did you mean "${hint}"?)`;
  });
  const noun = keys.length === 1 ? 'unknown field' : 'unknown fields';
  const list = hints.every((hint) => hint !== undefined) ? '' : ` (known: ${known.join(', ')})`;
  return `${noun} ${each.join(', ')}${list}; fields newer than the SDK: pass them in options.${escapeHatch}`;
}

/**
 * An international phone number in E.164 form: `+`, then the country code and number, 7 to 15
 * digits in all, the first 1-9. The one copy of the rule: the mock and the CLI use it too.
 */
export const E164_PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;

/**
 * What is wrong with a `monthly_rent` in dollars read by a dollars API, or `undefined` when it
 * is valid: a whole, positive number of dollars, at most {@link MONTHLY_RENT_MAX_DOLLARS}. The
 * screening-group rule, and the applicant-group one under `apiRentUnit: 'dollars'`; the mock uses it too.
 */
export function monthlyRentProblem(value: unknown): string | undefined {
  return dollarsRentProblem(value, 'dollars');
}

/**
 * A closed enum of a request: only the values the vendor's documentation shows. A typo is rejected naming the
 * allowed values, with a did-you-mean when one is close.
 *
 * @param values The values the API accepts.
 */
export function requestEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const z = zod();
  return z.enum(values, {
    error: (issue) => {
      const input = issue.input;
      const hint = typeof input === 'string' ? suggestValue(input, values) : undefined;
      const got = typeof input === 'string' ? `"${input}"` : typeName(input);
      return `must be one of ${values.join(', ')}, not ${got}${hint === undefined ? '' : ` (did you mean "${hint}"?)`}`;
    },
  });
}

/** The full state names, lower-cased, with the names as written. */
const STATE_NAMES = new Map(US_STATES.map((state) => [state.name.toLowerCase(), state.name]));

/**
 * The state a mistyped one most likely meant: the one name an abbreviation begins (`Calif.`), or
 * the closest spelling (`Texs`); `undefined` when none is close.
 */
function nearestState(input: string): string | undefined {
  const wanted = input.trim().replace(/\.$/, '').toLowerCase();
  if (wanted.length >= 3) {
    const begun = [...STATE_NAMES.keys()].filter((name) => name.startsWith(wanted));
    if (begun.length === 1) return STATE_NAMES.get(begun[0] ?? '');
  }
  const near = suggestValue(wanted, [...STATE_NAMES.keys()]);
  return near === undefined ? undefined : STATE_NAMES.get(near);
}

/** Type guard for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The shared schemas of responses and list queries, built on first use and the same objects after:
 * importing the client builds none of them (docs/benchmarks.md, "Cold start, round 6").
 * `../common.ts` exports each one.
 */
export const commonSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  /** Identifiers are uuids on the wire today, but responses accept any string so a format change cannot break reads. */
  const idSchema = z.string();

  /** ISO 8601 date-time string as sent by the service; kept as text (the SDK does not reformat wire values). */
  const dateTimeSchema = z.string();

  /** An integer amount of cents. */
  const centsSchema = z.int();

  /** Unix timestamp of creation: seconds (fractional) or, on screening groups, milliseconds. See `toDate()`. */
  const timestampSchema = z.number();

  /** Status of an applicant group or screening group: not_started, in_progress, completed, or a newer value. */
  const groupStatusSchema = openEnum(GROUP_STATUSES);
  /** A status of the list filter: any string is sent; these are the known ones. */
  const filterGroupStatusSchema = withWireRule(
    openEnum(FILTER_GROUP_STATUSES).refine((value) => !value.includes(','), {
      error: 'must be one status: the filter is sent comma-separated, so a status cannot contain a comma',
    }),
    { type: 'string', pattern: '^[^,]*$' },
  );
  /** Kind of verification: payroll_income_verification, identity_verification, asset_verification, ... */
  const verificationTypeSchema = openEnum(VERIFICATION_TYPES);
  /** An income source: bank, payroll, documents, or a newer value. */
  const incomeSourceSchema = openEnum(INCOME_SOURCES);
  /** Why a screening or verification is complete; `not_completed` while it is not. */
  const reasonCompletedSchema = openEnum(REASONS_COMPLETED);
  return {
    idSchema,
    dateTimeSchema,
    centsSchema,
    timestampSchema,
    groupStatusSchema,
    filterGroupStatusSchema,
    verificationTypeSchema,
    incomeSourceSchema,
    reasonCompletedSchema,
  };
});

/**
 * The shared rules of request bodies (text, email, phone, URL, rent, state), built on first use: a
 * client that only reads never builds them. `../common.ts` exports each one.
 */
export const commonRequestSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  /** A required text field: blank or whitespace-only strings are rejected. */
  const requiredTextSchema = withWireRule(
    z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .refine((value) => value.trim().length > 0, { error: 'must not be empty' }),
    { pattern: '\\S' },
  );

  /** An email address (syntax only: the service checks that it exists and answers 400 if not). */
  const emailSchema = z.email({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a valid email address'),
  });

  /** A phone number in international E.164 form: `+`, the country code and number, 7 to 15 digits in all. */
  const phoneNumberSchema = z
    .string({
      error:
        'must be a string phone number in international E.164 form, like +1 415 555 0123 written without spaces',
    })
    .regex(E164_PHONE_PATTERN, {
      error:
        'must be an international phone number in E.164 form: "+", then the country code and number (7 to 15 digits, first digit 1-9), like +1 415 555 0123 written without spaces',
    });

  /** An absolute http(s) URL, such as a webhook endpoint. */
  const httpUrlSchema = withWireRule(
    z.url({
      protocol: /^https?$/,
      error: 'must be an absolute http:// or https:// URL',
    }),
    { pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' },
  );

  /** A monthly rent: a positive whole number of dollars (not cents), at most {@link MONTHLY_RENT_MAX_DOLLARS}. */
  const monthlyRentSchema = withWireRule(
    z.number({ error: 'must be a number of dollars (not cents), e.g. 1850' }).superRefine((value, ctx) => {
      const problem = monthlyRentProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', input: value, message: problem });
    }),
    { type: 'integer', exclusiveMinimum: 0, maximum: MONTHLY_RENT_MAX_DOLLARS },
  );

  /**
   * A US state spelled out in full, as the screening-group endpoint requires ("no initials"). A
   * two-letter value is rejected; when it is a USPS code the message names the state to use.
   */
  const spelledOutStateSchema = withWireRule(
    requiredTextSchema.superRefine((value, ctx) => {
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
    }),
    // Two letters, dots and spaces aside, are initials.
    { not: { pattern: '^[\\s.]*[A-Za-z][\\s.]*[A-Za-z][\\s.]*$' } },
  );

  /**
   * A US state, district or territory as a full name or a two-letter USPS code, case-insensitive
   * (`California`, `california`, `CA`, `ca`), sent as given. Anything else (`XX`, `Calif.`) is
   * refused with the closest spelling suggested.
   */
  const usStateSchema = withWireRule(
    requiredTextSchema.superRefine((value, ctx) => {
      const letters = value.trim();
      if (stateNameForCode(letters) !== undefined || stateCodeForName(letters) !== undefined) return;
      const near = nearestState(letters);
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: `must be a US state: its full name or two-letter code (e.g. "California" or "CA"), not "${value}"${near ? ` (did you mean "${near}"?)` : ''}`,
      });
    }),
    {
      // A getter: built only when the OpenAPI document is generated, not on every import.
      get pattern() {
        return `^\\s*(?:${US_STATES.flatMap((state) => [state.name, state.code])
          .map(anyCase)
          .join('|')})\\s*$`;
      },
      description: 'A US state, district or territory: its full name or USPS code, in any letter case.',
    },
  );
  return {
    requiredTextSchema,
    emailSchema,
    phoneNumberSchema,
    httpUrlSchema,
    monthlyRentSchema,
    spelledOutStateSchema,
    usStateSchema,
  };
});

/** A regular expression source matching `text` in any letter case, any run of spaces for a space. */
function anyCase(text: string): string {
  return [...text]
    .map((char) => {
      if (char === ' ') return '\\s+';
      if (char === '.') return '\\.';
      const lower = char.toLowerCase();
      const upper = char.toUpperCase();
      return lower === upper ? char : `[${upper}${lower}]`;
    })
    .join('');
}
