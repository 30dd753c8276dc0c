/** `groups watch` end to end: a line per change of status or of applicants completed; exit codes for completion and expiry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realSleep } from '../../src/core/clock.js';
import { VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { runCli, startCli } from './helpers.js';

let mock: MockServer;
let sdk: VerificationClient;

beforeAll(async () => {
  mock = await createMockServer({ seed: 31 });
  sdk = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
});
afterAll(async () => {
  await sdk.close();
  await mock.close();
});

async function group(tag: string) {
  return sdk.applicantGroups.create({
    applicants: [
      { first_name: 'Wat', last_name: 'Cher', email: `${tag}-1@example.com` },
      { first_name: 'Wen', last_name: 'Dy', email: `${tag}-2@example.com` },
    ],
    property: {
      name: 'Watch Tower',
      street_address: '1 Look Out',
      city: 'Reno',
      state: 'Nevada',
      zip_code: '89501',
    },
    decision_maker_display_name: 'Watchers',
    monthly_rent: 1000,
    correlation_id: `watch-${tag}`,
    is_invitation_disabled: true,
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls wait a fiftieth of their length: the 1 s minimum interval becomes 20 ms. */
const fastClock = {
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal | null) => realSleep(ms / 50, signal),
};

describe('groups watch', () => {
  it('prints each status change and exits 0 when the group completes', async () => {
    const watched = await group('done');
    const [first, second] = watched.applicants;
    if (!first || !second) throw new Error('no applicants');
    const run = startCli(['groups', 'watch', watched.id, '--interval', '0.05'], mock, { clock: fastClock });
    await until(() => run.stdout().includes('not_started'), 'the first status line');
    mock.applicants.start(first.id);
    await until(() => run.stdout().includes('in_progress'), 'in_progress');
    // The status stays in_progress: the progress is what changed, and it is printed.
    mock.applicants.complete(first.id);
    await until(() => run.stdout().includes('1/2 applicants completed'), 'the first applicant completing');
    mock.applicants.complete(second.id);
    const result = await run.result;
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  ${watched.id}  not_started  0/2 applicants completed$`),
    );
    // One line per change, not per poll.
    expect(lines.map((line) => line.split('  ').slice(2).join('  '))).toEqual([
      'not_started  0/2 applicants completed',
      'in_progress  0/2 applicants completed',
      'in_progress  1/2 applicants completed',
      'completed  2/2 applicants completed',
    ]);
  });

  it('exits 1 when the group expires first, and when there is no such group', async () => {
    const watched = await group('expires');
    const run = startCli(['groups', 'watch', watched.id, '--interval', '0.05'], mock, { clock: fastClock });
    await until(() => run.stdout().includes('not_started'), 'the first status line');
    mock.clock.advance(15 * 24 * 60 * 60_000);
    const result = await run.result;
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('expired (not_started)');
    expect(result.stderr).toContain('expired before every applicant completed');

    const missing = await runCli(['groups', 'watch', '00000000-0000-4000-8000-000000000000'], mock);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No applicant group with id');
  });

  it('stops on SIGINT with exit code 130', async () => {
    const watched = await group('interrupted');
    const run = startCli(['groups', 'watch', watched.id, '--interval', '0.05'], mock, { clock: fastClock });
    await until(() => run.stdout().includes('not_started'), 'the first status line');
    run.stop('SIGINT');
    expect((await run.result).code).toBe(130);
  });
});
