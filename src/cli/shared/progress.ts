/**
 * Progress of long runs, on stderr only (stdout carries data and may be piped): a redrawn bar
 * when stderr is a terminal, a plain line every few seconds when it is a file or a pipe (CI logs,
 * cron mail), nothing with `--quiet`. Messages printed during a run go above the bar.
 */
import type { OutputStream } from './io.js';
import { safeLines } from './terminal.js';

/** How progress is shown. */
export type ProgressMode = 'bar' | 'lines' | 'off';

/** Where a run stands. */
export interface ProgressSnapshot {
  done: number;
  total: number;
  failed: number;
}

/** The display mode for a stream: a bar on terminals, lines elsewhere, nothing when quiet. */
export function progressMode(stream: OutputStream, quiet: boolean): ProgressMode {
  if (quiet) return 'off';
  return stream.isTTY ? 'bar' : 'lines';
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** `create 120/300 40% 35.2/s ETA 0:05 2 failed`: the text of one progress line. */
export function formatProgress(label: string, snapshot: ProgressSnapshot, elapsedMs: number): string {
  const { done, total, failed } = snapshot;
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const eta = done >= total ? 0 : rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  const parts = [`${label} ${done}/${total}`, `${percent}%`, `${rate.toFixed(1)}/s`];
  parts.push(done >= total ? `in ${duration(elapsedMs / 1000)}` : `ETA ${duration(eta)}`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join('  ');
}

function bar(snapshot: ProgressSnapshot, width: number): string {
  const filled = snapshot.total > 0 ? Math.round((snapshot.done / snapshot.total) * width) : width;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

/** Options of {@link Reporter}. */
export interface ReporterOptions {
  mode: ProgressMode;
  /** Milliseconds between plain lines (`lines` mode). Default 5 000. */
  lineIntervalMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const BAR_REDRAW_MS = 100;
const CLEAR_LINE = '\r\u001b[2K';

/** One phase's progress display; see {@link Reporter.start}. */
export interface Progress {
  /** Records the latest counts (the display is throttled). */
  update(snapshot: ProgressSnapshot): void;
  /** Shows the final counts and releases the line. */
  finish(): void;
}

/** Owns stderr during a run: progress display and messages, kept from overwriting each other. */
export class Reporter {
  readonly mode: ProgressMode;
  readonly #stream: OutputStream;
  readonly #lineIntervalMs: number;
  readonly #now: () => number;
  /** The bar currently on screen, redrawn after a message is printed. */
  #barText = '';

  constructor(stream: OutputStream, options: ReporterOptions) {
    this.#stream = stream;
    this.mode = options.mode;
    this.#lineIntervalMs = options.lineIntervalMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  /** Prints a line that must be seen (an error, a failed row): shown even with `--quiet`. */
  error(line: string): void {
    this.#print(line);
  }

  /** Prints an informational line (a summary, a note): hidden with `--quiet`. */
  note(line: string): void {
    if (this.mode !== 'off') this.#print(line);
  }

  // Lines may quote the server (error messages, names): control sequences are made visible.
  #print(line: string): void {
    if (this.#barText) this.#stream.write(CLEAR_LINE);
    this.#stream.write(`${safeLines(line)}\n`);
    if (this.#barText) this.#stream.write(this.#barText);
  }

  /** Starts showing the progress of a phase of `total` items. */
  start(label: string, total: number): Progress {
    const started = this.#now();
    let snapshot: ProgressSnapshot = { done: 0, total, failed: 0 };
    let drawnAt = Number.NEGATIVE_INFINITY;
    let finished = false;
    const text = () => formatProgress(label, snapshot, this.#now() - started);
    const draw = (force: boolean) => {
      const now = this.#now();
      if (this.mode === 'bar') {
        if (!force && now - drawnAt < BAR_REDRAW_MS) return;
        const width = Math.max(10, Math.min(30, (this.#stream.columns ?? 80) - 70));
        this.#barText = `${bar(snapshot, width)} ${text()}`;
        this.#stream.write(`${CLEAR_LINE}${this.#barText}`);
      } else if (this.mode === 'lines') {
        if (!force && now - drawnAt < this.#lineIntervalMs) return;
        this.#stream.write(`${text()}\n`);
      }
      drawnAt = now;
    };
    // Redraws even while nothing settles (long retries), so the rate and ETA stay honest and a
    // log shows the job is alive. Unref'd: a display never keeps the process running.
    const timer =
      this.mode === 'off'
        ? undefined
        : setInterval(() => draw(false), this.mode === 'bar' ? 500 : this.#lineIntervalMs);
    timer?.unref();
    if (this.mode === 'bar') draw(true);
    else drawnAt = started;
    return {
      update: (next) => {
        if (finished) return;
        snapshot = { ...next };
        draw(false);
      },
      finish: () => {
        if (finished) return;
        finished = true;
        if (timer) clearInterval(timer);
        if (this.mode === 'off') return;
        draw(true);
        if (this.mode === 'bar') {
          this.#stream.write('\n');
          this.#barText = '';
        }
      },
    };
  }
}
