/** "Did you mean": the known name closest to a mistyped one. */

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  let beforePrevious = previous;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      // Two neighbours swapped (--cvs for --csv) is one slip of the fingers, not two.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j] ?? 0, (beforePrevious[j - 2] ?? 0) + 1);
      }
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? Math.max(a.length, b.length);
}

/**
 * The entry of `known` nearest to `given`, when it is near enough to be a typo (a third of the
 * name's length, at least 1 and at most 3 edits), or one that starts with it; else `undefined`.
 */
export function closest(given: string, known: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.max(1, Math.floor(lower.length / 3)));
  for (const candidate of known) {
    const distance = editDistance(lower, candidate);
    if (distance <= bestDistance) {
      best = candidate;
      bestDistance = distance - 1;
    }
  }
  if (best !== undefined) return best;
  return lower.length >= 3 ? known.find((candidate) => candidate.startsWith(lower)) : undefined;
}
