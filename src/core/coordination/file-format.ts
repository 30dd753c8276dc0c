/**
 * The format of a `FileCoordination` folder: `format.json` names the store and its version, so
 * that a version that cannot read a folder says so instead of ignoring what it holds. Version 1
 * (no marker; SDK releases before the sharded store) kept a `create-<key>.json` file per key and a
 * `create-<key>.lock` folder as its mutex; a folder of that version is migrated into the shards
 * (fences, lease holders and outcomes kept) under the folder's `migrate.lock`, then its files are
 * removed (docs/safe-creates.md, "Coordination").
 */
import { join } from 'node:path';
import { CoordinationStateError } from '../errors.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import type { CreateOutcomeRecord } from './coordination.js';
import { codeOf, holderIsGone, holderOf } from './file-holders.js';
import { HOLDER_ENTRY, readHolderEntry, withFileLock } from './file-locks.js';
import { type KeyState, STALE_MUTEX_MS } from './file-shard.js';
import type { KeyChange } from './file-store.js';

/** Changes a key's state in its shard, under the folder's lock. */
type Update = (
  key: string,
  change: (state: KeyState | undefined) => Promise<KeyChange<undefined>>,
) => Promise<undefined>;

const fs = () => nodeBuiltin('node:fs/promises');
const nodeCrypto = () => nodeBuiltin('node:crypto');

/** The marker's file name. */
export const FORMAT_FILE = 'format.json';
/** This version's format. */
export const FORMAT_VERSION = 2;
/** How many shard files a version 2 folder has. */
export const SHARDS = 64;
const STORE = 'applicant-verification/file-coordination';

/** Version 1's state file and mutex of one key. */
const OLD_STATE = /^create-([0-9a-f]{40})\.json$/;
const OLD_LOCK = /^create-[0-9a-f]{40}\.lock$/;
/** Version 1 files migrated at a time. */
const MIGRATE_CHUNK = 256;

/** What a folder's marker says. */
interface Marker {
  store: string;
  version: number;
  shards: number;
}

async function readMarker(dir: string): Promise<Marker | undefined> {
  const path = join(dir, FORMAT_FILE);
  let text: string;
  try {
    text = await fs().readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const marker = (typeof value === 'object' && value !== null ? value : {}) as Partial<Marker>;
  if (marker.store !== STORE || !Number.isSafeInteger(marker.version)) {
    throw new CoordinationStateError(
      path,
      undefined,
      `The coordination folder's marker ${path} cannot be read (${JSON.stringify(text.slice(0, 80))}): it should name the store and its format version. Nothing is sent through this folder. Repair: restore it from a backup, or write {"store":"${STORE}","version":${FORMAT_VERSION},"shards":${SHARDS}} if the folder's shard-*.log files are this version's.`,
    );
  }
  if ((marker.version as number) > FORMAT_VERSION || marker.shards !== SHARDS) {
    throw new CoordinationStateError(
      path,
      undefined,
      `The coordination folder ${dir} was written by a newer version of applicant-verification (format ${marker.version}, ${marker.shards} shards); this version reads format ${FORMAT_VERSION} and earlier. Its records may hold creates in flight, so nothing is sent through it: upgrade this process to the version that wrote it.`,
    );
  }
  return marker as Marker;
}

async function writeMarker(dir: string): Promise<void> {
  const path = join(dir, FORMAT_FILE);
  const temporary = `${path}.${process.pid}.${nodeCrypto().randomUUID()}.tmp`;
  const marker: Marker = { store: STORE, version: FORMAT_VERSION, shards: SHARDS };
  try {
    await fs().writeFile(temporary, `${JSON.stringify(marker)}\n`, { mode: 0o600, flag: 'wx', flush: true });
    await fs().rename(temporary, path);
  } finally {
    await fs()
      .rm(temporary, { force: true })
      .catch(() => {});
  }
}

/** A version 1 state file's content as a key's state; its outcome keeps its fence and time. */
function oldStateOf(value: unknown, at: number): KeyState {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const outcome = record.outcome as Record<string, unknown> | undefined;
  const isOutcome =
    typeof outcome === 'object' &&
    outcome !== null &&
    typeof outcome.fence === 'number' &&
    typeof outcome.recordedAt === 'number' &&
    ((outcome.state === 'created' && typeof outcome.id === 'string') ||
      outcome.state === 'unresolved' ||
      outcome.state === 'refused');
  return {
    fence: typeof record.fence === 'number' ? record.fence : 0,
    expiresAt: typeof record.expiresAt === 'number' ? record.expiresAt : 0,
    holder: holderOf(record.holder),
    // Validated field by field just above.
    outcome: isOutcome ? (outcome as unknown as CreateOutcomeRecord) : undefined,
    at,
  };
}

/**
 * Refuses a folder a version 1 process is still working in: a key's mutex whose holder may run
 * (it would keep writing files this version no longer reads).
 */
async function refuseOldWriters(dir: string, names: string[]): Promise<void> {
  for (const name of names.filter((entry) => OLD_LOCK.test(entry))) {
    const path = join(dir, name);
    const info = await fs()
      .stat(path)
      .catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs > STALE_MUTEX_MS) continue;
    const entries = await fs()
      .readdir(path)
      .catch(() => [] as string[]);
    const entry = entries.find((each) => HOLDER_ENTRY.test(each));
    if (entry === undefined) continue;
    const holder = readHolderEntry(join(path, entry));
    if (holder && (await holderIsGone(holder))) continue;
    throw new CoordinationStateError(
      path,
      undefined,
      `The coordination folder ${dir} is in use by an earlier version of applicant-verification (${holder ? `process ${holder.pid} on ${holder.host}` : 'a process'} holds ${name}), which keeps a file per household that this version does not read. Nothing is sent through it: stop every process of the earlier version, then run again (this version then moves their records into its own files).`,
    );
  }
}

/**
 * Migrates the version 1 files of `dir` into its shards: each key this store does not know yet
 * gets the old file's state (an old file that cannot be read is taken as an `unresolved` create
 * dated at its last change: it may have held one). Synced before the old files are removed.
 */
async function migrate(dir: string, update: Update): Promise<void> {
  const names = await fs().readdir(dir);
  await refuseOldWriters(dir, names);
  const files = names.filter((name) => OLD_STATE.test(name));
  for (let start = 0; start < files.length; start += MIGRATE_CHUNK) {
    await Promise.all(
      files.slice(start, start + MIGRATE_CHUNK).map(async (name) => {
        const key = OLD_STATE.exec(name)?.[1] as string;
        const path = join(dir, name);
        let text: string;
        let at: number;
        try {
          [text, at] = await Promise.all([
            fs().readFile(path, 'utf8'),
            fs()
              .stat(path)
              .then((info) => info.mtimeMs),
          ]);
        } catch (error) {
          if (codeOf(error) === 'ENOENT') return; // migrated by another process meanwhile
          throw error;
        }
        let state: KeyState;
        try {
          state = oldStateOf(JSON.parse(text), at);
        } catch {
          state = { fence: 0, expiresAt: 0, at, outcome: { state: 'unresolved', fence: 0, recordedAt: at } };
        }
        await update(key, async (current) =>
          current ? { result: undefined } : { next: state, durable: true, result: undefined },
        );
      }),
    );
  }
  for (const name of names.filter((entry) => OLD_STATE.test(entry) || OLD_LOCK.test(entry))) {
    await fs()
      .rm(join(dir, name), { recursive: true, force: true })
      .catch(() => {});
  }
}

/**
 * Makes the folder ready: checks its marker (a newer version's folder is refused), migrates a
 * version 1 folder, and writes the marker when missing.
 */
export async function prepareFolder(dir: string, update: Update): Promise<void> {
  await fs().mkdir(dir, { recursive: true, mode: 0o700 });
  const marker = await readMarker(dir);
  const names = await fs().readdir(dir);
  if (names.some((name) => OLD_STATE.test(name) || OLD_LOCK.test(name))) {
    await withFileLock(join(dir, 'migrate.lock'), STALE_MUTEX_MS, () => migrate(dir, update));
  }
  if (marker === undefined) await writeMarker(dir);
}
