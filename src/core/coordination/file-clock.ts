/**
 * The clock of a `FileCoordination` folder: what its leases and records are dated with, and their
 * ages read on. Every process of one boot reads the same clock, one that is never stepped: the
 * machine's monotonic clock (shared by its processes, counting from the boot), plus the folder's
 * epoch for that boot, the wall time at which the monotonic clock read zero as the first process of
 * the boot to use the folder saw it (`clock-<boot>.json`). A process whose wall clock runs ahead or
 * behind, or a wall clock stepped meanwhile (NTP, a resumed VM, a person), therefore dates and ages
 * records exactly as every other: an `unresolved` create a second old never looks 11 minutes old
 * (docs/fault-model.md, "Clock ahead"). The epoch matters for one boot only (after a reboot the
 * monotonic clock restarts and a new epoch is taken), so it is never synced. Linux only, where the
 * boot and the clock's namespace can be told apart; elsewhere the store runs on the wall clock.
 */
import { join } from 'node:path';
import { CoordinationStateError } from '../errors.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import { codeOf } from './file-holders.js';

const fs = () => nodeBuiltin('node:fs/promises');
const nodeCrypto = () => nodeBuiltin('node:crypto');

/** A clock file's name. */
const CLOCK_FILE = /^clock-[0-9a-f]{16}\.json$/;

/** The store's clock: epoch ms, and epoch µs (a fence's floor). */
export interface FolderClock {
  now(): number;
  micros(): number;
}

/** The machine's monotonic clock in µs (Linux: `CLOCK_MONOTONIC`, the same in every process of a boot). */
function monotonicMicros(): bigint {
  return process.hrtime.bigint() / 1000n;
}

/** What tells this boot's monotonic clock apart: the boot id and the time namespace (Linux). */
async function clockIdentity(): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const boot = (await fs().readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    if (boot === '') return undefined;
    // Absent before Linux 5.6: one time namespace then.
    const namespace = await fs()
      .readlink('/proc/self/ns/time')
      .catch(() => 'time:[none]');
    return `${boot} ${namespace}`;
  } catch {
    return undefined;
  }
}

/** The epoch a clock file holds; a {@link CoordinationStateError} when it cannot be trusted. */
function epochOf(path: string, text: string, identity: string): number {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (record.clock !== identity || !Number.isSafeInteger(record.epochMs)) {
    throw new CoordinationStateError(
      path,
      undefined,
      `The coordination folder's clock file ${path} cannot be read (${JSON.stringify(text.slice(0, 80))}): it should hold this boot's epoch, which every process of the machine dates the folder's leases and records with. Nothing is sent through this folder. Repair: remove the file once no process uses the folder; the next process writes it again.`,
    );
  }
  return record.epochMs as number;
}

/** Removes the clock files of earlier boots (best effort: a file left behind is never read). */
async function removeOthers(dir: string, own: string): Promise<void> {
  const names = await fs()
    .readdir(dir)
    .catch(() => []);
  for (const name of names) {
    if (name !== own && CLOCK_FILE.test(name))
      await fs()
        .rm(join(dir, name), { force: true })
        .catch(() => {});
  }
}

/**
 * The clock of the folder `dir` for this boot, writing its epoch when this process is the boot's
 * first to use it (`create`), or `undefined` where it cannot be kept (not Linux; without `create`,
 * a folder no process of this boot used yet): the wall clock then.
 */
export async function folderClock(dir: string, create = true): Promise<FolderClock | undefined> {
  const identity = await clockIdentity();
  if (identity === undefined) return undefined;
  const name = `clock-${nodeCrypto().createHash('sha256').update(identity).digest('hex').slice(0, 16)}.json`;
  const path = join(dir, name);
  let text: string;
  try {
    text = await fs().readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
    if (!create) return undefined;
    // Written whole, then linked into place: the first process of the boot sets the epoch, the
    // others read it.
    const epochMs = Date.now() - Number(monotonicMicros() / 1000n);
    const temporary = `${path}.${process.pid}.${nodeCrypto().randomUUID()}.tmp`;
    try {
      await fs().writeFile(temporary, JSON.stringify({ clock: identity, epochMs }), {
        mode: 0o600,
        flag: 'wx',
      });
      await fs()
        .link(temporary, path)
        .then(
          () => removeOthers(dir, name),
          (linkError: unknown) => {
            if (codeOf(linkError) !== 'EEXIST') throw linkError;
          },
        );
    } finally {
      await fs()
        .rm(temporary, { force: true })
        .catch(() => {});
    }
    text = await fs().readFile(path, 'utf8');
  }
  const epochMicros = BigInt(epochOf(path, text, identity)) * 1000n;
  return {
    now: () => Number((epochMicros + monotonicMicros()) / 1000n),
    micros: () => Number(epochMicros + monotonicMicros()),
  };
}
