/**
 * One account's applicant groups in creation order, indexed by what the list endpoint filters
 * on: correlation id, status and creation time. A list page then costs a few binary searches and
 * the page's own groups, however many groups the account holds (docs/benchmarks.md, "Scale").
 *
 * Each group has a sequence number, its place in the account's creation order. The status lists
 * hold sequence numbers in ascending order; a group moves between them when its status changes
 * (the life-cycle controls tell the store). Creation times are searched by bisection while they
 * never decrease in creation order, which holds unless a test sets the mock clock backwards; then
 * `createdInOrder` is false and the queries scan instead.
 */

/** What the index reads of a group. */
export interface IndexedGroup {
  /** Group identifier. */
  readonly id: string;
  /** The caller's correlation id, `null` when none was given. */
  readonly correlationId: string | null;
  /** Epoch ms on the mock clock. */
  readonly createdAt: number;
}

/** First index in `sorted` (ascending) whose value is at least `value`. */
export function lowerBound(sorted: readonly number[], value: number, from = 0, to = sorted.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The groups of one account (`G`), with their indexes; `S` is the statuses a group can have. */
export class AccountGroups<G extends IndexedGroup, S extends string> {
  /** The account's groups, oldest first: a group's index here is its sequence number. */
  readonly groups: G[] = [];
  /** Whether creation times never decrease in creation order (bisection by time is sound). */
  createdInOrder = true;
  readonly #sequence = new Map<string, number>();
  readonly #byCorrelation = new Map<string, number[]>();
  readonly #byStatus = new Map<S, number[]>();
  readonly #status: S[] = [];

  /** Adds a new group, the account's newest, whose status is `status`. */
  add(group: G, status: S): void {
    const sequence = this.groups.length;
    const previous = this.groups[sequence - 1];
    if (previous !== undefined && group.createdAt < previous.createdAt) this.createdInOrder = false;
    this.groups.push(group);
    this.#sequence.set(group.id, sequence);
    if (group.correlationId !== null) {
      const under = this.#byCorrelation.get(group.correlationId);
      if (under === undefined) this.#byCorrelation.set(group.correlationId, [sequence]);
      else under.push(sequence);
    }
    this.#status.push(status);
    this.#statusList(status).push(sequence);
  }

  /** Moves the group to the status list of `after`, its status now (after a life-cycle step). */
  statusChanged(group: G, after: S): void {
    const sequence = this.#sequence.get(group.id);
    if (sequence === undefined) return;
    const before = this.#status[sequence]!;
    if (before === after) return;
    const from = this.#statusList(before);
    from.splice(lowerBound(from, sequence), 1);
    const to = this.#statusList(after);
    to.splice(lowerBound(to, sequence), 0, sequence);
    this.#status[sequence] = after;
  }

  /** Sequence numbers of the groups under `correlationId`, ascending. */
  underCorrelation(correlationId: string): readonly number[] {
    return this.#byCorrelation.get(correlationId) ?? [];
  }

  /** Sequence numbers of the groups whose status is `status`, ascending. */
  withStatus(status: S): readonly number[] {
    return this.#statusList(status);
  }

  /** The first sequence number whose group was created later than `seconds` (exclusive), or after the last. */
  firstCreatedAfter(seconds: number): number {
    return this.#firstWhere((group) => group.createdAt / 1000 > seconds);
  }

  /** The first sequence number whose group was created at or after `seconds`, or after the last. */
  firstCreatedFrom(seconds: number): number {
    return this.#firstWhere((group) => !(group.createdAt / 1000 < seconds));
  }

  #firstWhere(holds: (group: G) => boolean): number {
    let low = 0;
    let high = this.groups.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (holds(this.groups[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  #statusList(status: S): number[] {
    let list = this.#byStatus.get(status);
    if (list === undefined) {
      list = [];
      this.#byStatus.set(status, list);
    }
    return list;
  }
}

/**
 * The `offset`-th to `offset + size`-th of the sequence numbers in `lists` (each ascending, no
 * number in two lists) within `[low, high)`, in ascending order, and how many there are in all.
 * Costs O(lists × log² n + size): the start is found by bisecting on the sequence number.
 */
export function pageOfUnion(
  lists: readonly (readonly number[])[],
  low: number,
  high: number,
  offset: number,
  size: number,
): { sequences: number[]; total: number } {
  const starts = lists.map((list) => lowerBound(list, low));
  const ends = lists.map((list) => lowerBound(list, high));
  let total = 0;
  for (let i = 0; i < lists.length; i++) total += ends[i]! - starts[i]!;
  if (offset >= total || size <= 0) return { sequences: [], total };
  // How many of the numbers in range are below `value`.
  const below = (value: number): number => {
    let count = 0;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      count += lowerBound(list, value, starts[i], ends[i]) - starts[i]!;
    }
    return count;
  };
  // The smallest value with more than `offset` numbers at or below it is the page's first.
  let from = low;
  let to = high;
  while (from < to) {
    const middle = Math.floor((from + to) / 2);
    if (below(middle + 1) > offset) to = middle;
    else from = middle + 1;
  }
  const cursors = lists.map((list, i) => lowerBound(list, from, starts[i], ends[i]));
  const sequences: number[] = [];
  while (sequences.length < size) {
    let best = -1;
    let bestValue = Number.POSITIVE_INFINITY;
    for (let i = 0; i < lists.length; i++) {
      const cursor = cursors[i]!;
      if (cursor >= ends[i]!) continue;
      const value = lists[i]![cursor]!;
      if (value < bestValue) {
        bestValue = value;
        best = i;
      }
    }
    if (best < 0) break;
    sequences.push(bestValue);
    cursors[best] = cursors[best]! + 1;
  }
  return { sequences, total };
}
