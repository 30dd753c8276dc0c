/**
 * Custom `util.inspect` output without importing `node:util`, which edge runtimes lack: Node, Bun
 * and Deno look a custom inspector up under this registered symbol, and hand it their `inspect`.
 */

/** `util.inspect.custom`: the same symbol, reached through the global registry. */
export const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/** The `inspect` the runtime passes a custom inspector as its third argument. */
export type InspectFunction = (value: unknown, options?: { depth?: number; breakLength?: number }) => string;
