/**
 * Not an entry point for users (package.json exports no path to it): built as `dist/shared.js`
 * beside the main entry, it is how the Redis and households entries reach the library's error
 * classes at run time. Those two entries are built apart from the main one (tsup.config.ts), each
 * in one file; their imports of `core/errors.ts` and `core/options.ts` load this file instead of
 * copies, so there is one `VerificationError` and one `ConfigurationError` in a process and
 * `instanceof` holds across entries. It re-exports the main entry whole, so that the code the main
 * entry loads stays in as few files as before it was built apart (docs/benchmarks.md, "Cold start,
 * round 7").
 */
export * from './core/errors.js';
export * from './core/options.js';
export * from './index.js';
