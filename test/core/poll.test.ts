import { describe, expect, it } from 'vitest';
import { MIN_POLL_INTERVAL_MS, pollUntilSettled } from '../../src/core/call/poll.js';
import { APIError } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/observability/log.js';
import { downloadWithFreshLink, LinkFreshness } from '../../src/core/results/link-freshness.js';
import { recordingClock } from '../support/clock.js';

describe('pollUntilSettled', () => {
  it('reports each change once, waits between polls, and returns the settled value', async () => {
    const states = ['a', 'a', 'b', 'done'];
    const seen: string[] = [];
    const clock = recordingClock();
    const result = await pollUntilSettled({
      read: async () => states.shift() ?? 'never',
      stateOf: (value) => value,
      settled: (value) => value === 'done',
      onChange: (value) => seen.push(value),
      intervalMs: 5_000,
      clock,
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['a', 'b', 'done']);
    expect(clock.waits).toEqual([5_000, 5_000, 5_000]);
  });

  it('never waits less than the minimum interval, and ends with the error a read throws', async () => {
    const clock = recordingClock();
    let reads = 0;
    const poll = pollUntilSettled({
      read: async () => {
        reads++;
        if (reads === 2) throw new Error('gone');
        return 'pending';
      },
      stateOf: (value) => value,
      settled: () => false,
      intervalMs: 1,
      clock,
    });
    await expect(poll).rejects.toThrow('gone');
    expect(clock.waits).toEqual([MIN_POLL_INTERVAL_MS]);
  });
});

describe('downloadWithFreshLink', () => {
  const logger = createLogger('off');
  const refused = new APIError({ status: 403, headers: {}, body: '', method: 'GET', path: '/file.pdf' });

  it('refreshes a refused link once and downloads through the fresh one', async () => {
    const tried: string[] = [];
    const result = await downloadWithFreshLink({
      initial: 'old-link',
      refresh: async () => 'new-link',
      download: async (link) => {
        tried.push(link);
        if (link === 'old-link') throw refused;
        return `bytes of ${link}`;
      },
      logger,
      what: 'report r1',
    });
    expect(result).toBe('bytes of new-link');
    expect(tried).toEqual(['old-link', 'new-link']);
  });

  it('gives up after one refresh, and never refreshes on other errors', async () => {
    let refreshes = 0;
    const plan = (error: Error) =>
      downloadWithFreshLink({
        initial: undefined,
        refresh: async () => {
          refreshes++;
          return 'link';
        },
        download: async () => Promise.reject(error),
        logger,
        what: 'report r1',
      });
    await expect(plan(refused)).rejects.toBe(refused);
    expect(refreshes).toBe(2);
    const other = new Error('reset');
    await expect(plan(other)).rejects.toBe(other);
    expect(refreshes).toBe(3);
  });
});

describe('LinkFreshness', () => {
  it("calls a link stale only when its carrier was received longer ago than the lifetime, on the client's clock", () => {
    let now = 1_000;
    const links = new LinkFreshness(10, () => now);
    const fresh = {};
    const unknown = {};
    links.received(fresh);
    expect(links.isStale(fresh)).toBe(false);
    expect(links.isStale(unknown)).toBe(false);
    now += 10;
    expect(links.isStale(fresh)).toBe(false);
    now += 1;
    expect(links.isStale(fresh)).toBe(true);
    expect(links.isStale(unknown)).toBe(false);
  });
});
