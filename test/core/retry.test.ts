import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs, retryVerdict } from '../../src/core/retry.js';

const status = (code: number, headers: Record<string, string> = {}) =>
  ({ kind: 'status', status: code, headers }) as const;
const connection = (requestNotSent: boolean, timedOut = false) =>
  ({ kind: 'connection', requestNotSent, timedOut }) as const;

describe('retry policy', () => {
  it.each([408, 425, 429, 500, 502, 503, 504])('retries a read on %i', (code) => {
    expect(retryVerdict(status(code), 'read')).toBe('retry');
  });

  it.each([400, 401, 403, 404, 409, 410, 422])('never retries %i', (code) => {
    expect(retryVerdict(status(code), 'read')).toBe('fail');
    expect(retryVerdict(status(code), 'create')).toBe('fail');
  });

  it('retries a create only when it provably did not reach the server', () => {
    expect(retryVerdict(connection(true), 'create')).toBe('retry');
    expect(retryVerdict(status(429), 'create')).toBe('retry');
    expect(retryVerdict(status(503, { 'retry-after': '2' }), 'create')).toBe('retry');
  });

  it('calls a create ambiguous after a timeout, a reset after sending, 500, 502, 504 or a bare 503', () => {
    expect(retryVerdict(connection(false, true), 'create')).toBe('ambiguous');
    expect(retryVerdict(connection(false), 'create')).toBe('ambiguous');
    for (const code of [500, 502, 503, 504]) expect(retryVerdict(status(code), 'create')).toBe('ambiguous');
  });

  it('reads retry-after-ms, Retry-After seconds and HTTP dates', () => {
    expect(retryAfterMs({ 'retry-after-ms': '250' })).toBe(250);
    expect(retryAfterMs({ 'retry-after': '3' })).toBe(3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });

  it('backs off 0.5 s × 2^n with jitter in [0.75, 1], capped at 8 s', () => {
    expect(backoffMs(0, {}, () => 0)).toBe(375);
    expect(backoffMs(0, {}, () => 1)).toBe(500);
    expect(backoffMs(2, {}, () => 1)).toBe(2000);
    expect(backoffMs(10, {}, () => 1)).toBe(8000);
  });

  it('honours the server up to 60 s and falls back to backoff beyond', () => {
    expect(backoffMs(0, { 'retry-after': '30' }, () => 1)).toBe(30_000);
    expect(backoffMs(0, { 'retry-after': '120' }, () => 1)).toBe(500);
  });
});
