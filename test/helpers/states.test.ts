import { describe, expect, it } from 'vitest';
import { stateCodeForName, stateNameForCode, US_STATES } from '../../src/helpers/index.js';

describe('US_STATES', () => {
  it('lists the 50 states, DC and the five inhabited territories, each once', () => {
    expect(US_STATES).toHaveLength(56);
    expect(new Set(US_STATES.map((state) => state.code)).size).toBe(56);
    expect(new Set(US_STATES.map((state) => state.name)).size).toBe(56);
    for (const state of US_STATES) expect(state.code).toMatch(/^[A-Z]{2}$/);
  });
});

describe('stateNameForCode', () => {
  it.each([
    ['CA', 'California'],
    ['ca', 'California'],
    [' ny ', 'New York'],
    ['DC', 'District of Columbia'],
    ['PR', 'Puerto Rico'],
    ['GU', 'Guam'],
    ['VI', 'U.S. Virgin Islands'],
  ])('%j is %s', (code, name) => {
    expect(stateNameForCode(code)).toBe(name);
  });

  it.each(['ZZ', 'California', '', 'C'])('%j is not a code', (code) => {
    expect(stateNameForCode(code)).toBeUndefined();
  });

  it('inverts stateCodeForName for every entry', () => {
    for (const { code, name } of US_STATES) {
      expect(stateNameForCode(code)).toBe(name);
      expect(stateCodeForName(name)).toBe(code);
      expect(stateCodeForName(name.toUpperCase())).toBe(code);
    }
    expect(stateCodeForName('new   york')).toBe('NY');
    expect(stateCodeForName('Atlantis')).toBeUndefined();
  });
});
