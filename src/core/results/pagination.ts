/**
 * Pages of list results. The end of the data is decided from what the pages hold, never from an
 * assumed page size (the vendor's documentation does not give the applicant groups' page size), and a walk always
 * ends, whatever the server claims: on an empty page, on a page that adds no id the page before
 * lacked, when the items seen reach `total_count`, or (when the server sends no `total_count`)
 * on a page shorter than the longest before it. A walk past its page cap throws
 * {@link PaginationLimitError}: twice the pages the first page's `total_count` promised (plus
 * {@link CAP_SLACK_PAGES}), or {@link MAX_PAGES} when the server sends no `total_count`;
 * `maxPages` sets it. A walk holds one page and the ids of the page before, whatever its length
 * (docs/benchmarks.md, "Scale").
 */
import type * as z from 'zod';
import { APIPromise, type WithResponse } from '../call/api-promise.js';
import { copyRecords } from '../call/call.js';
import type { HttpCore, RequestOptions } from '../call/http.js';
import { type OperationDescriptor, operationCall } from '../call/operation.js';
import { PaginationLimitError, RequestValidationError } from '../errors.js';

/** The page cap of a walk whose server sends no `total_count` (and no `maxPages` was given). */
export const MAX_PAGES = 10_000;
/** Pages a walk may fetch beyond twice what the first page's `total_count` promised. */
export const CAP_SLACK_PAGES = 10;

/** Options of a `list()` call: a request's options and the walk's page cap. */
export interface ListOptions extends RequestOptions {
  /**
   * The most pages one walk fetches before it throws {@link PaginationLimitError} (a whole
   * number of at least 1). Default: twice the pages the first page's `total_count` promised,
   * plus 10 (a walk that holds to its `total_count` never meets it), or 10,000 when the server
   * sends no `total_count`.
   */
  maxPages?: number;
}

/** @internal What one walk over a list shares between its pages. */
export interface Walk {
  /** Pages fetched in this walk. */
  pagesLoaded: number;
  /** The walk's page cap: the caller's, or set from the first page's `total_count`. */
  maxPages: number | undefined;
}

/**
 * Loads page `page` given how many items came before it, the longest page so far and the ids of
 * the page before it (`undefined` for the walk's first page).
 */
export type PageLoader<T> = (
  page: number,
  itemsBefore: number,
  longestPage: number,
  walk: Walk,
  previousIds: ReadonlySet<string> | undefined,
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
  readonly #ids: ReadonlySet<string>;
  readonly #previousIds: ReadonlySet<string> | undefined;
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
      ids: ReadonlySet<string>;
      previousIds: ReadonlySet<string> | undefined;
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
    this.#ids = position.ids;
    this.#previousIds = position.previousIds;
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
        this.#ids,
      ),
    );
  }

  /** Whether `item` is new here: the page before did not give it (items without an id always are). */
  #isFirstSighting(item: T): boolean {
    return isNew(this.#itemId(item), this.#previousIds);
  }

  /**
   * Walks this page and every later one, one request per page, holding one page at a time. An
   * item the page before already gave (a server repeating itself, or an item pushed one page on
   * by a create) is not given again.
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
  constructor(load: PageLoader<T>, firstPage: number, maxPages?: number) {
    super(load(firstPage, 0, 0, { pagesLoaded: 0, maxPages }, undefined));
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
  options?: ListOptions | undefined;
}

function defaultItemId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/** Whether an item with this id is new to a page whose predecessor gave `previousIds`. */
function isNew(id: string | undefined, previousIds: ReadonlySet<string> | undefined): boolean {
  return id === undefined || previousIds === undefined || !previousIds.has(id);
}

/** The caller's page cap, checked before any request. */
function checkedMaxPages(maxPages: unknown): number | undefined {
  if (maxPages === undefined) return undefined;
  if (typeof maxPages === 'number' && Number.isInteger(maxPages) && maxPages >= 1) return maxPages;
  throw new RequestValidationError(
    [{ path: 'maxPages', message: 'maxPages must be a whole number of at least 1', code: 'invalid_type' }],
    'Invalid list options',
  );
}

/** The cap a first page's `total_count` sets: twice the pages it promises, plus the slack. */
function capFromTotal(totalCount: number | undefined, pageLength: number): number {
  if (totalCount === undefined || pageLength === 0) return MAX_PAGES;
  return 2 * Math.ceil(totalCount / pageLength) + CAP_SLACK_PAGES;
}

/** Starts a paginated list: the first page is requested at once. */
export function listPages<S extends z.ZodType, T>(core: HttpCore, call: ListCall<S, T>): PagePromise<T> {
  const itemId = call.itemId ?? defaultItemId;
  // The request options go to each page's call as given: the core reads no `maxPages`.
  const request = call.options;
  const cap = checkedMaxPages(request?.maxPages);
  const load: PageLoader<T> = async (page, itemsBefore, longestBefore, walk, previousIds) => {
    const limit = walk.maxPages ?? MAX_PAGES;
    if (walk.pagesLoaded >= limit) throw new PaginationLimitError(limit, call.operation.path);
    walk.pagesLoaded++;
    const { data, response } = await core.execute(
      operationCall(call.operation, { query: copyRecords(call.params, { page }), options: request }),
    );
    const items = call.items(data);
    const totalCount = call.totalCount(data) ?? undefined;
    // The first page fixes the cap: a total_count that grows page by page cannot raise it.
    walk.maxPages ??= capFromTotal(totalCount, items.length);
    const ids = new Set<string>();
    let addsNewItems = false;
    for (const item of items) {
      const id = itemId(item);
      if (id !== undefined) ids.add(id);
      if (isNew(id, previousIds)) addsNewItems = true;
    }
    const position = { itemsBefore, longestBefore, addsNewItems, walk, ids, previousIds, itemId };
    return { data: new Page(items, totalCount, page, position, load), response };
  };
  const first = typeof call.params.page === 'number' ? call.params.page : 1;
  return new PagePromise(load, first, cap);
}
