/**
 * Seeded randomness for the mock. Everything the mock invents (ids, token ids, report figures)
 * comes from here, so the same seed and the same calls give the same output run after run.
 */

/** A seeded source of numbers and ids. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A uuid v4-shaped id (version and variant bits set), lowercase. */
  uuid(): string;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** Back to the first output of this seed and stream (the mock's `reset()`). */
  reset(): void;
}

// splitmix32 spreads a small seed (1, 2, 3...) over all 32 bits, so neighbouring seeds and
// neighbouring streams do not give correlated sfc32 states.
function splitmix32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x9e3779b9) >>> 0;
    let z = a;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * Builds an sfc32 generator from `seed`. `stream` selects an independent sequence for the same
 * seed: the mock draws group ids, token ids and report data from separate streams so that, say,
 * an extra auth request (a retry) does not shift the ids of the groups created after it.
 */
export function createRandom(seed: number, stream = 0): Random {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  const reset = (): void => {
    const mix = splitmix32(Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x632be5ab));
    a = mix();
    b = mix();
    c = mix();
    d = mix();
    // Warm-up rounds, as sfc32's authors recommend, so the first outputs are well mixed too.
    for (let i = 0; i < 12; i++) next();
  };
  reset();
  return { ...randomFrom(next), reset };
}

const toHex = (values: number[]): string => values.map((v) => v.toString(16).padStart(2, '0')).join('');

function uuidFrom(b: number[]): string {
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = toHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The draws every source offers, built on its float stream. */
function drawsFrom(next: () => number): Pick<Random, 'next' | 'int' | 'pick' | 'chance'> {
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick() needs a non-empty list');
      return item;
    },
    chance: (p) => next() < p,
  };
}

/**
 * A `Random` over a float source the caller seeded (floats in [0, 1)); it cannot `reset()`.
 * Lets callers that hold a plain seeded function use the report generator.
 */
export function randomFrom(next: () => number): Random {
  const bytes = (count: number): number[] => Array.from({ length: count }, () => Math.floor(next() * 256));
  return {
    ...drawsFrom(next),
    uuid: () => uuidFrom(bytes(16)),
    hex: (count) => toHex(bytes(count)),
    reset() {
      throw new Error('A Random built from a plain function cannot be reset');
    },
  };
}
