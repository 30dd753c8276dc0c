/**
 * One shard of `FileCoordination`'s store: an append-only file of one-line records, each the whole
 * state of one key (fence, lease expiry, holder, outcome) with its own checksum, the last record of
 * a key being its state. Each process keeps, per key of the shard, only where its last record
 * starts in the file (a number), and the parsed states of the {@link RECENT_KEYS} keys it used
 * last; any other key's state is read back from the file by that offset when an operation asks
 * for it (docs/reliability.md, "The coordination folder", what a process holds in memory). On
 * each operation it reads only the bytes appended since its last read (the whole file again when
 * it was replaced, told by its inode, or by the last bytes read no longer being there). The store (file-store.ts) appends under
 * its lock and syncs. When dead records dominate, the shard is rewritten with one record per live
 * key, dropping keys no decision can need any more (docs/reliability.md, "The coordination folder").
 *
 * A torn last line (a process killed, or the power lost, mid-write) is tolerated: the next writer
 * ends it and appends a `torn` record naming it. Any other line that cannot be trusted refuses the
 * keys it may concern (its own key when the line still names it, else every key of the shard) with
 * a {@link CoordinationStateError} naming the file and the line: never skipped, never read as "no
 * record".
 */
import { basename, dirname, join } from 'node:path';
import { CoordinationStateError } from '../errors.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import type { CreateOutcomeRecord } from './coordination.js';
import { codeOf, type HolderRecord, holderOf } from './file-holders.js';

/**
 * Reads, appends and the lock are synchronous calls: metadata and page-cache copies of a local
 * file, microseconds each, where a thread-pool round trip costs more than the call. Only the syncs
 * to disk (milliseconds) are asynchronous.
 */
const fs = () => nodeBuiltin('node:fs');
const nodeCrypto = () => nodeBuiltin('node:crypto');

/**
 * A shard's lock older than this (ms) is broken whoever holds it: its holder died where it cannot
 * be checked (another host), or hangs. A holder on this host that no longer runs is noticed at once.
 */
export const STALE_MUTEX_MS = 10_000;
/**
 * How long a key is kept once its lease is over and nothing was written to it (ms): an hour, six
 * times the 10 minutes an `unresolved` outcome holds a household back (docs/safe-creates.md), and
 * far beyond the longest lease a waiter waits for. Older keys are dropped when the shard is
 * rewritten.
 */
export const KEEP_MS = 60 * 60_000;
/**
 * How many keys' parsed states a shard keeps, the most recently used (a few times what the keys of
 * one shard in flight at a concurrency of 16 need); every other key's state is read back from the
 * file when asked for. A state costs a few hundred bytes of heap, an offset a number.
 */
export const RECENT_KEYS = 32;
/** The bytes first read for a record read back (a record is 150 to 500 bytes). */
const RECORD_GUESS = 1024;
/** How many of the last bytes read are checked again before reading on. */
const TAIL = 24;
/** At most this often (ms, the store's clock) a shard counts its keys that could be dropped. */
const PRUNE_CHECK_MS = 10 * 60_000;

/** One key's state as a shard holds it. */
export interface KeyState {
  /** The newest lease's fence. */
  fence: number;
  /** When the newest lease lapses (0: released). */
  expiresAt: number;
  /** Who holds the newest lease. */
  holder?: HolderRecord | undefined;
  /** The outcome last recorded. */
  outcome?: CreateOutcomeRecord | undefined;
  /** When this state was written (the store's clock): what pruning dates it by. */
  at: number;
}

/** A line that cannot be trusted. */
export interface ShardDamage {
  /** The 1-based line. */
  line: number;
  /** Why it cannot be trusted. */
  why: string;
  /** Its first characters. */
  text: string;
  /** The key its text shows, if any. */
  key?: string | undefined;
  /** Whether that key can be trusted as the line's own (its checksum matched). */
  keyTrusted?: boolean | undefined;
}

function call<T>(run: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    run((error, value) => (error ? reject(error) : resolve(value)));
  });
}

/** 16 hex digits of SHA-256 over a record's text. */
function checksum(text: string): string {
  return nodeCrypto().createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A character past ASCII (or DEL), which a record escapes. */
const NOT_ASCII = /[\u007f-\uffff]/;

/** JSON with every character past ASCII escaped: a record's bytes are its characters. */
function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Most records are ASCII already: one scan, no replacement.
  if (!NOT_ASCII.test(json)) return json;
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function summed(value: unknown): string {
  const json = asciiJson(value);
  return `${json.slice(0, -1)},"s":"${checksum(json)}"}`;
}

/** A key's state as one line (without its line break). The key comes first, so damage can name it. */
export function recordLine(key: string, state: KeyState): string {
  return summed({
    k: key,
    f: state.fence,
    e: state.expiresAt,
    t: state.at,
    ...(state.holder && { h: state.holder }),
    ...(state.outcome && { o: state.outcome }),
  });
}

/** The line acknowledging a torn line at byte `offset`. */
function tornLine(offset: number): string {
  return summed({ torn: offset });
}

const SUMMED = /^(\{.*),"s":"([0-9a-f]{16})"\}$/;
const KEY_OF_LINE = /^\{"k":"([0-9a-f]{40})"/;

function isOutcome(value: unknown): value is CreateOutcomeRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.fence === 'number' &&
    typeof record.recordedAt === 'number' &&
    ((record.state === 'created' && typeof record.id === 'string') ||
      record.state === 'unresolved' ||
      record.state === 'refused')
  );
}

/**
 * A line read back. Damage names the key its line shows (`damagedKey`), and whether that can be
 * trusted: only when the line's checksum matched. The key text of a line changed after it was
 * written may itself be what changed (one hex digit gives another key).
 */
type Parsed =
  | { key: string; state: KeyState }
  | { torn: number }
  | { damage: string; damagedKey?: string | undefined; keyTrusted?: boolean };

/** A line read back: a key's state, a torn line's acknowledgement, or why it cannot be trusted. */
export function parseLine(line: string): Parsed {
  const match = SUMMED.exec(line);
  if (!match)
    return {
      damage: 'it is not a complete record (cut off or garbled)',
      damagedKey: KEY_OF_LINE.exec(line)?.[1],
    };
  const json = `${match[1]}}`;
  if (checksum(json) !== match[2])
    return {
      damage: 'its checksum does not match its text (it was changed or garbled after it was written)',
      damagedKey: KEY_OF_LINE.exec(line)?.[1],
    };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { damage: 'it is not JSON' };
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof record.torn === 'number') return { torn: record.torn };
  const { k, f, e, t, h, o } = record;
  if (typeof k !== 'string' || typeof f !== 'number' || typeof e !== 'number' || typeof t !== 'number')
    return {
      damage: 'it is not a key record',
      damagedKey: typeof k === 'string' ? k : undefined,
      keyTrusted: true,
    };
  if (o !== undefined && !isOutcome(o))
    return { damage: 'its outcome is not one', damagedKey: k, keyTrusted: true };
  const holder = h === undefined ? undefined : holderOf(h);
  if (h !== undefined && holder === undefined)
    return { damage: 'its holder is not one', damagedKey: k, keyTrusted: true };
  return { key: k, state: { fence: f, expiresAt: e, at: t, holder, outcome: o } };
}

/** Whether `state` can be dropped at `now`: no lease held, nothing written to it for {@link KEEP_MS}. */
export function prunable(state: KeyState, now: number): boolean {
  return state.expiresAt <= now && now - state.at > KEEP_MS;
}

/** One shard file of a `FileCoordination` folder, as this process sees it. */
export class Shard {
  /** The shard's file. */
  readonly path: string;
  readonly #now: () => number;
  /** Where each key's last record starts in the file (bytes): every key of the shard. */
  #offsets = new Map<string, number>();
  /** The parsed states of the keys used last, least recently used first (at most {@link RECENT_KEYS}). */
  #recent = new Map<string, KeyState>();
  /** Lines that cannot be trusted, by the key they may concern (`*`: every key of the shard). */
  #damage = new Map<string, ShardDamage>();
  #fd: number | undefined;
  #ino = -1;
  /** Bytes read (and applied) so far. */
  #offset = 0;
  /** The last bytes read (up to {@link TAIL}): checked again before each read, to notice a file rewritten in place. */
  #tail = '';
  /** Lines read so far. */
  #lines = 0;
  /** Key records read so far (what a rewrite would shrink). */
  #records = 0;
  #prunedAt = Number.NEGATIVE_INFINITY;
  /** The file was made by this process and its folder not synced since. */
  #made = false;
  /** Syncs of the open descriptor under way: it is closed only once they are done. */
  #syncing: Promise<unknown> = Promise.resolve();
  /**
   * The holding of the store's lock (an object per taking) under which this process last read the
   * shard to its end and appended: while that same holding lasts, nobody else can have appended
   * to, rewritten or replaced the file.
   */
  #currentUnder: object | undefined;

  /**
   * @param path The shard's file.
   * @param now The store's clock (epoch ms).
   */
  constructor(path: string, now: () => number) {
    this.path = path;
    this.#now = now;
  }

  /** The descriptor this process keeps open (closed once its coordination is collected), if any. */
  get fd(): number | undefined {
    return this.#fd;
  }

  /** How many keys the shard holds, and of how many it keeps the parsed state in memory. */
  get held(): { keys: number; parsed: number } {
    return { keys: this.#offsets.size, parsed: this.#recent.size };
  }

  /**
   * The state of `key` as last read: kept in memory when the key was used lately, else read back
   * from its record in the file. A record read back that is no longer what was read there (the
   * file changed in place) refuses the key with a {@link CoordinationStateError} naming the line.
   */
  stateOf(key: string): KeyState | undefined {
    const recent = this.#recent.get(key);
    if (recent !== undefined) {
      this.#remember(key, recent);
      return recent;
    }
    const offset = this.#offsets.get(key);
    if (offset === undefined) return undefined;
    const state = this.#readBack(key, offset);
    this.#remember(key, state);
    return state;
  }

  /** Keeps `key`'s parsed state as the most recently used, forgetting the least recently used past {@link RECENT_KEYS}. */
  #remember(key: string, state: KeyState): void {
    this.#recent.delete(key);
    this.#recent.set(key, state);
    if (this.#recent.size > RECENT_KEYS) {
      const oldest = this.#recent.keys().next();
      if (!oldest.done) this.#recent.delete(oldest.value);
    }
  }

  /** The record of `key` at `offset`, read back from the file; a line that is not that record is damage. */
  #readBack(key: string, offset: number): KeyState {
    const line = this.#lineAt(offset);
    const parsed: Parsed =
      line === undefined ? { damage: 'it is not a complete record (cut off or garbled)' } : parseLine(line);
    if ('key' in parsed && parsed.key === key) return parsed.state;
    const why =
      'damage' in parsed
        ? `${parsed.damage}; it was read whole before, so the file was changed in place`
        : 'it is no longer the record of its key read there before: the file was changed in place';
    const text = line ?? '';
    this.#damage.set(key, {
      line: this.#lineNumberAt(offset),
      why,
      text: text.length > 80 ? `${text.slice(0, 80)}…` : text,
    });
    throw this.refusal(key);
  }

  /** The line starting at `offset` (without its line break), `undefined` when none ends before what was read. */
  #lineAt(offset: number): string | undefined {
    const fd = this.#fd;
    if (fd === undefined) return undefined;
    for (let length = RECORD_GUESS; ; length *= 4) {
      const end = Math.min(offset + length, this.#offset);
      const text = readFrom(fd, offset, end).toString('latin1');
      const newline = text.indexOf('\n');
      if (newline !== -1) return text.slice(0, newline);
      if (end >= this.#offset) return undefined;
    }
  }

  /** The 1-based line starting at byte `offset`. */
  #lineNumberAt(offset: number): number {
    const fd = this.#fd;
    if (fd === undefined) return 1;
    const before = readFrom(fd, 0, offset);
    let lines = 1;
    for (let at = before.indexOf(10); at !== -1; at = before.indexOf(10, at + 1)) lines++;
    return lines;
  }

  /** The error for `key` when a line that may concern it cannot be trusted. */
  refusal(key: string): CoordinationStateError | undefined {
    const damage = this.#damage.get(key) ?? this.#damage.get('*');
    if (damage === undefined) return undefined;
    const which = this.#damage.has(key)
      ? 'its key'
      : 'a key it cannot name, so every household of this shard';
    return new CoordinationStateError(
      this.path,
      damage.line,
      `The coordination file ${this.path} is damaged at line ${damage.line}: ${damage.why}: ${JSON.stringify(damage.text)}. ` +
        `It held the create lease and outcome of ${which}, so no create is sent for them (one may be in flight). ` +
        `Repair: restore the file from a backup, or, once no run or script uses the folder and every household of this shard has been checked for its group, delete line ${damage.line} (what it recorded is lost).`,
    );
  }

  /**
   * {@link refresh}`(true)` under the store's lock, taken once as `holding`; skipped when this
   * process has held that same taking without a gap since it last read and appended to the shard
   * (the file is then what it wrote: only the lock's holder appends, rewrites or replaces it).
   */
  async refreshUnder(holding: object): Promise<{ tornAt?: number | undefined }> {
    if (this.#currentUnder === holding && this.#fd !== undefined) return {};
    this.#currentUnder = undefined;
    return this.refresh(true);
  }

  /**
   * Appends the records of `changed` (under the store's lock, taken once as `holding`, after
   * {@link refreshUnder}), and the acknowledgement of a torn last line at `torn`. Not synced:
   * {@link sync} does.
   */
  async commit(changed: Map<string, KeyState>, torn: number | undefined, holding: object): Promise<void> {
    this.#currentUnder = undefined;
    if (changed.size === 0 && torn === undefined) {
      if (this.#fd !== undefined) this.#currentUnder = holding;
      return;
    }
    const lines = [...changed].map(([key, state]) => ({ key, state, text: `${recordLine(key, state)}\n` }));
    const records = lines.map(({ text }) => text).join('');
    await this.#append(`${torn === undefined ? '' : `\n${tornLine(torn)}\n`}${records}`);
    // The records end where the file now ends (one byte a character: ASCII JSON).
    let offset = this.#offset - records.length;
    for (const { key, state, text } of lines) {
      this.#offsets.set(key, offset);
      this.#remember(key, state);
      offset += text.length;
    }
    this.#records += lines.length;
    this.#lines += lines.length + (torn === undefined ? 0 : 1);
    this.#currentUnder = holding;
  }

  /** Puts what was appended on disk (and, for a file just made, its name in its folder). */
  async sync(): Promise<void> {
    const fd = this.#fd;
    if (fd === undefined) return;
    // The store's next round may run meanwhile: a rewrite then closes this descriptor only after.
    const synced = call<void>((done) => fs().fdatasync(fd, done));
    this.#syncing = Promise.all([this.#syncing, synced.catch(() => {})]);
    await synced;
    if (this.#made) {
      this.#made = false;
      await syncFolder(dirname(this.path));
    }
  }

  /** Appends `text` at the end (this process holds the lock and has read to the end). */
  async #append(text: string): Promise<void> {
    if (this.#fd === undefined) {
      this.#made = true;
      await this.#open();
    }
    const fd = this.#fd as number;
    const bytes = Buffer.from(text, 'latin1');
    try {
      const written = fs().writeSync(fd, bytes, 0, bytes.length, null);
      if (written !== bytes.length)
        throw new Error(`wrote ${written} of ${bytes.length} bytes to ${this.path}`);
    } catch (error) {
      // What reached the file is read back next time, from the start.
      this.#forget();
      throw error;
    }
    this.#advance(text, bytes.length);
  }

  async #open(): Promise<void> {
    const fd = fs().openSync(this.path, 'a+', 0o600);
    const info = fs().fstatSync(fd);
    this.#forget();
    this.#fd = fd;
    this.#ino = info.ino;
  }

  /** Forgets what was read: the next read starts from the file's first byte. */
  #forget(): void {
    const fd = this.#fd;
    if (fd !== undefined) {
      void this.#syncing.then(() => fs().close(fd, () => {}));
      this.#syncing = Promise.resolve();
    }
    this.#fd = undefined;
    this.#currentUnder = undefined;
    this.#ino = -1;
    this.#offset = 0;
    this.#tail = '';
    this.#lines = 0;
    this.#records = 0;
    this.#offsets = new Map();
    this.#recent = new Map();
    this.#damage = new Map();
  }

  /**
   * Reads what was appended since the last read. Only complete lines are applied; without the
   * lock an incomplete last line (being written) and a damaged last line (its acknowledgement may
   * be being written) wait for the next read. Under the lock (`locked`) an incomplete last line is
   * torn: its offset is returned, for the round to acknowledge.
   */
  async refresh(locked: boolean): Promise<{ tornAt?: number | undefined }> {
    let info: import('node:fs').Stats;
    try {
      info = fs().statSync(this.path);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
      this.#forget();
      return {};
    }
    let size = info.size;
    if (this.#fd === undefined || info.ino !== this.#ino || info.size < this.#offset) {
      await this.#open();
      // The file opened may be newer than the one stat read (rewritten in between).
      size = fs().fstatSync(this.#fd as number).size;
    }
    let fd = this.#fd as number;
    if (size <= this.#offset) return {};
    let buffer = readFrom(fd, this.#offset - this.#tail.length, size);
    if (buffer.toString('latin1', 0, this.#tail.length) !== this.#tail) {
      // Rewritten in place (cut short by a power loss, edited by hand): read it again from the start.
      await this.#open();
      fd = this.#fd as number;
      size = fs().fstatSync(fd).size;
      buffer = readFrom(fd, 0, size);
    }
    buffer = buffer.subarray(this.#tail.length);
    const read = buffer.length;
    const text = buffer.toString('latin1', 0, read);
    let position = 0;
    let pending: (ShardDamage & { offset: number; position: number; lines: number }) | undefined;
    for (;;) {
      const end = text.indexOf('\n', position);
      if (end === -1) break;
      const line = text.slice(position, end);
      const lineNumber = this.#lines + 1;
      const offset = this.#offset + position;
      position = end + 1;
      this.#lines++;
      if (line === '') continue;
      const parsed = parseLine(line);
      if (pending) {
        if ('torn' in parsed && parsed.torn === pending.offset) {
          pending = undefined;
          continue;
        }
        this.#refuse(pending);
        pending = undefined;
      }
      if ('damage' in parsed) {
        pending = {
          line: lineNumber,
          why: parsed.damage,
          text: line.length > 80 ? `${line.slice(0, 80)}…` : line,
          key: parsed.damagedKey,
          keyTrusted: parsed.keyTrusted,
          offset,
          position: offset - this.#offset,
          lines: lineNumber - 1,
        };
        continue;
      }
      if ('torn' in parsed) continue;
      this.#offsets.set(parsed.key, offset);
      this.#remember(parsed.key, parsed.state);
      this.#records++;
    }
    if (pending && !locked) {
      // Its acknowledgement may be on its way: read it again next time.
      this.#lines = pending.lines;
      this.#advance(text, pending.position);
      return {};
    }
    if (pending) this.#refuse(pending);
    if (position < read && locked) {
      const tornAt = this.#offset + position;
      this.#lines++;
      this.#advance(text, read);
      return { tornAt };
    }
    this.#advance(text, position);
    return {};
  }

  /** Moves the read offset `by` bytes of `text` (what was just read), keeping the last bytes. */
  #advance(text: string, by: number): void {
    this.#offset += by;
    this.#tail = `${this.#tail}${text.slice(0, by)}`.slice(-TAIL);
  }

  #refuse(damage: ShardDamage): void {
    // A key shown by a line whose checksum failed is taken as its own only when the shard holds
    // other records of it; else the key text may be what was garbled, and every key is refused.
    const named = damage.key;
    const key = named !== undefined && (damage.keyTrusted === true || this.#offsets.has(named)) ? named : '*';
    if (!this.#damage.has(key))
      this.#damage.set(key, { line: damage.line, why: damage.why, text: damage.text });
  }

  /**
   * Rewrites the shard with one record per key worth keeping, when dead records dominate or many
   * keys could be dropped. Never while a line cannot be trusted: it would be dropped unread. The
   * keys' states are read from the file (each key's last record, copied as it is); a record that
   * is no longer what was read there refuses its key and stops the rewrite.
   */
  async compactIfDue(): Promise<void> {
    if (this.#damage.size > 0 || this.#fd === undefined) return;
    const now = this.#now();
    const due = this.#records >= 2 * this.#offsets.size + 64;
    if (!due && now - this.#prunedAt < PRUNE_CHECK_MS) return;
    this.#prunedAt = now;
    const records = this.#lastRecords();
    if (records === undefined) return;
    if (!due) {
      let old = 0;
      for (const { state } of records) if (prunable(state, now)) old++;
      if (old === 0 || old * 4 < records.length) return;
    }
    const kept = records.filter(({ state }) => !prunable(state, now));
    const temporary = join(
      dirname(this.path),
      `${basename(this.path)}.${process.pid}.${nodeCrypto().randomUUID()}.tmp`,
    );
    const text = kept.map(({ line }) => `${line}\n`).join('');
    const fd = fs().openSync(temporary, 'wx', 0o600);
    try {
      const bytes = Buffer.from(text, 'latin1');
      fs().writeSync(fd, bytes, 0, bytes.length, null);
      // Synced before the rename: after a power loss the shard holds this text or the one before.
      await call<void>((done) => fs().fdatasync(fd, done));
    } catch (error) {
      fs().close(fd, () => {});
      fs().rm(temporary, { force: true }, () => {});
      throw error;
    }
    fs().closeSync(fd);
    fs().renameSync(temporary, this.path);
    const recent = this.#recent;
    await this.#open();
    let offset = 0;
    for (const { key, line } of kept) {
      this.#offsets.set(key, offset);
      offset += line.length + 1;
    }
    // The parsed states kept stay parsed (their records were copied as they are).
    for (const [key, state] of recent) if (this.#offsets.has(key)) this.#recent.set(key, state);
    this.#records = kept.length;
    this.#lines = kept.length;
    this.#advance(text, text.length);
  }

  /**
   * Whether every line of `text` (the file as read so far) still checks, the records a rewrite
   * drops included: a line garbled after it was read (by this process or another) would otherwise
   * go unread and its damage unnamed. A line that fails is refused, naming it.
   */
  #wholeLines(text: string): boolean {
    let line = 0;
    // A damaged line followed by the acknowledgement of a torn line at its offset was cut short
    // by a crash and acknowledged: tolerated, as when it was first read.
    let pending: ShardDamage | undefined;
    let pendingOffset = -1;
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf('\n', start);
      if (end === -1) break;
      line++;
      const record = text.slice(start, end);
      const offset = start;
      start = end + 1;
      if (record === '') continue;
      const parsed = parseLine(record);
      if (pending) {
        if ('torn' in parsed && parsed.torn === pendingOffset) {
          pending = undefined;
          continue;
        }
        break;
      }
      if (!('damage' in parsed)) continue;
      pending = {
        line,
        why: `${parsed.damage}; it was read whole before, so the file was changed in place`,
        text: record.length > 80 ? `${record.slice(0, 80)}…` : record,
        key: parsed.damagedKey,
        keyTrusted: parsed.keyTrusted,
      };
      pendingOffset = offset;
    }
    if (pending === undefined) return true;
    this.#refuse(pending);
    return false;
  }

  /**
   * Every key's last record, read from the file (all of it read so far, in one read), in the
   * order the keys were first recorded; `undefined` when one is no longer what was read there
   * (then refused, naming its line).
   */
  #lastRecords(): Array<{ key: string; state: KeyState; line: string }> | undefined {
    const fd = this.#fd as number;
    const text = readFrom(fd, 0, this.#offset).toString('latin1');
    if (!this.#wholeLines(text)) return undefined;
    const records: Array<{ key: string; state: KeyState; line: string }> = [];
    for (const [key, offset] of this.#offsets) {
      const end = text.indexOf('\n', offset);
      const line = end === -1 ? undefined : text.slice(offset, end);
      const parsed = line === undefined ? undefined : parseLine(line);
      if (line === undefined || parsed === undefined || !('key' in parsed) || parsed.key !== key) {
        try {
          this.#readBack(key, offset);
        } catch {
          // Refused: named to the next operation on the key.
        }
        return undefined;
      }
      records.push({ key, state: parsed.state, line });
    }
    return records;
  }
}

/** Bytes `from` (at least 0) up to `size` of the open file `fd`. */
function readFrom(fd: number, from: number, size: number): Buffer {
  const length = size - from;
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const got = fs().readSync(fd, buffer, read, length - read, from + read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

/** Syncs a folder, so that a file just made in it keeps its name after a power loss (where it can). */
export async function syncFolder(path: string): Promise<void> {
  try {
    const fd = await call<number>((done) => fs().open(path, 'r', done));
    try {
      await call<void>((done) => fs().fsync(fd, done));
    } finally {
      fs().close(fd, () => {});
    }
  } catch {
    // Not every platform can open or sync a folder (Windows); the record itself was synced.
  }
}
