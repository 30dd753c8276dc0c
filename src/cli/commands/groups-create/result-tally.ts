/**
 * What the end of a `groups create` run prints, gathered as households settle, without holding a
 * row per household: counts per status, and only the rows the terminal shows (the failures with
 * the lowest lines, every unresolved row, every possible duplicate). The results log keeps every
 * row on disk (result-log.ts); a run of 100,000 households no longer holds 100,000 results
 * (docs/benchmarks.md, "Scale").
 */
import { emptySummary, type HouseholdResult, type ResultSummary } from './result-log.js';

/** Counts and the rows the summary shows, of the results a run settled. */
export class ResultTally {
  /** Households per status. */
  readonly summary: ResultSummary = emptySummary();
  /** Rows that re-invite an expired group. */
  reinvited = 0;
  /**
   * Failed rows the gate refused because its state is damaged (`CoordinationStateError`: a shard
   * line, the folder's marker or clock): a rerun cannot finish them until it is repaired.
   */
  damagedState = 0;
  /** Rows, in the order settled, with a possible duplicate (each gets a warning line). */
  readonly duplicates: HouseholdResult[] = [];
  /**
   * Every unresolved row, in the order settled: their hold times (`retry_after`) are set after the
   * run and the log rewritten with them. Few in a run: each is a create whose outcome is unknown.
   */
  readonly unresolved: HouseholdResult[] = [];
  readonly #shown: number;
  /** Failed rows, trimmed to the `#shown` with the lowest lines whenever it doubles. */
  #failed: HouseholdResult[] = [];

  /** `shown`: how many failures the end of the run prints (the lowest lines are kept). */
  constructor(shown: number) {
    this.#shown = shown;
  }

  /** Counts one settled row, keeping it only if the summary may print it. */
  add(result: HouseholdResult): void {
    this.summary[result.status]++;
    if (result.reinvitation_of !== '') this.reinvited++;
    if (result.possible_duplicate !== '') this.duplicates.push(result);
    if (result.status === 'unresolved') this.unresolved.push(result);
    if (result.status !== 'failed') return;
    if (result.error.startsWith('CoordinationStateError:')) this.damagedState++;
    this.#failed.push(result);
    if (this.#failed.length >= 2 * this.#shown) this.#failed = lowest(this.#failed, this.#shown);
  }

  /**
   * The failed and unresolved rows, but those on `except` lines, in line order: the first `shown`
   * of them, and how many there are in all.
   */
  failures(except: ReadonlySet<number>): { shown: HouseholdResult[]; total: number } {
    const unresolved = this.unresolved.filter((result) => !except.has(result.line));
    return {
      shown: lowest([...this.#failed, ...unresolved], this.#shown),
      total: this.summary.failed + unresolved.length,
    };
  }
}

function lowest(rows: HouseholdResult[], count: number): HouseholdResult[] {
  return rows.sort((a, b) => a.line - b.line).slice(0, count);
}
