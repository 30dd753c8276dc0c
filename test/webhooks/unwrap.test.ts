import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../src/core/errors.js';
import {
  isKnownWebhookEvent,
  knownWebhookEventSchema,
  WEBHOOK_EVENT_CODES,
  webhookEventSchema,
} from '../../src/schemas/webhooks.js';
import { signWebhook, unwrapWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/webhooks/verify.js';
import { SAMPLE_EVENTS, SECRET } from './fixtures.js';

/** A signed delivery of `payload`: its raw body and headers. */
function deliver(payload: unknown): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  return { body, headers: { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) } };
}

/** Runs `fn`, expecting a WebhookVerificationError, and returns it. */
function failure(fn: () => unknown): WebhookVerificationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('event codes', () => {
  it('lists exactly the codes that have a schema', () => {
    const schemaCodes = knownWebhookEventSchema.options.map((schema) => schema.shape.code.value);
    expect([...WEBHOOK_EVENT_CODES].sort()).toEqual([...schemaCodes].sort());
    expect(new Set(WEBHOOK_EVENT_CODES).size).toBe(14);
  });
});

describe('unwrapWebhook', () => {
  it.each(WEBHOOK_EVENT_CODES)('parses a sample %s delivery into its typed event', (code) => {
    const payload = SAMPLE_EVENTS[code];
    const { body, headers } = deliver(payload);
    const event = unwrapWebhook(body, headers, SECRET);
    expect(event).toEqual(payload);
    expect(isKnownWebhookEvent(event)).toBe(true);
  });

  it('keeps fields the vendor adds to a known event', () => {
    const { body, headers } = deliver({ ...SAMPLE_EVENTS.REPORT_READY, created_at: '2024-05-01T10:00:00Z' });
    expect(unwrapWebhook(body, headers, SECRET)).toMatchObject({ created_at: '2024-05-01T10:00:00Z' });
  });

  it('accepts a report_type the SDK does not know', () => {
    const { body, headers } = deliver({ ...SAMPLE_EVENTS.REPORT_READY, report_type: 'employment' });
    expect(unwrapWebhook(body, headers, SECRET)).toMatchObject({ report_type: 'employment' });
  });

  it('turns an unknown code into a generic event, not an error', () => {
    const payload = { code: 'APPLICANT_WAVED', applicant_id: 'x', nested: { a: [1, 2] } };
    const { body, headers } = deliver(payload);
    const event = unwrapWebhook(body, headers, SECRET);
    expect(event).toEqual(payload);
    expect(isKnownWebhookEvent(event)).toBe(false);
  });

  it('rejects a known code with a wrong shape as invalid_payload, naming the field', () => {
    const { report_id: _omitted, ...withoutReportId } = SAMPLE_EVENTS.REPORT_READY;
    const missing = deliver(withoutReportId);
    const error = failure(() => unwrapWebhook(missing.body, missing.headers, SECRET));
    expect(error.reason).toBe('invalid_payload');
    expect(error.message).toContain('report_id');
    expect(error.message).toContain('REPORT_READY');

    const wrongType = deliver({ ...SAMPLE_EVENTS.BANK_CANNOT_CONNECT, value: 42 });
    const typeError = failure(() => unwrapWebhook(wrongType.body, wrongType.headers, SECRET));
    expect(typeError.reason).toBe('invalid_payload');
    expect(typeError.message).toContain('value');
  });

  it('rejects JSON that is not an object with a string code as invalid_payload', () => {
    for (const payload of [[], 'REPORT_READY', 42, null, {}, { code: 7 }, [{ code: 'NO_BANK' }]]) {
      const { body, headers } = deliver(payload);
      expect(failure(() => unwrapWebhook(body, headers, SECRET)).reason).toBe('invalid_payload');
    }
  });

  it('rejects a signed body that is not JSON as invalid_json, without quoting it', () => {
    for (const body of ['not json', '{"code":', '', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      const headers = { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) };
      const error = failure(() => unwrapWebhook(body, headers, SECRET));
      expect(error.reason).toBe('invalid_json');
      expect(error.message).not.toContain('not json');
    }
  });

  it('rejects a signed body that is not UTF-8 as invalid_json, though it would read as JSON', () => {
    const body = Buffer.concat([Buffer.from('{"code":"NO_BANK'), Buffer.from([0xff]), Buffer.from('"}')]);
    const headers = { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) };
    expect(failure(() => unwrapWebhook(body, headers, SECRET)).reason).toBe('invalid_json');
  });

  it('names the problems of an invalid payload, and its code when it is a known one', () => {
    const problem = (payload: unknown) => {
      const { body, headers } = deliver(payload);
      return failure(() => unwrapWebhook(body, headers, SECRET)).message;
    };
    expect(problem([])).toMatch(/^Invalid webhook payload: \(root\): /);
    expect(problem({ code: 7 })).toMatch(/^Invalid webhook payload: code: /);
    const known = problem({ code: 'REPORT_READY' });
    expect(known).toMatch(/^Invalid REPORT_READY webhook payload: applicant_group_id: /);
    expect(known).toMatch(/expected string, received undefined; report_id: /);
  });

  it('verifies before parsing: an unsigned non-JSON body is a signature error', () => {
    const error = failure(() =>
      unwrapWebhook('not json', { [WEBHOOK_SIGNATURE_HEADER]: '0'.repeat(64) }, SECRET),
    );
    expect(error.reason).toBe('bad_signature');
    const missing = failure(() => unwrapWebhook('not json', {}, SECRET));
    expect(missing.reason).toBe('missing_signature');
  });

  it('rejects a tampered body even when it is valid JSON', () => {
    const { body, headers } = deliver(SAMPLE_EVENTS.NO_INCOME);
    const tampered = body.replace('NO_INCOME', 'NO_BANK');
    expect(failure(() => unwrapWebhook(tampered, headers, SECRET)).reason).toBe('bad_signature');
  });

  it('accepts the body as a string, a Buffer or a Uint8Array', () => {
    const { body, headers } = deliver(SAMPLE_EVENTS.VERIFICATION_COMPLETED);
    const expected = SAMPLE_EVENTS.VERIFICATION_COMPLETED;
    expect(unwrapWebhook(body, headers, SECRET)).toEqual(expected);
    expect(unwrapWebhook(Buffer.from(body), headers, SECRET)).toEqual(expected);
    expect(unwrapWebhook(new TextEncoder().encode(body), headers, SECRET)).toEqual(expected);
  });

  describe('headers', () => {
    const { body } = deliver(SAMPLE_EVENTS.SHARE_BANK);
    const signature = signWebhook(body, SECRET);

    it('reads a record whatever the case of the header name', () => {
      for (const name of ['Verification-Signature', 'verification-signature', 'VERIFICATION-SIGNATURE']) {
        expect(
          unwrapWebhook(body, { 'content-type': 'application/json', [name]: signature }, SECRET),
        ).toEqual(SAMPLE_EVENTS.SHARE_BANK);
      }
    });

    it('reads array values, as Node gives for a repeated header', () => {
      expect(unwrapWebhook(body, { 'verification-signature': [signature] }, SECRET)).toEqual(
        SAMPLE_EVENTS.SHARE_BANK,
      );
      expect(
        failure(() => unwrapWebhook(body, { 'verification-signature': ['0'.repeat(64)] }, SECRET)).reason,
      ).toBe('bad_signature');
      expect(failure(() => unwrapWebhook(body, { 'verification-signature': [] }, SECRET)).reason).toBe(
        'missing_signature',
      );
    });

    it('reads a Fetch Headers object', () => {
      const headers = new Headers({
        'Content-Type': 'application/json',
        'VERIFICATION-signature': signature,
      });
      expect(unwrapWebhook(body, headers, SECRET)).toEqual(SAMPLE_EVENTS.SHARE_BANK);
      expect(failure(() => unwrapWebhook(body, new Headers(), SECRET)).reason).toBe('missing_signature');
    });

    it('reports a missing header as missing_signature', () => {
      for (const headers of [
        {},
        { 'content-type': 'application/json' },
        { 'verification-signature': undefined },
        { 'verification-signature': null },
      ]) {
        expect(failure(() => unwrapWebhook(body, headers, SECRET)).reason).toBe('missing_signature');
      }
      // No headers at all (a JavaScript caller's null or undefined).
      for (const headers of [null, undefined]) {
        expect(failure(() => unwrapWebhook(body, headers, SECRET)).reason).toBe('missing_signature');
      }
    });

    it('reports a missing secret as missing_secret', () => {
      expect(
        failure(() => unwrapWebhook(body, { 'verification-signature': signature }, undefined)).reason,
      ).toBe('missing_secret');
    });
  });

  it('never puts the secret or the expected signature in a message or toJSON', () => {
    const { body } = deliver(SAMPLE_EVENTS.REPORT_EXPIRED);
    const expected = signWebhook(body, SECRET);
    const badShape = deliver({ code: 'REPORT_EXPIRED' });
    const errors = [
      failure(() => unwrapWebhook(body, { 'verification-signature': '0'.repeat(64) }, SECRET)),
      failure(() => unwrapWebhook(body, {}, SECRET)),
      failure(() => unwrapWebhook('x', { 'verification-signature': signWebhook('x', SECRET) }, SECRET)),
      failure(() => unwrapWebhook(badShape.body, badShape.headers, SECRET)),
    ];
    for (const error of errors) {
      for (const text of [error.message, JSON.stringify(error.toJSON()), String(error.stack)]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(expected);
      }
    }
  });
});

describe('webhookEventSchema', () => {
  it('validates known codes and passes unknown ones through', () => {
    expect(webhookEventSchema.parse(SAMPLE_EVENTS.NO_BANK)).toEqual(SAMPLE_EVENTS.NO_BANK);
    expect(webhookEventSchema.parse({ code: 'SOMETHING_NEW' })).toEqual({ code: 'SOMETHING_NEW' });
    const result = webhookEventSchema.safeParse({ code: 'VERIFICATION_COMPLETED', verification_id: 'v' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['reason_completed']]);
  });
});
