/**
 * Who holds a `FileCoordination` lease or lock, and whether it still runs: a holder on this host,
 * in this boot and pid namespace, whose pid is gone (or reused by a process started at another
 * time) surely no longer runs; any other holder is never judged (docs/safe-creates.md,
 * "Coordination").
 */

import { nodeBuiltin } from '../transport/node-builtins.js';
import type { LeaseHolder } from './coordination.js';

const fs = () => nodeBuiltin('node:fs/promises');
const os = () => nodeBuiltin('node:os');

/**
 * A holder as recorded: the public {@link LeaseHolder}, and on Linux what tells this host's
 * processes apart exactly. A pid is only compared within one boot and one pid namespace, and its
 * start in clock ticks since boot (field 22 of `/proc/<pid>/stat`, fixed for the process's life)
 * tells a reused pid from the holder without converting clocks: a wall-clock start time derived
 * from the boot time moves when the clock is stepped, and a live holder must never look dead.
 */
export interface HolderRecord extends LeaseHolder {
  /** `/proc/sys/kernel/random/boot_id` when the holder recorded itself. */
  readonly boot?: string | undefined;
  /** The holder's pid namespace (`readlink /proc/self/ns/pid`). */
  readonly pidNs?: string | undefined;
  /** The holder's start, clock ticks since boot. */
  readonly startTicks?: number | undefined;
}

/** An error's `code` (`ENOENT`, `EEXIST` ...), if it has one. */
export function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

const LINUX = process.platform === 'linux';

/** A process's start in clock ticks since boot (Linux), or `undefined` when it cannot be read. */
async function startTicksOf(pid: number | 'self'): Promise<number | undefined> {
  if (!LINUX) return undefined;
  try {
    const text = await fs().readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may hold spaces or ')': count from the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (the state), so field 22 (starttime) is fields[19].
    const ticks = Number(fields[19]);
    return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
  } catch {
    return undefined;
  }
}

let self: Promise<HolderRecord> | undefined;

/** This process as a holder, computed once. */
export function thisProcess(): Promise<HolderRecord> {
  self ??= (async () => {
    const startedAt = Math.round(Date.now() - process.uptime() * 1000);
    if (!LINUX) return { host: os().hostname(), pid: process.pid, startedAt };
    const [boot, pidNs, startTicks] = await Promise.all([
      fs()
        .readFile('/proc/sys/kernel/random/boot_id', 'utf8')
        .then(
          (text) => text.trim() || undefined,
          () => undefined,
        ),
      fs()
        .readlink('/proc/self/ns/pid')
        .catch(() => undefined),
      startTicksOf('self'),
    ]);
    return { host: os().hostname(), pid: process.pid, startedAt, boot, pidNs, startTicks };
  })();
  return self;
}

/** A recorded holder read back, or `undefined` when `value` is not one. */
export function holderOf(value: unknown): HolderRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { host, pid, startedAt, boot, pidNs, startTicks } = record;
  // A pid of 0 or below would name a process group to process.kill: never a holder.
  if (typeof host !== 'string' || !Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  return {
    host,
    pid: pid as number,
    startedAt,
    boot: typeof boot === 'string' ? boot : undefined,
    pidNs: typeof pidNs === 'string' ? pidNs : undefined,
    startTicks: Number.isSafeInteger(startTicks) ? (startTicks as number) : undefined,
  };
}

/** The holder as the {@link Coordination} interface tells it. */
export function publicHolder({ host, pid, startedAt }: HolderRecord): LeaseHolder {
  return { host, pid, startedAt };
}

/**
 * `true` only when `holder` surely no longer runs: it ran on this host, in this boot and pid
 * namespace, and its pid is gone (ESRCH) or, on Linux, now belongs to a process started at
 * another time. Anything uncertain (another host, a pid of another user: EPERM, an unreadable
 * `/proc`) counts as running.
 */
export async function holderIsGone(holder: HolderRecord): Promise<boolean> {
  const own = await thisProcess();
  if (holder.host !== own.host || holder.boot !== own.boot || holder.pidNs !== own.pidNs) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return codeOf(error) === 'ESRCH';
  }
  if (holder.startTicks === undefined) return false;
  const ticks = await startTicksOf(holder.pid);
  return ticks !== undefined && ticks !== holder.startTicks;
}
