/**
 * Did-you-mean for request keys and enum values: a camelCase or kebab-case twin of a snake_case
 * field, a word of a longer field (`phone` for `phone_number`), or a close spelling.
 */

/** `correlationId` and `correlation-id` to `correlation_id`. */
function toSnakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/** Levenshtein distance, with an early exit once every cell of a row exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * The known value a mistyped one most likely meant, or `undefined` when none is close.
 *
 * @param input What the caller wrote.
 * @param known The values allowed at that place.
 */
export function suggestValue(input: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const snake = toSnakeCase(input);
  const exact = known.find((value) => value === snake || value.toLowerCase() === input.toLowerCase());
  if (exact !== undefined) return exact;
  // `phone` for `phone_number`, `email` for `applicant_email`: the shortest field holding it as a word.
  const words = snake.split('_');
  const holding = known
    .filter((value) => value.includes(snake) && words.every((word) => value.split('_').includes(word)))
    .sort((a, b) => a.length - b.length)[0];
  if (holding !== undefined) return holding;
  const limit = Math.max(1, Math.floor(snake.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const value of known) {
    const distance = editDistance(snake, value, limit);
    if (distance < bestDistance) {
      best = value;
      bestDistance = distance;
    }
  }
  return best;
}
