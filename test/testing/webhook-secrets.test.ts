/**
 * One secret per account signs its webhooks, as the service does (docs/wire-contract.md §6): the
 * mock, started from the bin with `--account ID:SECRET`, signs each account's deliveries with
 * that secret key, and the account's own client (`client.webhooks.unwrap`, its default secret)
 * verifies them; another account's client does not. `--account-webhook-secret ID:KEY` signs one
 * account's deliveries with another key (a receiver mid-rotation), and is refused for an account
 * no `--account` gives, without echoing a secret.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VerificationClient, WEBHOOK_SIGNATURE_HEADER, WebhookVerificationError } from '../../src/index.js';
import { applicantGroupSchema } from '../../src/schemas/index.js';
import { startMockBin } from '../../src/testing/bin-main.js';
import type { MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, expectOk, session } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

const io = (lines: string[]) => ({
  out: (line: string) => lines.push(line),
  err: (line: string) => lines.push(`stderr: ${line}`),
  env: {},
});

let mock: MockServer | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const receiver of receivers.splice(0)) await receiver.close();
});

/** One delivery of `clientId`'s group, as its receiver got it. */
async function deliveryOf(running: MockServer, clientId: string, secretKey: string) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const api = session({ url: running.url, clock: running.clock, clientId, secretKey });
  const group = expectOk(
    await api('POST', '/api/v1/applicant_groups', {
      body: applicantGroupBody({ webhook_url: receiver.url }),
    }),
    applicantGroupSchema,
  );
  running.applicants.start(group.applicants[0]?.id ?? '');
  await running.deliveries.settled();
  const [received] = receiver.received;
  if (!received) throw new Error('no delivery');
  return {
    body: received.body,
    headers: { [WEBHOOK_SIGNATURE_HEADER]: String(received.headers['verification-signature']) },
  };
}

describe('which secret signs an account’s webhooks', () => {
  it('the bin’s --account ID:SECRET: the secret key, which the account’s own client verifies with by default', async () => {
    const lines: string[] = [];
    mock = await startMockBin(
      [
        '--port',
        '0',
        '--account',
        'north:n-secret',
        '--account',
        'south:s-secret',
        '--account-webhook-secret',
        'south:s-rotating',
      ],
      io(lines),
    );
    if (!mock) throw new Error('the bin started no mock');
    expect(lines.join('\n')).not.toMatch(/n-secret|s-secret|s-rotating/);
    const client = (clientId: string, secretKey: string) =>
      new VerificationClient({ baseURL: mock?.url ?? '', clientId, secretKey, logLevel: 'off' });
    const north = client('north', 'n-secret');
    const south = client('south', 's-secret');
    try {
      const fromNorth = await deliveryOf(mock, 'north', 'n-secret');
      expect(north.webhooks.unwrap(fromNorth.body, fromNorth.headers)).toMatchObject({
        code: 'VERIFICATION_STARTED',
      });
      expect(() => south.webhooks.unwrap(fromNorth.body, fromNorth.headers)).toThrow(
        WebhookVerificationError,
      );
      // South's deliveries carry the test's override key, which its receiver accepts beside its own.
      const fromSouth = await deliveryOf(mock, 'south', 's-secret');
      expect(() => south.webhooks.unwrap(fromSouth.body, fromSouth.headers)).toThrow(
        WebhookVerificationError,
      );
      expect(south.webhooks.unwrap(fromSouth.body, fromSouth.headers, 's-rotating')).toMatchObject({
        code: 'VERIFICATION_STARTED',
      });
    } finally {
      await north.close();
      await south.close();
    }
  });

  it('refuses --account-webhook-secret for an account no --account gives, or without --account, echoing no secret', async () => {
    const lines: string[] = [];
    await expect(
      startMockBin(
        ['--port', '0', '--account', 'north:n-secret', '--account-webhook-secret', 'east:e-key'],
        io(lines),
      ),
    ).rejects.toThrow(/--account-webhook-secret names east, which no --account gives/);
    await expect(
      startMockBin(['--port', '0', '--account-webhook-secret', 'east:e-key'], io(lines)),
    ).rejects.toThrow(/needs the --account it names/);
    const malformed = startMockBin(
      ['--port', '0', '--account', 'a:x', '--account-webhook-secret', 'a:'],
      io(lines),
    );
    await expect(malformed).rejects.toThrow(/--account-webhook-secret must be ID:KEY/);
    expect(lines).toEqual([]);
  });
});
