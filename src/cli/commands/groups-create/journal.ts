/**
 * The write-ahead journal of `groups create`: one JSON line per event, appended and flushed to
 * disk (fsync) before a create is sent and again once it settles. A run killed at any point
 * (SIGKILL, power loss) leaves a journal that says which creates may be on their way to the
 * server; the next run resolves those by lookup before it creates anything. Journals of earlier
 * runs are never rewritten: each run appends after a `run` line of its own.
 *
 * Only ids, keys and times are journaled: applicants' emails stay in the CSV.
 */
import { type FileHandle, open, readFile } from 'node:fs/promises';

/** How a create ended, as journaled. */
export type JournalOutcome =
  /** The group exists: `group_id` names it. */
  | 'created'
  /** The server refused the create (4xx) or it was never sent: no group. */
  | 'failed'
  /** The create may or may not have reached the server: resolve by lookup. */
  | 'unknown';

/** One line of the journal. */
export type JournalEntry =
  | { type: 'run'; at: string; pid: number; csv: string; batch_id: string }
  | {
      type: 'sending';
      at: string;
      household_key: string;
      correlation_id: string;
      batch_id: string;
      line: number;
    }
  | {
      type: 'settled';
      at: string;
      household_key: string;
      correlation_id: string;
      outcome: JournalOutcome;
      group_id: string;
    };

/** What the journal says about one correlation id: its last event. */
export interface JournalState {
  householdKey: string;
  /** The `--batch-id` of the run that sent it (`''` for none). */
  batchId: string;
  correlationId: string;
  /** When its last create was sent (ms since the epoch). */
  sentAt: number | undefined;
  /** `undefined` while the last create sent has not settled. */
  outcome: JournalOutcome | undefined;
  groupId: string;
}

/** Whether a create of this id may still be on its way: sent and never settled, or settled as unknown. */
export function isUnsettled(state: JournalState): boolean {
  return state.sentAt !== undefined && (state.outcome === undefined || state.outcome === 'unknown');
}

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  if (value.type === 'run') return true;
  return (
    (value.type === 'sending' || value.type === 'settled') &&
    'correlation_id' in value &&
    typeof value.correlation_id === 'string' &&
    'household_key' in value &&
    typeof value.household_key === 'string' &&
    'at' in value &&
    typeof value.at === 'string'
  );
}

/**
 * Reads a journal into the last state of each correlation id. A missing file is an empty journal;
 * a torn last line (the process died mid-write, before its fsync) is ignored: the create it
 * announced was not sent yet.
 */
export async function readJournal(path: string): Promise<Map<string, JournalState>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return new Map();
    throw error;
  }
  const states = new Map<string, JournalState>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isEntry(entry) || entry.type === 'run') continue;
    const previous = states.get(entry.correlation_id);
    if (entry.type === 'sending') {
      states.set(entry.correlation_id, {
        householdKey: entry.household_key,
        batchId: typeof entry.batch_id === 'string' ? entry.batch_id : '',
        correlationId: entry.correlation_id,
        sentAt: Date.parse(entry.at),
        outcome: undefined,
        groupId: '',
      });
    } else {
      states.set(entry.correlation_id, {
        householdKey: entry.household_key,
        batchId: previous?.batchId ?? '',
        correlationId: entry.correlation_id,
        sentAt: previous?.sentAt,
        outcome: entry.outcome,
        groupId: entry.group_id,
      });
    }
  }
  return states;
}

/** An open journal; appends are serialised and each is on disk before its promise resolves. */
export class Journal {
  readonly #handle: FileHandle;
  #tail: Promise<void> = Promise.resolve();

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /** Opens `path` for appending (created 0600: it names households of real applicants). */
  static async open(path: string): Promise<Journal> {
    return new Journal(await open(path, 'a', 0o600));
  }

  /** Appends `entry` and waits until it is flushed to disk. */
  append(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    const next = this.#tail.then(async () => {
      await this.#handle.write(line);
      await this.#handle.datasync();
    });
    // A failed write fails its own caller; the chain goes on for the others.
    this.#tail = next.catch(() => {});
    return next;
  }

  /** Waits for pending appends and closes the file. */
  async close(): Promise<void> {
    await this.#tail;
    await this.#handle.close();
  }
}
