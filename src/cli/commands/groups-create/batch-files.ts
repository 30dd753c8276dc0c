/**
 * The files of one batch, beside its CSV, kept per account (client id): two accounts (two
 * profiles, say) creating from the same file never share a journal or a lock, and each run's
 * results log names the account it acted for. `households.csv` run as client `north` has
 * `households.north.journal.jsonl`, `households.north.lock` and
 * `households.results.north.<time>.csv`.
 */
import { createHash } from 'node:crypto';
import { join, parse as parsePath } from 'node:path';
import { timestampTag } from '../../shared/files.js';

/** The paths of one batch for one account. */
export interface BatchFiles {
  /** The account's write-ahead journal. */
  journal: string;
  /**
   * The journal of versions that kept one per file (`households.journal.jsonl`): still read,
   * never written. Whatever it says is confirmed by lookups in the run's own account.
   */
  sharedJournal: string;
  /** The account's batch lock. */
  lock: string;
}

// Longer or stranger ids are shortened and made safe, with a digest so two never meet.
const SAFE_TAG = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,47}$/;

/** The client id as it appears in file names: itself when safe and short, else a safe prefix and a digest. */
export function accountTag(clientId: string): string {
  if (SAFE_TAG.test(clientId)) return clientId;
  const digest = createHash('sha256').update(clientId).digest('hex').slice(0, 12);
  const prefix = clientId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 24);
  return `${prefix}-${digest}`;
}

/** The journal and lock of `csvPath` for the account `clientId`. */
export function batchFiles(csvPath: string, clientId: string): BatchFiles {
  const { dir, name } = parsePath(csvPath);
  const tag = accountTag(clientId);
  return {
    journal: join(dir, `${name}.${tag}.journal.jsonl`),
    sharedJournal: join(dir, `${name}.journal.jsonl`),
    lock: join(dir, `${name}.${tag}.lock`),
  };
}

/** `households.csv` → `households.results.<account>.20261123T123714.120Z.csv`, beside the input. */
export function defaultLogPath(csvPath: string, clientId: string, startedAt: Date): string {
  const { dir, name } = parsePath(csvPath);
  return join(dir, `${name}.results.${accountTag(clientId)}.${timestampTag(startedAt)}.csv`);
}
