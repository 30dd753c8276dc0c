/**
 * Builds a value on its first use. zod builds every schema node with its methods at once (about
 * 20 µs a node here), so a module of schemas made at import costs every process that imports the
 * client, whether or not it calls the endpoints they check (docs/benchmarks.md, "Cold start,
 * round 6").
 */

/** `build()` on the first call, then the very same value on every later call. */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
