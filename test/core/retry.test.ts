/** The retry policy as tables: verdicts per failure and safety, waits per header, deadlines. */
import { describe, expect, it } from 'vitest';
import {
  type AttemptFailure,
  BACKOFF,
  backoffMs,
  defaultDeadlineMs,
  exponentialBackoffMs,
  failureOf,
  mayHaveReachedServer,
  type RetrySafety,
  type RetryVerdict,
  rateLimitPauseMs,
  retryAfterMs,
  retryVerdict,
} from '../../src/core/call/retry.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ResponseValidationError,
} from '../../src/core/errors.js';

const status = (code: number, headers: Record<string, string> = {}): AttemptFailure => ({
  kind: 'status',
  status: code,
  headers,
});
/** A connection failure; a timeout after the request was written is one with `requestNotSent: false`. */
const connection = (requestNotSent: boolean): AttemptFailure => ({ kind: 'connection', requestNotSent });

const verdicts: Array<[string, AttemptFailure, RetrySafety, RetryVerdict]> = [
  ['connect refused / DNS / token failure / queue timeout, read', connection(true), 'read', 'retry'],
  ['connect refused / DNS / token failure / queue timeout, create', connection(true), 'create', 'retry'],
  ['timeout after the request was written, read', connection(false), 'read', 'retry'],
  ['timeout after the request was written, create', connection(false), 'create', 'ambiguous'],
  ['reset after writing (or unreadable body), create', connection(false), 'create', 'ambiguous'],
  ['429, create: refused before processing', status(429), 'create', 'retry'],
  ['429 with Retry-After, create', status(429, { 'retry-after': '1' }), 'create', 'retry'],
  ['500, create', status(500), 'create', 'ambiguous'],
  ['502, create', status(502), 'create', 'ambiguous'],
  ['503 without Retry-After, create', status(503), 'create', 'ambiguous'],
  [
    '503 with Retry-After, create: may come after a commit',
    status(503, { 'retry-after': '2' }),
    'create',
    'ambiguous',
  ],
  ['504, create', status(504), 'create', 'ambiguous'],
  ['408, create', status(408), 'create', 'ambiguous'],
  ['503, read', status(503), 'read', 'retry'],
  ['408, read', status(408), 'read', 'retry'],
  ['425, read', status(425), 'read', 'retry'],
  ['400, read', status(400), 'read', 'fail'],
  ['401, create (the token refresh handles it)', status(401), 'create', 'fail'],
  ['403, create', status(403), 'create', 'fail'],
  ['404, read', status(404), 'read', 'fail'],
  ['409, create', status(409), 'create', 'fail'],
  ['410, read', status(410), 'read', 'fail'],
  ['422, create', status(422), 'create', 'fail'],
  ['307, read (redirects are not followed)', status(307), 'read', 'fail'],
];

describe('retry verdicts', () => {
  it.each(verdicts)('%s', (_name, failure, safety, verdict) => {
    expect(retryVerdict(failure, safety)).toBe(verdict);
  });

  it.each<[AttemptFailure, boolean]>([
    [connection(true), false],
    [connection(false), true],
    [connection(false), true],
    [status(429), true],
    [status(500), true],
  ])('may %o have reached the server? %s', (failure, reached) => {
    expect(mayHaveReachedServer(failure)).toBe(reached);
  });
});

describe('waits', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each<[string, Record<string, string>, number | undefined]>([
    ['retry-after-ms', { 'retry-after-ms': '250' }, 250],
    ['Retry-After seconds', { 'retry-after': '3' }, 3000],
    ['Retry-After HTTP date', { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, 5000],
    ['Retry-After date in the past', { 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }, 0],
    ['Retry-After garbage', { 'retry-after': 'soon' }, undefined],
    ['Retry-After negative', { 'retry-after': '-5' }, undefined],
    ['Retry-After empty (not 0 s)', { 'retry-after': '' }, undefined],
    ['Retry-After blank (not 0 s)', { 'retry-after': '  ' }, undefined],
    ['retry-after-ms 0', { 'retry-after-ms': '0' }, 0],
    ['retry-after-ms negative, then nothing', { 'retry-after-ms': '-5' }, undefined],
    ['retry-after-ms Infinity, then nothing', { 'retry-after-ms': 'Infinity' }, undefined],
    ['retry-after-ms blank (not 0 ms), then nothing', { 'retry-after-ms': '  ' }, undefined],
    ['retry-after-ms empty, then Retry-After', { 'retry-after-ms': '', 'retry-after': '2' }, 2000],
    ['retry-after-ms garbage, then Retry-After', { 'retry-after-ms': 'soon', 'retry-after': '2' }, 2000],
    ['no header', {}, undefined],
  ])('reads %s', (_name, headers, expected) => {
    expect(retryAfterMs(headers, now)).toBe(expected);
  });

  it.each<[number, number, number]>([
    [0, 0, 375],
    [0, 1, 500],
    [2, 1, 2000],
    [10, 1, 8000],
  ])('backs off before retry %i (random %d): %i ms', (retry, random, expected) => {
    expect(exponentialBackoffMs(retry, () => random)).toBe(expected);
    expect(backoffMs(retry, {}, () => random, now)).toBe(expected);
  });

  it.each<[string, Record<string, string>, number | undefined]>([
    ['Retry-After 30 is honoured', { 'retry-after': '30' }, 30_000],
    ['Retry-After 60 is honoured (the cap)', { 'retry-after': '60' }, 60_000],
    ['Retry-After 0 still waits the floor', { 'retry-after': '0' }, BACKOFF.floorMs],
    ['retry-after-ms 1 still waits the floor', { 'retry-after-ms': '1' }, BACKOFF.floorMs],
    ['Retry-After 36000 is refused: the call fails instead', { 'retry-after': '36000' }, undefined],
    ['Retry-After beyond 2^31 ms is refused', { 'retry-after': String(2 ** 31) }, undefined],
    ['an HTTP date 10 hours ahead is refused', { 'retry-after': 'Thu, 01 Jan 2026 10:00:00 GMT' }, undefined],
    ['an HTTP date 5 s ahead is honoured', { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, 5_000],
  ])('%s', (_name, headers, expected) => {
    expect(backoffMs(0, headers, () => 1, now)).toBe(expected);
  });

  it.each<[Record<string, string>, number | undefined]>([
    [{ 'retry-after': '36000' }, undefined],
    [{ 'retry-after': String(2 ** 40) }, undefined],
    [{ 'retry-after': '60' }, BACKOFF.maxRetryAfterMs],
    [{ 'retry-after': '0' }, BACKOFF.floorMs],
    [{ 'retry-after': '2' }, 2_000],
    [{}, BACKOFF.initialMs],
  ])('the client-wide pause after a 429 with %o is %s ms (undefined: none)', (headers, expected) => {
    expect(rateLimitPauseMs(headers, now)).toBe(expected);
  });

  it.each<[number, number, number]>([
    [1_000, 0, 1_000],
    [1_000, 2, 3_000 + 500 + 1_000],
    [100, 6, 700 + 500 + 1_000 + 2_000 + 4_000 + 8_000 + 8_000],
    [60_000, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
  ])('the default deadline of timeout %i with %i retries is %i ms', (timeout, retries, expected) => {
    expect(defaultDeadlineMs(timeout, retries)).toBe(expected);
  });
});

describe('what a failed call was', () => {
  const apiError = (code: number, headers: Record<string, string> = {}) =>
    APIError.from({ status: code, headers, body: {}, method: 'POST', path: '/api/v1/applicant_groups' });

  it('a status error is its status and headers', () => {
    expect(failureOf(apiError(503, { 'retry-after': '2' }))).toEqual({
      kind: 'status',
      status: 503,
      headers: { 'retry-after': '2' },
    });
  });

  it('a connection error says whether the request left the process (a timeout is judged the same way)', () => {
    expect(failureOf(new APIConnectionError('reset', { requestNotSent: false }))).toEqual({
      kind: 'connection',
      requestNotSent: false,
    });
    expect(failureOf(new APIConnectionError('refused', { requestNotSent: true }))).toEqual({
      kind: 'connection',
      requestNotSent: true,
    });
    expect(failureOf(new APIConnectionTimeoutError('late', { requestNotSent: false }))).toEqual({
      kind: 'connection',
      requestNotSent: false,
    });
    expect(failureOf(new APIConnectionTimeoutError('queued', { requestNotSent: true }))).toEqual({
      kind: 'connection',
      requestNotSent: true,
    });
  });

  it('a success whose body is not JSON is an answer lost in transit: the server may have acted', () => {
    const lost = new ResponseValidationError(
      [{ path: '', message: 'Response body is not valid JSON', code: 'invalid_json' }],
      '<html>',
    );
    const failure = failureOf(lost);
    expect(failure).toEqual({ kind: 'connection', requestNotSent: false });
    expect(failure && retryVerdict(failure, 'create')).toBe('ambiguous');
  });

  it('no retry fixes a body of the wrong shape, an abort, or an error of the caller', () => {
    const wrongShape = new ResponseValidationError(
      [{ path: 'id', message: 'Expected string', code: 'invalid_type' }],
      {},
    );
    expect(failureOf(wrongShape)).toBeUndefined();
    expect(failureOf(new ResponseValidationError([], {}))).toBeUndefined();
    expect(failureOf(new APIUserAbortError())).toBeUndefined();
    expect(failureOf(new TypeError('bad input'))).toBeUndefined();
  });
});
