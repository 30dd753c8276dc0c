import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../src/core/errors.js';
import {
  signWebhook,
  unwrapWebhook,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookBody,
  type WebhookSignature,
} from '../../src/webhooks/verify.js';
import { unwrapWebhookAsync, verifyWebhookAsync } from '../../src/webhooks/verify-async.js';
import { SAMPLE_EVENTS, SECRET } from './fixtures.js';

const BODY = '{"code":"VERIFICATION_STARTED","verification_id":"a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b"}';
const SIGNATURE = createHmac('sha256', SECRET).update(BODY, 'utf8').digest('hex');

/** What a sync call did: `ok`, or the reason of its WebhookVerificationError. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
}

/** The same for an async call. */
async function outcomeAsync(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
}

const CASES: Array<[string, WebhookBody, WebhookSignature, string | undefined]> = [
  ['valid', BODY, SIGNATURE, SECRET],
  ['bytes', new TextEncoder().encode(BODY), SIGNATURE, SECRET],
  ['upper case, prefix, spaces', BODY, ` SHA256=${SIGNATURE.toUpperCase()} `, SECRET],
  ['repeated header', BODY, ['0'.repeat(64), SIGNATURE], SECRET],
  ['joined header', BODY, `${'0'.repeat(64)}, ${SIGNATURE}`, SECRET],
  ['tampered body', `${BODY} `, SIGNATURE, SECRET],
  ['tampered signature', BODY, `${SIGNATURE.slice(0, -1)}${SIGNATURE.endsWith('0') ? '1' : '0'}`, SECRET],
  ['other secret', BODY, signWebhook(BODY, `${SECRET}x`), SECRET],
  ['short', BODY, SIGNATURE.slice(0, 63), SECRET],
  ['not hex', BODY, 'z'.repeat(64), SECRET],
  ['missing signature', BODY, undefined, SECRET],
  ['empty signature', BODY, ['', '  '], SECRET],
  ['missing secret', BODY, SIGNATURE, undefined],
];

describe('verifyWebhookAsync (Web Crypto)', () => {
  it.each(CASES)('decides like verifyWebhook: %s', async (_name, body, signature, secret) => {
    const expected = outcome(() => verifyWebhook(body, signature, secret));
    expect(await outcomeAsync(() => verifyWebhookAsync(body, signature, secret))).toBe(expected);
  });

  it('accepts what it must and refuses what it must (the table is not all one verdict)', async () => {
    const verdicts = await Promise.all(
      CASES.map(([, body, signature, secret]) =>
        outcomeAsync(() => verifyWebhookAsync(body, signature, secret)),
      ),
    );
    expect(verdicts).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'bad_signature',
      'bad_signature',
      'bad_signature',
      'bad_signature',
      'bad_signature',
      'missing_signature',
      'missing_signature',
      'missing_secret',
    ]);
  });

  it('explains a body that was already parsed', async () => {
    const parsed: unknown = JSON.parse(BODY);
    // A JavaScript caller (or an `any` from a framework) can hand over the parsed object.
    await expect(
      Reflect.apply(verifyWebhookAsync, undefined, [parsed, SIGNATURE, SECRET]),
    ).rejects.toMatchObject({
      reason: 'invalid_payload',
      message: expect.stringMatching(/raw request body/),
    });
  });
});

describe('unwrapWebhookAsync (Web Crypto)', () => {
  it.each(Object.values(SAMPLE_EVENTS))('returns the event unwrapWebhook returns: $code', async (payload) => {
    const body = JSON.stringify(payload);
    const headers = new Headers({ [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) });
    const event = await unwrapWebhookAsync(body, headers, SECRET);
    expect(event).toEqual(unwrapWebhook(body, headers, SECRET));
    expect(event.code).toBe(payload.code);
  });

  it('verifies before parsing, and then rejects what is not JSON or not an event', async () => {
    const notJson = 'not json';
    await expect(unwrapWebhookAsync(notJson, {}, SECRET)).rejects.toMatchObject({
      reason: 'missing_signature',
    });
    const signed = { [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhook(notJson, SECRET) };
    await expect(unwrapWebhookAsync(notJson, signed, SECRET)).rejects.toMatchObject({
      reason: 'invalid_json',
    });
    const wrongShape = JSON.stringify({ code: 'REPORT_READY' });
    const wrongHeaders = { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(wrongShape, SECRET) };
    const error = await unwrapWebhookAsync(wrongShape, wrongHeaders, SECRET).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ reason: 'invalid_payload', message: expect.stringContaining('report_id') });
  });
});
