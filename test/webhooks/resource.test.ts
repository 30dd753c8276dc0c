import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../src/core/errors.js';
import { Webhooks } from '../../src/resources/webhooks.js';
import { signWebhook } from '../../src/webhooks/verify.js';
import { SAMPLE_EVENTS, SECRET } from './fixtures.js';

const BODY = JSON.stringify(SAMPLE_EVENTS.REPORT_READY);

describe('Webhooks', () => {
  it('signs, verifies and unwraps with the secret key given to the constructor', () => {
    const webhooks = new Webhooks(SECRET);
    const signature = webhooks.sign(BODY);
    expect(signature).toBe(signWebhook(BODY, SECRET));
    expect(() => webhooks.verify(BODY, signature)).not.toThrow();
    expect(webhooks.unwrap(BODY, { 'Verification-Signature': signature })).toEqual(
      SAMPLE_EVENTS.REPORT_READY,
    );
  });

  it('lets each call pass another secret', () => {
    const webhooks = new Webhooks('the-client-key');
    const signature = signWebhook(BODY, SECRET);
    expect(() => webhooks.verify(BODY, signature)).toThrow(WebhookVerificationError);
    expect(() => webhooks.verify(BODY, signature, SECRET)).not.toThrow();
    expect(webhooks.unwrap(BODY, new Headers({ 'verification-signature': signature }), SECRET)).toEqual(
      SAMPLE_EVENTS.REPORT_READY,
    );
    expect(webhooks.sign(BODY, SECRET)).toBe(signature);
  });

  it('reports missing_secret when neither the client nor the call has a secret', () => {
    const webhooks = new Webhooks();
    expect(() => webhooks.sign(BODY)).toThrow(expect.objectContaining({ reason: 'missing_secret' }));
    expect(() => webhooks.verify(BODY, 'a'.repeat(64))).toThrow(
      expect.objectContaining({ reason: 'missing_secret' }),
    );
    expect(() => webhooks.unwrap(BODY, {})).toThrow(expect.objectContaining({ reason: 'missing_secret' }));
  });

  it('never shows the secret key when inspected or serialised', () => {
    const webhooks = new Webhooks('whsec');
    expect(inspect(webhooks)).not.toContain('whsec');
    expect(inspect(webhooks, { showHidden: true, depth: Number.POSITIVE_INFINITY })).not.toContain('whsec');
    expect(JSON.stringify(webhooks)).not.toContain('whsec');
    expect(Object.keys(webhooks)).toEqual([]);
    expect(Reflect.ownKeys(webhooks)).toEqual([]);
    expect(String(webhooks)).not.toContain('whsec');
  });

  it('never puts the secret key in an error', () => {
    const webhooks = new Webhooks(SECRET);
    const failures: unknown[] = [];
    for (const attempt of [
      () => webhooks.verify(BODY, '0'.repeat(64)),
      () => webhooks.verify(BODY, undefined),
      () => webhooks.unwrap('nope', { 'verification-signature': webhooks.sign('nope') }),
      () =>
        webhooks.unwrap(JSON.stringify({ code: 'NO_BANK' }), {
          'verification-signature': webhooks.sign('{"code":"NO_BANK"}'),
        }),
    ]) {
      try {
        attempt();
      } catch (error) {
        failures.push(error);
      }
    }
    expect(failures).toHaveLength(4);
    for (const error of failures) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(inspect(error)).not.toContain(SECRET);
      expect(JSON.stringify(error)).not.toContain(SECRET);
    }
  });
});
