import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../src/core/errors.js';
import { signWebhook, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/webhooks/verify.js';
import { SECRET } from './fixtures.js';

const BODY = '{"code":"VERIFICATION_STARTED","verification_id":"a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b"}';
const SIGNATURE = createHmac('sha256', SECRET).update(BODY, 'utf8').digest('hex');

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

describe('signWebhook', () => {
  it('is the lowercase hex HMAC-SHA256 of the body keyed with the secret', () => {
    expect(signWebhook(BODY, SECRET)).toBe(SIGNATURE);
    expect(signWebhook(BODY, SECRET)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same signature for a string, a Buffer and a Uint8Array of the same bytes', () => {
    const bytes = new TextEncoder().encode(BODY);
    expect(signWebhook(Buffer.from(BODY), SECRET)).toBe(SIGNATURE);
    expect(signWebhook(bytes, SECRET)).toBe(SIGNATURE);
  });

  it('requires a secret', () => {
    expect(failure(() => signWebhook(BODY, undefined)).reason).toBe('missing_secret');
    expect(failure(() => signWebhook(BODY, '')).reason).toBe('missing_secret');
  });
});

describe('verifyWebhook', () => {
  it('accepts a valid signature', () => {
    expect(() => verifyWebhook(BODY, SIGNATURE, SECRET)).not.toThrow();
  });

  it('accepts a Buffer, a Uint8Array and a string body', () => {
    expect(() => verifyWebhook(Buffer.from(BODY, 'utf8'), SIGNATURE, SECRET)).not.toThrow();
    expect(() => verifyWebhook(new TextEncoder().encode(BODY), SIGNATURE, SECRET)).not.toThrow();
    expect(() => verifyWebhook(BODY, SIGNATURE, SECRET)).not.toThrow();
  });

  it('hashes non-ASCII string bodies as UTF-8', () => {
    const body = '{"code":"BANK_NOT_SUPPORTED","value":"Caja Rural de Añora – 信用金庫"}';
    const bytes = Buffer.from(body, 'utf8');
    const signature = signWebhook(bytes, SECRET);
    expect(() => verifyWebhook(body, signature, SECRET)).not.toThrow();
    expect(() => verifyWebhook(bytes, signature, SECRET)).not.toThrow();
  });

  it('accepts upper-case hex, surrounding whitespace and a sha256= prefix', () => {
    expect(() => verifyWebhook(BODY, SIGNATURE.toUpperCase(), SECRET)).not.toThrow();
    expect(() => verifyWebhook(BODY, `  ${SIGNATURE}\n`, SECRET)).not.toThrow();
    expect(() => verifyWebhook(BODY, `sha256=${SIGNATURE}`, SECRET)).not.toThrow();
    expect(() => verifyWebhook(BODY, ` SHA256=${SIGNATURE.toUpperCase()} `, SECRET)).not.toThrow();
  });

  it('accepts the array Node gives for a repeated header when one value matches', () => {
    expect(() => verifyWebhook(BODY, [SIGNATURE], SECRET)).not.toThrow();
    expect(() => verifyWebhook(BODY, ['0'.repeat(64), SIGNATURE], SECRET)).not.toThrow();
    expect(() => verifyWebhook(BODY, `${'0'.repeat(64)}, ${SIGNATURE}`, SECRET)).not.toThrow();
    expect(failure(() => verifyWebhook(BODY, ['0'.repeat(64)], SECRET)).reason).toBe('bad_signature');
  });

  it('rejects a tampered body', () => {
    const tampered = BODY.replace('VERIFICATION_STARTED', 'VERIFICATION_COMPLETED');
    expect(failure(() => verifyWebhook(tampered, SIGNATURE, SECRET)).reason).toBe('bad_signature');
    expect(failure(() => verifyWebhook(`${BODY} `, SIGNATURE, SECRET)).reason).toBe('bad_signature');
  });

  it('rejects a tampered signature', () => {
    const last = SIGNATURE.at(-1) === '0' ? '1' : '0';
    const tampered = SIGNATURE.slice(0, -1) + last;
    expect(failure(() => verifyWebhook(BODY, tampered, SECRET)).reason).toBe('bad_signature');
  });

  it('rejects a signature made with another secret', () => {
    const other = signWebhook(BODY, `${SECRET}x`);
    expect(failure(() => verifyWebhook(BODY, other, SECRET)).reason).toBe('bad_signature');
  });

  it('rejects signatures of the wrong length or alphabet without throwing anything else', () => {
    for (const signature of [
      SIGNATURE.slice(0, 63),
      `${SIGNATURE}0`,
      `${SIGNATURE}00`,
      SIGNATURE.slice(0, 32),
      'z'.repeat(64),
      `${SIGNATURE.slice(0, 62)}zz`,
      'sha256=',
      // sha256= is a prefix only at the start.
      `${SIGNATURE.slice(0, 32)}sha256=${SIGNATURE.slice(32)}`,
      'sha1=abc',
      'not a signature',
    ]) {
      expect(failure(() => verifyWebhook(BODY, signature, SECRET)).reason).toBe('bad_signature');
    }
  });

  it('reports a missing or empty signature as missing_signature', () => {
    for (const signature of [undefined, null, '', '   ', [], ['']]) {
      const error = failure(() => verifyWebhook(BODY, signature, SECRET));
      expect(error.reason).toBe('missing_signature');
      expect(error.message).toContain(WEBHOOK_SIGNATURE_HEADER);
    }
  });

  it('skips values of a header array that are not strings (a JavaScript caller)', () => {
    const values: unknown[] = [42, null, SIGNATURE];
    expect(() => Reflect.apply(verifyWebhook, undefined, [BODY, values, SECRET])).not.toThrow();
    const error = failure(() => Reflect.apply(verifyWebhook, undefined, [BODY, [42, {}], SECRET]));
    expect(error.reason).toBe('missing_signature');
  });

  it('reports a missing secret as missing_secret', () => {
    expect(failure(() => verifyWebhook(BODY, SIGNATURE, undefined)).reason).toBe('missing_secret');
    expect(failure(() => verifyWebhook(BODY, SIGNATURE, '')).reason).toBe('missing_secret');
  });

  it('explains a body that was already parsed instead of failing as a bad signature', () => {
    const parsed: unknown = JSON.parse(BODY);
    // A JavaScript caller (or an `any` from a framework) can hand over the parsed object.
    const error = failure(() => Reflect.apply(verifyWebhook, undefined, [parsed, SIGNATURE, SECRET]));
    expect(error.reason).toBe('invalid_payload');
    expect(error.message).toMatch(/raw request body/);
    expect(error.message).toContain('received object');
    for (const [body, kind] of [
      [null, 'null'],
      [[BODY], 'array'],
      [42, 'number'],
    ] as const) {
      const other = failure(() => Reflect.apply(verifyWebhook, undefined, [body, SIGNATURE, SECRET]));
      expect(other.message).toContain(`received ${kind}:`);
    }
  });

  it('never puts the secret or the expected signature in a message or toJSON', () => {
    const errors = [
      failure(() => verifyWebhook(BODY, '0'.repeat(64), SECRET)),
      failure(() => verifyWebhook(`${BODY}x`, SIGNATURE, SECRET)),
      failure(() => verifyWebhook(BODY, SIGNATURE.slice(1), SECRET)),
      failure(() => verifyWebhook(BODY, undefined, SECRET)),
      failure(() => verifyWebhook(BODY, SIGNATURE, undefined)),
    ];
    const expectedForTamperedBody = signWebhook(`${BODY}x`, SECRET);
    for (const error of errors) {
      const texts = [
        error.message,
        JSON.stringify(error.toJSON()),
        JSON.stringify(error),
        String(error.stack),
      ];
      for (const text of texts) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(SIGNATURE);
        expect(text).not.toContain(expectedForTamperedBody);
      }
    }
  });
});
