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
} from '../../src/core/redact.js';

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
