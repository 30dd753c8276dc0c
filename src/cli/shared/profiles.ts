/**
 * Named connection profiles: one per account a person works for, in
 * `$XDG_CONFIG_HOME/applicant-verification/profiles.json` (only an absolute `XDG_CONFIG_HOME`
 * counts, as the XDG base directory specification says; default
 * `~/.config/applicant-verification/profiles.json`), shaped
 * `{ "profiles": { "NAME": { "baseURL", "clientId", "secretKey" | "secretKeyEnv" } } }`.
 *
 * A profile is a whole connection: its base URL and its credentials as a pair. `secretKeyEnv`
 * names an environment variable holding the secret, so the file itself need hold none. No
 * message here ever shows a secret: a file that is not JSON is located by line and column only.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describeError, UsageError } from '../errors.js';
import type { CliIO } from './io.js';
import { closest } from './suggest.js';

/** The connection a profile gives. */
export interface Profile {
  /** The profile's name. */
  name: string;
  baseURL: string;
  clientId: string;
  secretKey: string;
}

/** The fields a profile may have. */
const PROFILE_FIELDS = ['baseURL', 'clientId', 'secretKey', 'secretKeyEnv'] as const;

/** Where the profiles file is (no I/O). */
export function profilesPath(io: Pick<CliIO, 'env'>): string {
  const xdg = io.env.XDG_CONFIG_HOME;
  const config = xdg && isAbsolute(xdg) ? xdg : join(io.env.HOME || homedir(), '.config');
  return join(config, 'applicant-verification', 'profiles.json');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// V8's JSON messages quote the text around the error, which may be a secret: only the place is said.
function jsonProblem(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (position === undefined) return 'is not valid JSON';
  const before = text.slice(0, Number(position)).split('\n');
  return `is not valid JSON (line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})`;
}

async function readProfiles(path: string, setBy: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = isRecord(error) && error.code === 'ENOENT';
    throw new UsageError(
      missing
        ? `${setBy}: there is no profiles file ${path}; create it as { "profiles": { "NAME": { "baseURL": "https://...", "clientId": "...", "secretKeyEnv": "VARIABLE_HOLDING_THE_SECRET" } } }`
        : `${setBy}: cannot read the profiles file ${path}: ${describeError(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${setBy}: the profiles file ${path} ${jsonProblem(text, error)}`);
  }
  if (!isRecord(parsed) || !isRecord(parsed.profiles)) {
    throw new UsageError(
      `${setBy}: the profiles file ${path} must be an object with a "profiles" object: { "profiles": { "NAME": { ... } } }`,
    );
  }
  return parsed.profiles;
}

function text(entry: Record<string, unknown>, field: string, where: string): string {
  const value = entry[field];
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`${where}: "${field}" must be a non-empty string`);
  return value;
}

/**
 * Loads the profile `name` (chosen by `setBy`: `--profile` or `VERIFICATION_PROFILE`): a usage
 * error for a missing or malformed file, an unknown name (with the known ones, and the nearest
 * as "did you mean"), a profile without `baseURL` or `clientId`, with both or neither of
 * `secretKey` and `secretKeyEnv`, or whose `secretKeyEnv` variable is unset.
 */
export async function loadProfile(name: string, setBy: string, io: Pick<CliIO, 'env'>): Promise<Profile> {
  if (name.trim() === '') throw new UsageError(`${setBy} needs a profile name, got ""`);
  const path = profilesPath(io);
  const profiles = await readProfiles(path, setBy);
  const entry = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (entry === undefined) {
    const known = Object.keys(profiles);
    const near = closest(name, known);
    throw new UsageError(
      `${setBy}: no profile "${name}" in ${path}${near === undefined ? '' : `; did you mean "${near}"?`} ${
        known.length === 0 ? 'The file has no profiles.' : `Known profiles: ${known.join(', ')}`
      }`,
    );
  }
  const where = `profile "${name}" in ${path}`;
  if (!isRecord(entry))
    throw new UsageError(`${where} must be an object { "baseURL", "clientId", "secretKey" }`);
  const unknown = Object.keys(entry).filter(
    (field) => !(PROFILE_FIELDS as readonly string[]).includes(field),
  );
  if (unknown.length > 0) {
    const hints = unknown.map((field) => {
      const near = closest(field, PROFILE_FIELDS);
      return near === undefined ? `"${field}"` : `"${field}" (did you mean "${near}"?)`;
    });
    throw new UsageError(
      `${where}: unknown field(s) ${hints.join(', ')}; a profile has ${PROFILE_FIELDS.join(', ')}`,
    );
  }
  const baseURL = text(entry, 'baseURL', where);
  const clientId = text(entry, 'clientId', where);
  const hasKey = entry.secretKey !== undefined;
  const hasEnv = entry.secretKeyEnv !== undefined;
  if (hasKey === hasEnv) {
    throw new UsageError(
      `${where}: give exactly one of "secretKey" and "secretKeyEnv" (the name of an environment variable holding the secret), ${hasKey ? 'not both' : 'got neither'}`,
    );
  }
  if (hasKey) return { name, baseURL, clientId, secretKey: text(entry, 'secretKey', where) };
  const variable = text(entry, 'secretKeyEnv', where);
  const secretKey = io.env[variable];
  if (!secretKey) {
    throw new UsageError(
      `${where}: its secret key comes from the environment variable ${variable}, which is not set`,
    );
  }
  return { name, baseURL, clientId, secretKey };
}
