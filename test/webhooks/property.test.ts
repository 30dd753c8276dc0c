import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../src/core/errors.js';
import { signWebhook, verifyWebhook } from '../../src/webhooks/verify.js';

// 'binary' draws any Unicode code point (surrogate halves excluded), so bodies cover multi-byte UTF-8.
const codePointArb = fc.string({ minLength: 1, maxLength: 1, unit: 'binary' });
const bodyArb = fc.string({ maxLength: 300, unit: 'binary' });
const secretArb = fc.string({ minLength: 1, maxLength: 64, unit: 'binary' });

/** Whether `fn` throws a WebhookVerificationError with reason `bad_signature`. */
function failsAsBadSignature(fn: () => void): boolean {
  try {
    fn();
  } catch (error) {
    return error instanceof WebhookVerificationError && error.reason === 'bad_signature';
  }
  return false;
}

describe('sign / verify properties', () => {
  it('a body always verifies against its own signature, as a string or as bytes', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, (body, secret) => {
        const signature = signWebhook(body, secret);
        verifyWebhook(body, signature, secret);
        verifyWebhook(Buffer.from(body, 'utf8'), signature, secret);
        verifyWebhook(new TextEncoder().encode(body), signature.toUpperCase(), secret);
      }),
    );
  });

  it('any single-character change to the body fails verification', () => {
    // Characters are code points, so a change never splits a surrogate pair.
    const changeArb = bodyArb
      .map((body) => Array.from(body))
      .filter((chars) => chars.length > 0)
      .chain((chars) =>
        fc.record({
          chars: fc.constant(chars),
          index: fc.nat({ max: chars.length - 1 }),
          replacement: codePointArb,
        }),
      )
      .filter(({ chars, index, replacement }) => chars[index] !== replacement);
    fc.assert(
      fc.property(changeArb, secretArb, ({ chars, index, replacement }, secret) => {
        const body = chars.join('');
        const tampered = chars.with(index, replacement).join('');
        expect(failsAsBadSignature(() => verifyWebhook(tampered, signWebhook(body, secret), secret))).toBe(
          true,
        );
      }),
    );
  });

  it('any single inserted or deleted character fails verification', () => {
    const editArb = bodyArb
      .map((body) => Array.from(body))
      .chain((chars) =>
        fc.record({
          chars: fc.constant(chars),
          index: fc.nat({ max: chars.length }),
          insert: fc.option(codePointArb, { nil: undefined }),
        }),
      );
    fc.assert(
      fc.property(editArb, secretArb, ({ chars, index, insert }, secret) => {
        const edited = [...chars];
        if (insert === undefined) edited.splice(index, 1);
        else edited.splice(index, 0, insert);
        fc.pre(edited.length !== chars.length);
        const body = chars.join('');
        return failsAsBadSignature(() => verifyWebhook(edited.join(''), signWebhook(body, secret), secret));
      }),
    );
  });

  it('any single-byte change to a byte body fails verification', () => {
    const changeArb = fc.uint8Array({ minLength: 1, maxLength: 300 }).chain((bytes) =>
      fc.record({
        bytes: fc.constant(bytes),
        index: fc.nat({ max: bytes.length - 1 }),
        xor: fc.integer({ min: 1, max: 255 }),
      }),
    );
    fc.assert(
      fc.property(changeArb, secretArb, ({ bytes, index, xor }, secret) => {
        const tampered = Uint8Array.from(bytes);
        tampered[index] = (tampered[index] ?? 0) ^ xor;
        return failsAsBadSignature(() => verifyWebhook(tampered, signWebhook(bytes, secret), secret));
      }),
    );
  });
});
