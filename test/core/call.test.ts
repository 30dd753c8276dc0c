/** The wire helpers of a call: the query string and the record copy that replace spreads on the per-call path. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyRecords, searchOf } from '../../src/core/call/call.js';

describe('searchOf', () => {
  it('encodes exactly as URLSearchParams does, whatever the names and values', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })),
        (query) => {
          const expected = new URLSearchParams(query).toString();
          expect(searchOf(query)).toBe(expected === '' ? '' : `?${expected}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('copies plain values as they are and encodes the rest', () => {
    expect(searchOf({ page: '2', correlation_id: 'unit-4B_x.y*' })).toBe(
      '?page=2&correlation_id=unit-4B_x.y*',
    );
    expect(searchOf({ search: 'Ann & Bo~', statuses: 'complete,pending' })).toBe(
      '?search=Ann+%26+Bo%7E&statuses=complete%2Cpending',
    );
    expect(searchOf({})).toBe('');
  });
});

describe('copyRecords', () => {
  it('copies every key into a new record, later records winning, undefined ones skipped', () => {
    const first = { accept: 'application/json', 'x-a': '1' };
    const copy = copyRecords(first, undefined, { 'x-a': '2', 'x-b': '3' });
    expect(copy).toEqual({ accept: 'application/json', 'x-a': '2', 'x-b': '3' });
    expect(copy).not.toBe(first);
    expect(first).toEqual({ accept: 'application/json', 'x-a': '1' });
  });

  it('keeps a "__proto__" key as a key, as spread syntax does, without touching the prototype', () => {
    const record = JSON.parse('{"__proto__": "x", "page": "1"}') as Record<string, string>;
    const copy = copyRecords(record);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'page']);
    expect(copy).toEqual({ ...record });
  });
});
