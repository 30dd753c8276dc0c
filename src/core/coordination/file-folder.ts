/**
 * What a `FileCoordination` folder holds, read for people (the command line's `state show`), and
 * clearing it (`state clear`): never while a lease is held by a process that may run, nor while an
 * `unresolved` record is younger than the unresolved rule's window unless the caller says so.
 * Helpers of the command line (src/internal.ts), not part of the public API.
 */
import { join } from 'node:path';
import { nodeBuiltin } from '../transport/node-builtins.js';
import type { LeaseHolder } from './coordination.js';
import { folderClock } from './file-clock.js';
import { FORMAT_FILE } from './file-format.js';
import { holderIsGone, publicHolder } from './file-holders.js';
import { withFileLock } from './file-locks.js';
import { type KeyState, parseLine, prunable, STALE_MUTEX_MS } from './file-shard.js';

const fs = () => nodeBuiltin('node:fs');

const SHARD_FILE = /^shard-[0-9a-f]{2}\.log$/;

/** A lease held in the folder. */
export interface FolderLease {
  /** The household's key (a hash of client id and correlation id). */
  key: string;
  expiresAt: number;
  holder: LeaseHolder | undefined;
  /** Whether its holder surely no longer runs (a process of this host that is gone). */
  holderGone: boolean;
}

/** What a coordination folder holds. */
export interface FolderReport {
  /** The folder's format version (`format.json`), `undefined` without a marker. */
  version: number | undefined;
  /** Shard files, and their bytes together. */
  files: number;
  bytes: number;
  /** Households by their last outcome (`none`: a lease taken, nothing recorded). */
  outcomes: { created: number; unresolved: number; refused: number; none: number };
  /** Households that could be dropped at the next rewrite (an hour since their last record). */
  prunable: number;
  /** Leases not lapsed. */
  held: FolderLease[];
  /** `unresolved` records younger than `windowMs`: creates that may still reach the server. */
  recentUnresolved: Array<{ key: string; recordedAt: number }>;
  /** Lines that cannot be trusted: the file and line. */
  damaged: Array<{ file: string; line: number }>;
  /** Files of an earlier version (a `create-<key>.json` each), not migrated yet. */
  earlierVersionFiles: number;
}

/**
 * Reads every shard of `dir` (no lock: what their complete lines say), judged at `now` (default: the
 * folder's clock, the one its records were dated on; the wall clock where it has none, or its clock
 * file cannot be read: a folder that refuses every create anyway).
 */
export async function describeCoordinationFolder(
  dir: string,
  windowMs: number,
  given?: number,
): Promise<FolderReport> {
  const now =
    given ??
    (await folderClock(dir, false).then(
      (clock) => clock?.now(),
      () => undefined,
    )) ??
    Date.now();
  const report: FolderReport = {
    version: undefined,
    files: 0,
    bytes: 0,
    outcomes: { created: 0, unresolved: 0, refused: 0, none: 0 },
    prunable: 0,
    held: [],
    recentUnresolved: [],
    damaged: [],
    earlierVersionFiles: 0,
  };
  let names: string[];
  try {
    names = fs().readdirSync(dir);
  } catch {
    return report;
  }
  try {
    const marker = JSON.parse(fs().readFileSync(join(dir, FORMAT_FILE), 'utf8')) as { version?: unknown };
    if (typeof marker.version === 'number') report.version = marker.version;
  } catch {
    // No marker (or none readable): `version` stays undefined.
  }
  const keys = new Map<string, KeyState>();
  for (const name of names) {
    if (/^create-[0-9a-f]{40}\.json$/.test(name)) report.earlierVersionFiles++;
    if (!SHARD_FILE.test(name)) continue;
    const text = fs().readFileSync(join(dir, name), 'latin1');
    report.files++;
    report.bytes += text.length;
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (line === '') return;
      const parsed = parseLine(line);
      if ('key' in parsed) keys.set(parsed.key, parsed.state);
      // A torn line is acknowledged by the next one; the last line may be being written.
      else if (
        'damage' in parsed &&
        index < lines.length - 1 &&
        !('torn' in parseLine(lines[index + 1] ?? ''))
      )
        report.damaged.push({ file: join(dir, name), line: index + 1 });
    });
  }
  for (const [key, state] of keys) {
    report.outcomes[state.outcome?.state ?? 'none']++;
    if (prunable(state, now)) report.prunable++;
    if (state.expiresAt > now) {
      report.held.push({
        key,
        expiresAt: state.expiresAt,
        holder: state.holder && publicHolder(state.holder),
        holderGone: state.holder !== undefined && (await holderIsGone(state.holder)),
      });
    }
    if (state.outcome?.state === 'unresolved' && now - state.outcome.recordedAt < windowMs)
      report.recentUnresolved.push({ key, recordedAt: state.outcome.recordedAt });
  }
  return report;
}

/**
 * Removes the folder's records (its shard files; an earlier version's files) under its lock, after checking again, under
 * the lock, that `mayClear` accepts what the folder holds then. Returns the report it checked, and
 * whether it cleared.
 */
export async function clearCoordinationFolder(
  dir: string,
  windowMs: number,
  mayClear: (report: FolderReport) => boolean,
): Promise<{ cleared: boolean; report: FolderReport }> {
  if (!fs().existsSync(dir))
    return { cleared: false, report: await describeCoordinationFolder(dir, windowMs) };
  // Announced: a store that keeps the lock between rounds gives it up for a moment (file-store.ts).
  return withFileLock(
    join(dir, 'store.lock'),
    STALE_MUTEX_MS,
    async () => {
      const report = await describeCoordinationFolder(dir, windowMs);
      if (!mayClear(report)) return { cleared: false, report };
      for (const name of fs().readdirSync(dir)) {
        if (SHARD_FILE.test(name) || /^create-[0-9a-f]{40}\.(json|lock)$/.test(name))
          fs().rmSync(join(dir, name), { recursive: true, force: true });
      }
      return { cleared: true, report };
    },
    { announce: true },
  );
}
