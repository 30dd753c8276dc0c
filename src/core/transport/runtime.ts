/** Which runtime the SDK runs on, for the User-Agent header and messages. */

interface RuntimeGlobals {
  process?: { version?: string; versions?: Partial<Record<string, string>> };
  navigator?: { userAgent?: string };
  EdgeRuntime?: unknown;
}

/**
 * The runtime: `node/v20.19.0`, `bun/1.2.0`, `deno/2.1.0`, `edge-light` (Vercel's Edge runtime),
 * `workerd` (Cloudflare Workers), else `unknown`.
 */
export function runtimeName(): string {
  const globals = globalThis as RuntimeGlobals;
  // Vercel's Edge runtime names itself in a global; Workers in navigator.userAgent.
  if (typeof globals.EdgeRuntime === 'string') return 'edge-light';
  if (globals.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  const versions = globals.process?.versions ?? {};
  if (versions.bun) return `bun/${versions.bun}`;
  if (versions.deno) return `deno/${versions.deno}`;
  return versions.node ? `node/${globals.process?.version}` : 'unknown';
}
