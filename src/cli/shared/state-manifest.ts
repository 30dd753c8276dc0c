/**
 * The state folder's manifest, `state.json`: which servers and client ids its records were made
 * with, and the journals of the runs that used it, so that `state show` can say what it belongs
 * to and a run can tell a folder used with another server. Written by `groups create` on a file
 * gate (mode 0600); read by `state show` and `state clear`. A manifest that cannot be read is
 * reported and rewritten from what this run knows, never trusted.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One server and client id the folder was used with. */
export interface StateUse {
  /** The API's origin (`https://api.example.com`). */
  server: string;
  clientId: string;
  /** First and last run with them (ISO times). */
  firstRun: string;
  lastRun: string;
}

/** What `state.json` records. */
export interface StateManifest {
  uses: StateUse[];
  /** The journals (beside their CSV files) of the runs that used the folder. */
  journals: string[];
}

/** The manifest's path in `stateDir`. */
export function manifestPath(stateDir: string): string {
  return join(stateDir, 'state.json');
}

function isUse(value: unknown): value is StateUse {
  if (typeof value !== 'object' || value === null) return false;
  const use = value as Record<string, unknown>;
  return (
    typeof use.server === 'string' &&
    typeof use.clientId === 'string' &&
    typeof use.firstRun === 'string' &&
    typeof use.lastRun === 'string'
  );
}

/** The manifest of `stateDir`; empty when there is none, `undefined` when it cannot be read. */
export async function readManifest(stateDir: string): Promise<StateManifest | undefined> {
  let text: string;
  try {
    text = await readFile(manifestPath(stateDir), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT')
      return { uses: [], journals: [] };
    return undefined;
  }
  try {
    const value = JSON.parse(text) as { uses?: unknown; journals?: unknown };
    const uses = Array.isArray(value.uses) ? value.uses.filter(isUse) : [];
    const journals = Array.isArray(value.journals)
      ? value.journals.filter((journal): journal is string => typeof journal === 'string')
      : [];
    return { uses, journals };
  } catch {
    return undefined;
  }
}

/** The origin of a base URL, as the manifest records servers. */
export function serverOf(baseURL: string): string {
  try {
    return new URL(baseURL).origin;
  } catch {
    return baseURL;
  }
}

/** Records a run with `server`, `clientId` and `journal` in the manifest (written whole, by rename). */
export async function recordUse(
  stateDir: string,
  use: { server: string; clientId: string; journal: string; at: Date },
): Promise<StateManifest> {
  const manifest = (await readManifest(stateDir)) ?? { uses: [], journals: [] };
  const at = use.at.toISOString();
  const known = manifest.uses.find((each) => each.server === use.server && each.clientId === use.clientId);
  if (known) known.lastRun = at;
  else manifest.uses.push({ server: use.server, clientId: use.clientId, firstRun: at, lastRun: at });
  if (!manifest.journals.includes(use.journal)) manifest.journals.push(use.journal);
  const path = manifestPath(stateDir);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
  return manifest;
}

/** Removes the manifest (`state clear`). */
export async function removeManifest(stateDir: string): Promise<void> {
  await rm(manifestPath(stateDir), { force: true });
}
