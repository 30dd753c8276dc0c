/**
 * Pages of list results. The end of the data is decided from what the pages hold, never from an
 * assumed page size (the vendor's documentation does not give the applicant groups' page size), and a walk always
 * ends, whatever the server claims: on an empty page, on a page that adds no new ids, when the
 * items seen reach `total_count`, or (when the server sends no `total_count`) on a page shorter
 * than the longest before it. A walk past {@link MAX_PAGES} pages throws {@link PaginationLimitError}.
 */
import type * as z from 'zod';
import { APIPromise, type WithResponse } from '../call/api-promise.js';
import { copyRecords } from '../call/call.js';
import type { HttpCore, RequestOptions } from '../call/http.js';
import { type OperationDescriptor, operationCall } from '../call/operation.js';
import { PaginationLimitError } from '../errors.js';

/** The most pages one walk fetches before it gives up with {@link PaginationLimitError}. */
export const MAX_PAGES = 10_000;

/** @internal What one walk over a list has seen so far; shared by the pages of the walk. */
export interface Walk {
  /** Page number each id was first seen on. */
  readonly firstSeen: Map<string, number>;
  /** Pages fetched in this walk. */
  pagesLoaded: number;
}

/** Loads page `page` given how many items came before it and the longest page so far. */
export type PageLoader<T> = (
  page: number,
  itemsBefore: number,
  longestPage: number,
  walk: Walk,
) => Promise<WithResponse<Page<T>>>;

/** One page of a list. */
export class Page<T> {
  /** The items of this page. */
  readonly items: T[];
  /** How many items match the query across all pages (`total_count`); `undefined` when the server did not say. */
  readonly totalCount: number | undefined;
  /** This page's number, from 1. */
  readonly page: number;
  readonly #itemsBefore: number;
  readonly #longestBefore: number;
  readonly #addsNewItems: boolean;
  readonly #walk: Walk;
  readonly #itemId: (item: T) => string | undefined;
  readonly #load: PageLoader<T>;

  /** @internal Built by the list methods. */
  constructor(
    items: T[],
    totalCount: number | undefined,
    page: number,
    position: {
      itemsBefore: number;
      longestBefore: number;
      addsNewItems: boolean;
      walk: Walk;
      itemId: (item: T) => string | undefined;
    },
    load: PageLoader<T>,
  ) {
    this.items = items;
    this.totalCount = totalCount;
    this.page = page;
    this.#itemsBefore = position.itemsBefore;
    this.#longestBefore = position.longestBefore;
    this.#addsNewItems = position.addsNewItems;
    this.#walk = position.walk;
    this.#itemId = position.itemId;
    this.#load = load;
  }

  /** Whether another page may hold more items. */
  hasNextPage(): boolean {
    // Stryker disable next-line ConditionalExpression: equivalent, an empty page adds no new items either (recordIds)
    if (this.items.length === 0 || !this.#addsNewItems) return false;
    const seen = this.#itemsBefore + this.items.length;
    if (this.totalCount !== undefined) return seen < this.totalCount;
    // No total_count: a page shorter than an earlier one is the last.
    return this.items.length >= this.#longestBefore;
  }

  /** Fetches the next page (check {@link hasNextPage} first). */
  getNextPage(): APIPromise<Page<T>> {
    return new APIPromise(
      this.#load(
        this.page + 1,
        this.#itemsBefore + this.items.length,
        Math.max(this.#longestBefore, this.items.length),
        this.#walk,
      ),
    );
  }

  /** Whether `item` shows up here for the first time in the walk (items without an id always do). */
  #isFirstSighting(item: T): boolean {
    const id = this.#itemId(item);
    // Stryker disable next-line ConditionalExpression: equivalent, no id is ever recorded under undefined, so the right side is true for it too
    return id === undefined || (this.#walk.firstSeen.get(id) ?? this.page) >= this.page;
  }

  /**
   * Walks this page and every later one, one request per page, holding one page at a time. An
   * item an earlier page already gave (a server repeating itself) is not given again.
   */
  async *iterate(): AsyncGenerator<T, void, undefined> {
    let current: Page<T> = this;
    for (;;) {
      for (const item of current.items) if (current.#isFirstSighting(item)) yield item;
      if (!current.hasNextPage()) return;
      current = await current.getNextPage();
    }
  }
}

/** Options of {@link PagePromise.toArray}. */
export interface ToArrayOptions {
  /** Stop after this many items. */
  limit?: number;
}

/**
 * What `list()` returns: `await` it for the first {@link Page}, or `for await` over it for every
 * item of every page, fetched lazily.
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** @internal */
  constructor(load: PageLoader<T>, firstPage: number) {
    super(load(firstPage, 0, 0, { firstSeen: new Map(), pagesLoaded: 0 }));
  }

  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const first = await this;
    yield* first.iterate();
  }

  /** Collects items from every page (up to `limit`). */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const out: T[] = [];
    if (limit <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }
}

/** How a list endpoint is read. */
export interface ListCall<S extends z.ZodType, T> {
  /** The list's descriptor: its `query` schema turns the parameters into query strings before any I/O. */
  operation: OperationDescriptor<
    string,
    S,
    z.ZodType<Record<string, string>> | undefined,
    z.ZodType | undefined
  >;
  /** The caller's list parameters (the page number among them, if any). */
  params: Record<string, unknown>;
  /** The items of one response. */
  items: (body: z.output<S>) => T[];
  /** The `total_count` of one response, `undefined` when absent. */
  totalCount: (body: z.output<S>) => number | null | undefined;
  /** An item's id, to notice a page that repeats earlier ones. Default: its `id` field, if a string. */
  itemId?: (item: T) => string | undefined;
  options?: RequestOptions | undefined;
}

function defaultItemId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/** Records the page's ids; whether any item is new to the walk (first seen on this page, or without id). */
function recordIds<T>(
  items: T[],
  page: number,
  walk: Walk,
  itemId: (item: T) => string | undefined,
): boolean {
  let addsNew = false;
  for (const item of items) {
    const id = itemId(item);
    if (id === undefined) {
      addsNew = true;
      continue;
    }
    const first = walk.firstSeen.get(id);
    if (first === undefined) walk.firstSeen.set(id, page);
    if (first === undefined || first >= page) addsNew = true;
  }
  return addsNew;
}

/** Starts a paginated list: the first page is requested at once. */
export function listPages<S extends z.ZodType, T>(core: HttpCore, call: ListCall<S, T>): PagePromise<T> {
  const itemId = call.itemId ?? defaultItemId;
  const load: PageLoader<T> = async (page, itemsBefore, longestBefore, walk) => {
    if (walk.pagesLoaded >= MAX_PAGES) throw new PaginationLimitError(MAX_PAGES, call.operation.path);
    walk.pagesLoaded++;
    const { data, response } = await core.execute(
      operationCall(call.operation, { query: copyRecords(call.params, { page }), options: call.options }),
    );
    const items = call.items(data);
    const totalCount = call.totalCount(data) ?? undefined;
    const addsNewItems = recordIds(items, page, walk, itemId);
    const position = { itemsBefore, longestBefore, addsNewItems, walk, itemId };
    return { data: new Page(items, totalCount, page, position, load), response };
  };
  const first = typeof call.params.page === 'number' ? call.params.page : 1;
  return new PagePromise(load, first);
}
