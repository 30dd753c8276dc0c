/**
 * Redaction in linear time: the hand-written email and JWT scanners mask exactly what the 0.1.0
 * regexes masked (checked against them on generated text), and text built to make a backtracking
 * regex crawl goes through in one pass. Caps and secret scrubbing are checked here too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capText,
  MAX_TEXT_LENGTH,
  maskText,
  redact,
  scrubDeep,
  scrubSecrets,
} from '../../src/core/observability/redact.js';

// The 0.1.0 patterns: correct but quadratic on hostile input. Kept here as the reference.
const OLD_EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*?(@|%40)([A-Za-z0-9-]+\.[A-Za-z0-9.-]*[A-Za-z])/gi;
const OLD_JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const HAS_OLD_JWT = new RegExp(OLD_JWT.source);
const oldEmailMask = (text: string) => text.replace(OLD_EMAIL, '$1***$2$3');

// Each end of every character range the scanners accept (a-z, A-Z, 0-9), and the characters just
// outside them (` { @ [ / :), so a scanner off by one at any boundary masks differently.
const pieces = [
  'a',
  'z',
  'A',
  'Z',
  '0',
  '9',
  '`',
  '{',
  '[',
  ':',
  '.',
  '-',
  '_',
  '+',
  '%',
  '40',
  '@',
  '%40',
  ' ',
  'x.com',
  'eyJ',
  '/',
];
const text = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

describe('linear-time masking', () => {
  it('masks emails exactly as the reference regex did', () => {
    fc.assert(
      fc.property(
        text.filter((value) => !HAS_OLD_JWT.test(value) && !/Bearer|\+\d/.test(value)),
        (value) => {
          expect(maskText(value)).toBe(oldEmailMask(value));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('masks a JWT wherever the reference regex found one', () => {
    fc.assert(
      fc.property(text, (value) => {
        const jwts = value.match(OLD_JWT) ?? [];
        const masked = maskText(value);
        for (const jwt of jwts) if (jwt.length > 12) expect(masked).not.toContain(jwt);
      }),
      { numRuns: 2_000 },
    );
    expect(maskText('token eyJhbGciOi.eyJzdWIiOiJ4In0.c2lnbmF0dXJl end')).toBe('token [REDACTED] end');
  });

  it.each([
    ['a megabyte of local-part characters before one @', `${'a'.repeat(1_000_000)}@`],
    ['a megabyte of %40 separators', 'a%40'.repeat(250_000)],
    ['a megabyte of @ signs between letters', 'x@'.repeat(500_000)],
    ['a megabyte of JWT starts without dots', 'eyJ-'.repeat(250_000)],
    ['a megabyte of JWT segments with an empty middle', `${'eyJa.'.repeat(200_000)}..`],
  ])('%s: one pass, nothing lost', (_name, hostile) => {
    const masked = maskText(hostile);
    expect(masked.length).toBeGreaterThan(0);
    expect(masked.length).toBeLessThanOrEqual(hostile.length * 2);
  });
});

describe('what is masked', () => {
  it('an email whatever letters its local part starts and ends with', () => {
    expect(maskText('liz@example.com')).toBe('l***@example.com');
    expect(maskText('ANA@example.com')).toBe('A***@example.com');
    expect(maskText('to: zed09@Example.ORG, 0a@x.io')).toBe('to: z***@Example.ORG, 0***@x.io');
    expect(redact({ applicant: 'liz@example.com', co: ['ANA@example.com'] })).toEqual({
      applicant: 'l***@example.com',
      co: ['A***@example.com'],
    });
  });
});

describe('what is masked, exactly', () => {
  it.each([
    ['a bearer token', 'Authorization: Bearer abc.def', 'Authorization: Bearer [REDACTED]'],
    [
      'a bearer token after several spaces',
      'Authorization: Bearer   abc.def',
      'Authorization: Bearer [REDACTED]',
    ],
    [
      'a phone number: country code and last two digits kept',
      'call +14155550123 now',
      'call +141******23 now',
    ],
    ['a JWT after a non-word character', 'a-eyJabcdef.ghi.jkl', 'a-[REDACTED]'],
    ['a JWT with a one-character middle', 'eyJabcdef.g.jkl', '[REDACTED]'],
    ['not a JWT glued to a letter', 'xeyJabcdef.ghi.jkl', 'xeyJabcdef.ghi.jkl'],
    ['not a JWT glued to a letter, however many dots follow', 'xeyJabc.def.ghi.jkl', 'xeyJabc.def.ghi.jkl'],
    ['not a JWT glued to a digit', '9eyJabcdef.ghi.jkl', '9eyJabcdef.ghi.jkl'],
    ['not a JWT glued to a zero', '0eyJabcdef.ghi.jkl', '0eyJabcdef.ghi.jkl'],
    ['not a JWT glued to an underscore', '_eyJabcdef.ghi.jkl', '_eyJabcdef.ghi.jkl'],
    ['not a JWT with an empty middle', 'eyJabcdef..jkl', 'eyJabcdef..jkl'],
    ['not a JWT with one dot', 'eyJabcdefgh.ij', 'eyJabcdefgh.ij'],
    ['an email, and no second one inside its domain', 'x@ab.cd@ef.gh', 'x***@ab.cd@ef.gh'],
    ['an email with %40, and no second one inside its domain', 'x%40ab.cd@ef.gh', 'x***%40ab.cd@ef.gh'],
  ])('%s', (_name, text, masked) => {
    expect(maskText(text)).toBe(masked);
  });

  it('caps text longer than the limit, not text of exactly the limit', () => {
    expect(capText('x'.repeat(MAX_TEXT_LENGTH))).toBe('x'.repeat(MAX_TEXT_LENGTH));
    expect(capText('x'.repeat(MAX_TEXT_LENGTH + 1))).toBe(
      `${'x'.repeat(MAX_TEXT_LENGTH)}… [truncated: ${MAX_TEXT_LENGTH + 1} characters in all]`,
    );
  });

  it('scrubs a secret of eight characters or more, never a shorter one', () => {
    expect(scrubSecrets('key=12345678;', ['12345678'])).toBe('key=[REDACTED];');
    expect(scrubSecrets('key=1234567;', ['1234567'])).toBe('key=1234567;');
  });

  it('replaces the values under every spelling of an API key', () => {
    expect(redact({ apikey: 'a', api_key: 'b', 'api-key': 'c', API_KEY: 'd', apiKeyId: 'e' })).toEqual({
      apikey: '[REDACTED]',
      api_key: '[REDACTED]',
      'api-key': '[REDACTED]',
      API_KEY: '[REDACTED]',
      apiKeyId: '[REDACTED]',
    });
  });

  it('keeps null values as null', () => {
    expect(redact({ email: null, list: [null] })).toEqual({ email: null, list: [null] });
    expect(scrubDeep({ token: null, list: [null] }, ['sk_live_0123456789abcdef'])).toEqual({
      token: null,
      list: [null],
    });
  });

  it('redact keeps the first 50 items of an array and the first 100 keys of an object', () => {
    const items = Array.from({ length: 60 }, (_, i) => i);
    expect(redact(items)).toEqual(items.slice(0, 50));
    const keys = Object.fromEntries(Array.from({ length: 105 }, (_, i) => [`k${i}`, i]));
    const out = redact(keys) as Record<string, unknown>;
    expect(Object.keys(out)).toHaveLength(101);
    expect(out.k99).toBe(99);
    expect(out.k100).toBeUndefined();
    expect(out['…']).toBe('5 more keys');
    expect(
      Object.keys(redact(Object.fromEntries(Object.entries(keys).slice(0, 100))) as object),
    ).toHaveLength(100);
  });
});

describe('depth limits', () => {
  type Cyclic = { name: string; self?: Cyclic };

  it('redact copies a cyclic object seven levels deep, then marks the rest', () => {
    const cyclic: Cyclic = { name: 'liz@example.com' };
    cyclic.self = cyclic;
    let expected: unknown = '[…]';
    for (let level = 0; level < 7; level++) expected = { name: 'l***@example.com', self: expected };
    expect(redact(cyclic)).toEqual(expected);
    const list: unknown[] = [];
    list.push(list);
    let nested: unknown = '[…]';
    for (let level = 0; level < 7; level++) nested = [nested];
    expect(redact(list)).toEqual(nested);
  });

  it('scrubDeep copies nine levels, then flattens the rest to scrubbed text', () => {
    const secret = 'sk_live_0123456789abcdef';
    let deep: unknown = { key: secret };
    for (let level = 0; level < 10; level++) deep = { next: deep };
    let out = scrubDeep(deep, [secret]);
    for (let level = 0; level < 9; level++) out = (out as { next: unknown }).next;
    expect(out).toBe('{"next":{"key":"[REDACTED]"}}');
    const cyclic: Cyclic = { name: secret };
    cyclic.self = cyclic;
    let copy = scrubDeep(cyclic, [secret]);
    for (let level = 0; level < 9; level++) {
      expect(copy).toMatchObject({ name: '[REDACTED]' });
      copy = (copy as Cyclic).self;
    }
    expect(copy).toBe('[unserializable]');
    const list: unknown[] = [secret];
    list.push(list);
    let item: unknown = scrubDeep(list, [secret]);
    for (let level = 0; level < 9; level++) {
      expect((item as unknown[])[0]).toBe('[REDACTED]');
      item = (item as unknown[])[1];
    }
    expect(item).toBe('[unserializable]');
  });
});

describe('caps and scrubbing', () => {
  it('caps text at 2 000 characters and notes the size', () => {
    const long = 'x'.repeat(1_000_000);
    const capped = capText(long);
    expect(capped.length).toBeLessThan(MAX_TEXT_LENGTH + 100);
    expect(capped).toContain('[truncated: 1000000 characters in all]');
    expect(capText('short')).toBe('short');
  });

  it('redact caps strings and keys deep inside an object', () => {
    const out = redact({ message: 'm'.repeat(50_000), nested: { list: ['n'.repeat(10_000)] } });
    expect(JSON.stringify(out).length).toBeLessThan(5_000);
  });

  it('scrubs known secrets from text and from nested values, keys included', () => {
    const secret = 'sk_live_0123456789abcdef';
    expect(scrubSecrets(`echo ${secret}!`, [secret])).toBe('echo [REDACTED]!');
    expect(scrubDeep({ [secret]: [`a ${secret}`], n: 1 }, [secret])).toEqual({
      '[REDACTED]': ['a [REDACTED]'],
      n: 1,
    });
    // Short values would match by accident and are left alone.
    expect(scrubSecrets('abc', ['abc'])).toBe('abc');
  });
});
