/**
 * The webhook event check that runs without zod (src/webhooks/event-check.ts) gives what
 * `webhookEventSchema.safeParse` gives: the same verdict, the same issues (every path and message,
 * in order), and an equal event with its keys in the same order, on generated payloads (JSON, as
 * a delivery's body is parsed: own `__proto__` keys included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_CODES, webhookEventSchema } from '../../src/schemas/index.js';
import { checkWebhookEvent } from '../../src/webhooks/event-check.js';
import { EVENT_FIELDS } from '../../src/webhooks/event-fields.generated.js';

const FIELD_NAMES = [
  ...new Set(Object.values(EVENT_FIELDS).flatMap((fields) => fields.map(([name]) => name))),
];

const valueArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom('income', 'finished', 'asset', 'no_bank') },
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({ nested: 1 }),
);

/** A JSON text: an object holding some known fields and some others, or something that is not one. */
const bodyArb = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .record({
        code: fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_CODES), fc.string({ maxLength: 6 }), fc.integer()),
        fields: fc.dictionary(fc.constantFrom(...FIELD_NAMES), valueArb, { maxKeys: 6 }),
        others: fc.dictionary(fc.constantFrom('x', 'value_added_later', '__proto__', 'y'), valueArb, {
          maxKeys: 2,
        }),
        codeFirst: fc.boolean(),
        dropCode: fc.boolean(),
      })
      .map(({ code, fields, others, codeFirst, dropCode }) => {
        const members = [...Object.entries(others), ...Object.entries(fields)];
        const withCode: Array<[string, unknown]> = dropCode
          ? members
          : codeFirst
            ? [['code', code], ...members]
            : [...members, ['code', code]];
        return `{${withCode.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
      }),
  },
  fc.constantFrom('null', '[]', '"text"', '3', 'true', '[{"code":"NO_BANK"}]'),
);

/** An event and its own keys in order, as JSON-able data (own `__proto__` keys shown). */
function described(value: unknown) {
  if (typeof value !== 'object' || value === null) return { value };
  return {
    keys: Object.keys(value),
    proto: Object.getPrototypeOf(value) === Object.prototype,
    entries: Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]),
  };
}

describe('webhook event check without zod', () => {
  it('agrees with webhookEventSchema on verdict, issues and the event, key order included', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(bodyArb, (text) => {
        const expected = webhookEventSchema.safeParse(JSON.parse(text));
        const actual = checkWebhookEvent(JSON.parse(text));
        if (expected.success) {
          accepted++;
          expect('event' in actual && described(actual.event)).toEqual(described(expected.data));
        } else {
          refused++;
          const issues = expected.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
          expect('issues' in actual && actual.issues).toEqual(issues);
        }
      }),
      { numRuns: 1500, seed: 7 },
    );
    // Both sides of the verdict were reached, on known and unknown codes.
    expect(accepted).toBeGreaterThan(150);
    expect(refused).toBeGreaterThan(150);
  });

  it('knows every event code the schemas know, and no other', () => {
    expect(Object.keys(EVENT_FIELDS).sort()).toEqual([...WEBHOOK_EVENT_CODES].sort());
  });

  it('takes a code that names an inherited key for an unknown event, as zod does', () => {
    for (const code of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const text = `{"code":${JSON.stringify(code)},"x":1}`;
      const expected = webhookEventSchema.safeParse(JSON.parse(text));
      expect(checkWebhookEvent(JSON.parse(text)), code).toEqual({
        event: expected.success ? expected.data : 'refused',
      });
    }
  });

  it('keeps a field added later, drops an own __proto__ key, and refuses a known event missing a field', () => {
    const body = JSON.parse(
      '{"__proto__":{"polluted":true},"report_type":"credit","code":"REPORT_READY","report_id":"r","applicant_group_id":"g","later":[1]}',
    );
    const checked = checkWebhookEvent(body);
    expect(checked).toEqual({
      event: {
        code: 'REPORT_READY',
        applicant_group_id: 'g',
        report_id: 'r',
        report_type: 'credit',
        later: [1],
      },
    });
    expect('event' in checked && Object.keys(checked.event)).toEqual([
      'code',
      'applicant_group_id',
      'report_id',
      'report_type',
      'later',
    ]);
    expect('event' in checked && Object.getPrototypeOf(checked.event)).toBe(Object.prototype);
    expect('event' in checked && 'polluted' in checked.event).toBe(false);
    expect(
      checkWebhookEvent({ code: 'REPORT_READY', applicant_group_id: 'g', report_type: 'income' }),
    ).toEqual({
      issues: [{ path: ['report_id'], message: 'Invalid input: expected string, received undefined' }],
    });
  });
});
