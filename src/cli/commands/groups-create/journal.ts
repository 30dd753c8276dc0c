/**
 * The write-ahead journal of `groups create`: one JSON line per event, appended and flushed to
 * disk (written with `O_DSYNC`, or written then fsynced) before a create is sent and again once it
 * settles (lines appended at the same moment share one write and one flush). A run killed at any point
 * (SIGKILL, power loss) leaves a journal that says which creates may be on their way to the
 * server; the next run resolves those by lookup before it creates anything. Journals of earlier
 * runs are never rewritten: each run appends after a `run` line of its own.
 *
 * Only ids, keys and times are journaled: applicants' emails stay in the CSV.
 *
 * Each line ends with its own checksum (`"sum"`: 16 hex digits of SHA-256 over the line's text
 * before it), so a line changed or cut after it was written is found on its own. The journal is
 * what tells an edited household from a new one and which creates may still be in flight: a
 * damaged line stops the run before any create ({@link JournalDamagedError}), never read as an
 * empty journal. A torn last line is what a kill mid-write leaves: it is tolerated, said once, and
 * the next run that appends acknowledges it with a `torn` line, so it is never mistaken for damage.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { StateError } from '../../errors.js';

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
  /** Line `line` was torn by a kill mid-write; acknowledged by the next run that appended. */
  | { type: 'torn'; at: string; line: number }
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
      /** A re-invitation (`--reinvite-expired`): the expired group the new one replaces. */
      reinvitation_of?: string;
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
  if (value.type === 'torn') return 'line' in value && typeof value.line === 'number';
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

/** The checksum of a line's text: 16 hex digits of SHA-256. */
function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const SUMMED = /^(\{.*),"sum":"([0-9a-f]{16})"\}$/;

/** A line as written: the entry's JSON with its checksum as the last field. */
export function journalLine(entry: JournalEntry): string {
  const json = JSON.stringify(entry);
  return `${json.slice(0, -1)},"sum":"${checksum(json)}"}`;
}

/** Why a line cannot be trusted, or the entry it holds. */
function readLine(line: string): { entry: JournalEntry } | { damage: string } {
  const summed = SUMMED.exec(line);
  // Lines without a checksum are those of earlier versions: trusted when they parse as an entry.
  const json = summed ? `${summed[1]}}` : line;
  if (summed && checksum(json) !== summed[2]) {
    return {
      damage: 'its checksum does not match its text (it was changed or garbled after it was written)',
    };
  }
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch {
    return { damage: 'it is not a complete JSON line (cut off or garbled)' };
  }
  return isEntry(entry) ? { entry } : { damage: 'it is not a journal entry' };
}

/** What reading a journal gave: each correlation id's last state, and a torn last line if any. */
export interface JournalRead {
  states: Map<string, JournalState>;
  /** The 1-based number of a torn last line not yet acknowledged (a kill mid-write), if any. */
  tornLine: number | undefined;
  /** Whether the file ends without a line break (a torn line: the next append starts a new line). */
  unterminated: boolean;
}

/**
 * A journal line that cannot be trusted: the run stops before any create, naming the file, the
 * line and the repair (exit code 6).
 */
export class JournalDamagedError extends StateError {
  override name = 'JournalDamagedError';
  /** The journal's path. */
  readonly path: string;
  /** The 1-based number of the damaged line. */
  readonly line: number;

  constructor(path: string, line: number, why: string, text: string) {
    const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
    const household = /"household_key":"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
    super(
      `the journal ${path} is damaged at line ${line}: ${why}: ${shown}. ` +
        'The journal tells an edited household from a new one and which creates may still be in flight, so nothing was sent. ' +
        `Repair: restore the file from a backup, or correct line ${line} by hand; if it cannot be recovered, delete line ${line} and run again ` +
        `(what it recorded is lost${household === undefined ? '' : `: it was about household "${household}"`}; an edit of that household made since will not be caught as a conflict).`,
    );
    this.path = path;
    this.line = line;
  }
}

/**
 * Reads a journal into the last state of each correlation id. A missing file is an empty journal.
 * A torn last line (the process died mid-write, before its fsync) is ignored and reported in
 * `tornLine`: the create it announced was not sent yet. Any other line that cannot be trusted
 * throws {@link JournalDamagedError}: the run must not start as if the journal were empty.
 */
export async function readJournal(path: string): Promise<JournalRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      return { states: new Map(), tornLine: undefined, unterminated: false };
    }
    throw error;
  }
  const states = new Map<string, JournalState>();
  const lines = text.split('\n');
  const lastLine = lines.findLastIndex((line) => line.trim() !== '') + 1;
  const damaged: Array<{ line: number; why: string; text: string }> = [];
  const acknowledged = new Set<number>();
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const read = readLine(line);
    if ('damage' in read) {
      damaged.push({ line: index + 1, why: read.damage, text: line });
      return;
    }
    const { entry } = read;
    if (entry.type === 'torn') acknowledged.add(entry.line);
    if (entry.type === 'run' || entry.type === 'torn') return;
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
  });
  let tornLine: number | undefined;
  for (const damage of damaged) {
    if (acknowledged.has(damage.line)) continue;
    // Only a line that nothing follows can be a write a kill cut short.
    if (damage.line === lastLine && !damage.why.startsWith('its checksum')) {
      tornLine = damage.line;
      continue;
    }
    throw new JournalDamagedError(path, damage.line, damage.why, damage.text);
  }
  return { states, tornLine, unterminated: text !== '' && !text.endsWith('\n') };
}

/** What a journal writes through: an open file (a test may give another). */
export type JournalFile = Pick<FileHandle, 'write' | 'datasync' | 'close'>;

/**
 * How {@link Journal.open} opens a journal where the platform has `O_DSYNC` (Linux, macOS): for
 * appending, each write returning only once its bytes are on disk, as after an `fdatasync`. A
 * batch then costs one call to the thread pool instead of two (a write, then its sync). Elsewhere
 * (Windows), plain appending, and each write is followed by a `datasync`.
 */
export function journalOpenFlags(): { flags: number | string; synced: boolean } {
  const { O_APPEND, O_CREAT, O_WRONLY, O_DSYNC } = constants;
  return typeof O_DSYNC === 'number' && O_DSYNC !== 0
    ? { flags: O_APPEND | O_CREAT | O_WRONLY | O_DSYNC, synced: true }
    : { flags: 'a', synced: false };
}

/**
 * An open journal; each append is on disk before its promise resolves. Appends made while a write
 * is on its way go to disk together, in one write and one fsync (a group commit): sixteen creates
 * at once cost one fsync per batch of lines, not one each, and no line is reported written before
 * it is flushed. A kill or power loss mid-write can cut only the last line of a batch (the lines
 * are written in order, in one write), which a reader tolerates as a torn line.
 */
export class Journal {
  readonly #handle: JournalFile;
  /** Each write of `#handle` is on disk when it resolves (`O_DSYNC`): no `datasync` after it. */
  readonly #synced: boolean;
  /** Lines waiting for the next write, and the callers waiting for them to be flushed. */
  #pending: string[] = [];
  #waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;

  private constructor(handle: JournalFile, synced: boolean) {
    this.#handle = handle;
    this.#synced = synced;
  }

  /**
   * Opens `path` for appending (created 0600: it names households of real applicants), with
   * `O_DSYNC` where the platform has it ({@link journalOpenFlags}).
   */
  static async open(path: string): Promise<Journal> {
    const { flags, synced } = journalOpenFlags();
    return Journal.over(await open(path, flags, 0o600), { synced });
  }

  /**
   * A journal appending to `file`, opened for appending. `synced`: the file was opened so that
   * each write is on disk when it resolves (`O_DSYNC`), so no `datasync` follows it.
   */
  static over(file: JournalFile, { synced = false }: { synced?: boolean } = {}): Journal {
    return new Journal(file, synced);
  }

  /**
   * Ends a torn last line that {@link readJournal} found and appends a `torn` line acknowledging
   * it (at `at`, the run's start), so that the next line appended is not glued to it and later
   * runs do not report it again. Call under the batch's lock.
   */
  static async acknowledgeTorn(path: string, read: JournalRead, at: Date): Promise<void> {
    if (read.tornLine === undefined) return;
    const journal = await Journal.open(path);
    try {
      if (read.unterminated) await journal.#write('\n');
      await journal.append({ type: 'torn', at: at.toISOString(), line: read.tornLine });
    } finally {
      await journal.close();
    }
  }

  /**
   * Appends `text`. Appends made while a write and its sync are under way wait for them, then go
   * to disk together, in order, with one write and one sync (group commit): at concurrency 16 a
   * batch pays a sync for many lines, not two per household (docs/benchmarks.md, "Scale").
   */
  #write(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push(text);
      this.#waiting.push({ resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  // Writes and flushes what is pending, batch after batch, until nothing is; a failed batch fails
  // its own callers, and the next batch is tried for the others.
  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const text = this.#pending.join('');
      const waiting = this.#waiting;
      this.#pending = [];
      this.#waiting = [];
      try {
        await this.#handle.write(text);
        if (!this.#synced) await this.#handle.datasync();
        for (const waiter of waiting) waiter.resolve();
      } catch (error) {
        for (const waiter of waiting) waiter.reject(error);
      }
    }
    this.#flushing = undefined;
  }

  /** Appends `entry` (with its checksum) and waits until it is flushed to disk. */
  append(entry: JournalEntry): Promise<void> {
    return this.#write(`${journalLine(entry)}\n`);
  }

  /** Waits for pending appends and closes the file. */
  async close(): Promise<void> {
    await this.#flushing;
    await this.#handle.close();
  }
}
