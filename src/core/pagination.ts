/**
 * Pages of list results. The end of the data is decided from `total_count` and empty pages,
 * never from an assumed page size: the spec does not give the applicant groups' page size.
 */
import type { z } from 'zod';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { HttpCore, RequestOptions } from './http.js';

/** Loads page `page` given how many items came before it. */
export type PageLoader<T> = (page: number, itemsBefore: number) => Promise<WithResponse<Page<T>>>;

/** One page of a list. */
export class Page<T> {
  /** The items of this page. */
  readonly items: T[];
  /** How many items match the query across all pages (`total_count`). */
  readonly totalCount: number;
  /** This page's number, from 1. */
  readonly page: number;
  readonly #itemsBefore: number;
  readonly #load: PageLoader<T>;

  /** @internal Built by the list methods. */
  constructor(items: T[], totalCount: number, page: number, itemsBefore: number, load: PageLoader<T>) {
    this.items = items;
    this.totalCount = totalCount;
    this.page = page;
    this.#itemsBefore = itemsBefore;
    this.#load = load;
  }

  /** Whether another page holds more items. */
  hasNextPage(): boolean {
    return this.items.length > 0 && this.#itemsBefore + this.items.length < this.totalCount;
  }

  /** Fetches the next page (check {@link hasNextPage} first). */
  getNextPage(): APIPromise<Page<T>> {
    return new APIPromise(this.#load(this.page + 1, this.#itemsBefore + this.items.length));
  }

  /** Walks this page and every later one, one request per page, holding one page at a time. */
  async *iterate(): AsyncGenerator<T, void, undefined> {
    let current: Page<T> = this;
    for (;;) {
      yield* current.items;
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
    super(load(firstPage, 0));
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
  path: string;
  /** The caller's list parameters (the page number among them, if any). */
  params: Record<string, unknown>;
  /** Turns the parameters into query strings (checked before any I/O). */
  paramsSchema: z.ZodType<Record<string, string>>;
  schema: S;
  /** The items of one response. */
  items: (body: z.output<S>) => T[];
  /** The `total_count` of one response. */
  totalCount: (body: z.output<S>) => number;
  options?: RequestOptions | undefined;
}

/** Starts a paginated list: the first page is requested at once. */
export function listPages<S extends z.ZodType, T>(core: HttpCore, call: ListCall<S, T>): PagePromise<T> {
  const load: PageLoader<T> = async (page, itemsBefore) => {
    const { data, response } = await core.execute({
      method: 'GET',
      path: call.path,
      query: { ...call.params, page },
      querySchema: call.paramsSchema,
      schema: call.schema,
      options: call.options,
    });
    return { data: new Page(call.items(data), call.totalCount(data), page, itemsBefore, load), response };
  };
  const first = typeof call.params.page === 'number' ? call.params.page : 1;
  return new PagePromise(load, first);
}
