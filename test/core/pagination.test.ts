/**
 * Pagination ends whatever the server claims: pages served by an in-memory transport through a
 * real HttpCore, so the walk's rules are checked without sockets (10 000 pages stay cheap).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../src/core/call/operation.js';
import {
  CAP_SLACK_PAGES,
  type ListOptions,
  listPages,
  MAX_PAGES,
} from '../../src/core/results/pagination.js';
import type { Transport } from '../../src/core/transport/transport.js';
import { PaginationLimitError, RequestValidationError } from '../../src/index.js';
import { bareCore } from '../support/core.js';

const listSchema = z.object({
  items: z.array(z.object({ id: z.string() })),
  total_count: z.number().int().optional(),
});
const params = z.object({ page: z.number().int() }).transform((value) => ({ page: String(value.page) }));
const itemsList = defineOperation({
  name: 'items.list',
  method: 'GET',
  path: '/items',
  query: params,
  response: listSchema,
  doc: 'A page of items.',
});

/** A list of anything: items without an id (plain values, null) as a server might send. */
const valuesList = defineOperation({
  name: 'values.list',
  method: 'GET',
  path: '/values',
  query: params,
  response: z.object({ items: z.array(z.unknown()) }),
  doc: 'A page of values.',
});

/** A core whose transport answers `page(n)` for `?page=n`, counting requests. */
function pagedCore(
  page: (n: number) => { items: Array<{ id: string }> | unknown[]; total_count?: number },
  listParams: Record<string, unknown> = {},
  listOptions?: ListOptions,
) {
  const requested: number[] = [];
  const transport: Transport = async (request) => {
    const n = Number(new URL(request.path, 'http://x').searchParams.get('page'));
    requested.push(n);
    return { status: 200, headers: {}, body: Buffer.from(JSON.stringify(page(n))) };
  };
  const core = bareCore(
    'token-for-the-pagination-tests',
    'https://api.example.com',
    { transport },
    { timeout: 1_000 },
  );
  const list = () =>
    listPages(core, {
      operation: itemsList,
      params: listParams,
      items: (body) => body.items,
      totalCount: (body) => body.total_count,
      options: listOptions,
    });
  const values = () =>
    listPages(core, {
      operation: valuesList,
      params: listParams,
      items: (body) => body.items,
      totalCount: () => undefined,
    });
  return { list, values, requested };
}

const ids = (...names: string[]) => names.map((id) => ({ id }));

describe('pagination ends', () => {
  it('without total_count: on a page shorter than the ones before', async () => {
    const pages: Record<number, string[]> = { 1: ['a', 'b', 'c'], 2: ['d', 'e', 'f'], 3: ['g'] };
    const { list, requested } = pagedCore((n) => ({ items: ids(...(pages[n] ?? [])) }));
    const walked = await list().toArray();
    expect(walked.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(requested).toEqual([1, 2, 3]);
    const first = await list();
    expect(first.totalCount).toBeUndefined();
    expect(first.hasNextPage()).toBe(true);
  });

  it('without total_count: on an empty page after full ones', async () => {
    const pages: Record<number, string[]> = { 1: ['a', 'b'], 2: ['c', 'd'] };
    const { list, requested } = pagedCore((n) => ({ items: ids(...(pages[n] ?? [])) }));
    expect((await list().toArray()).map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(requested).toEqual([1, 2, 3]);
  });

  it('when the items seen reach total_count', async () => {
    const { list, requested } = pagedCore((n) => ({ items: ids(`a${n}`, `b${n}`), total_count: 4 }));
    expect(await list().toArray()).toHaveLength(4);
    expect(requested).toEqual([1, 2]);
  });

  it('on a page that adds no new ids, whatever total_count says; repeats are not yielded', async () => {
    const { list, requested } = pagedCore(() => ({ items: ids('x', 'y'), total_count: 1e9 }));
    expect((await list().toArray()).map((item) => item.id)).toEqual(['x', 'y']);
    expect(requested).toEqual([1, 2]);
  });

  it(`with PaginationLimitError after ${MAX_PAGES} pages of fresh ids`, async () => {
    // No total_count and pages of one fresh id each: nothing but the cap ends this walk.
    const { list, requested } = pagedCore((n) => ({ items: ids(`item-${n}`) }));
    let seen = 0;
    let error: unknown;
    try {
      for await (const _item of list()) seen++;
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PaginationLimitError);
    expect((error as Error).message).toContain(`${MAX_PAGES} pages`);
    expect((error as Error).message).toContain('maxPages');
    expect((error as PaginationLimitError).limit).toBe(MAX_PAGES);
    expect(seen).toBe(MAX_PAGES);
    expect(requested).toHaveLength(MAX_PAGES);
  });
});

/** Walks every page; returns the ids yielded, the pages requested and the error that ended it, if any. */
async function walkAll(list: () => AsyncIterable<{ id: string }>) {
  const seen: string[] = [];
  let error: unknown;
  try {
    for await (const item of list()) seen.push(item.id);
  } catch (caught) {
    error = caught;
  }
  return { seen, error };
}

describe('the page cap', () => {
  // Each row: what the server sends for page n, the caller's maxPages, and how the walk ends.
  const rows: Array<{
    name: string;
    page: (n: number) => { items: Array<{ id: string }>; total_count?: number };
    maxPages?: number;
    pages: number;
    limit?: number;
  }> = [
    {
      name: 'an honest total_count of 30,000 pages walks them all, past 10,000',
      page: (n) => ({ items: ids(`a${n}`), total_count: 30_000 }),
      pages: 30_000,
    },
    {
      name: "a total_count that grows every page stops at twice the first page's promise plus the slack",
      page: (n) => ({ items: ids(`a${n}`, `b${n}`), total_count: 10 * n }),
      pages: 2 * 5 + CAP_SLACK_PAGES,
      limit: 2 * 5 + CAP_SLACK_PAGES,
    },
    {
      name: "the caller's maxPages replaces the cap total_count would set",
      page: (n) => ({ items: ids(`a${n}`), total_count: 1e9 }),
      maxPages: 7,
      pages: 7,
      limit: 7,
    },
    {
      name: 'a maxPages above what the walk needs changes nothing',
      page: (n) => ({ items: ids(`a${n}`), total_count: 12 }),
      maxPages: 50,
      pages: 12,
    },
    {
      name: 'a maxPages of exactly the pages needed lets the walk end on its own',
      page: (n) => ({ items: ids(`a${n}`), total_count: 5 }),
      maxPages: 5,
      pages: 5,
    },
  ];
  it.each(rows)('$name', async ({ page, maxPages, pages, limit }) => {
    const { list, requested } = pagedCore(page, {}, maxPages === undefined ? undefined : { maxPages });
    const { seen, error } = await walkAll(list);
    expect(requested).toHaveLength(pages);
    expect(new Set(seen).size).toBe(seen.length);
    if (limit === undefined) expect(error).toBeUndefined();
    else {
      expect(error).toBeInstanceOf(PaginationLimitError);
      expect((error as PaginationLimitError).limit).toBe(limit);
    }
  });

  it.each([0, -1, 2.5, Number.NaN, '10'])(
    'refuses maxPages %s before any request, naming the option',
    (bad) => {
      const { list, requested } = pagedCore(
        (n) => ({ items: ids(`a${n}`) }),
        {},
        {
          maxPages: bad as number,
        },
      );
      expect(() => list()).toThrow(RequestValidationError);
      expect(() => list()).toThrow(/maxPages/);
      expect(requested).toEqual([]);
    },
  );
});

describe('what a walk remembers', () => {
  it('an item the page before gave is not yielded again; one from further back is', async () => {
    // A create pushed "b1" one page on; later a server repeats "a1" from three pages before.
    const pages: Record<number, string[]> = {
      1: ['a1', 'b1'],
      2: ['b1', 'c1'],
      3: ['d1', 'e1'],
      4: ['a1', 'f1'],
      5: ['g1'],
    };
    const { list, requested } = pagedCore((n) => ({ items: ids(...(pages[n] ?? [])) }));
    expect((await walkAll(list)).seen).toEqual(['a1', 'b1', 'c1', 'd1', 'e1', 'a1', 'f1', 'g1']);
    expect(requested).toEqual([1, 2, 3, 4, 5]);
  });

  it('a page that repeats only the page before ends the walk, whatever total_count says', async () => {
    const pages: Record<number, string[]> = { 1: ['a', 'b'], 2: ['c', 'd'], 3: ['c', 'd'] };
    const { list, requested } = pagedCore((n) => ({ items: ids(...(pages[n] ?? [])), total_count: 100 }));
    expect((await walkAll(list)).seen).toEqual(['a', 'b', 'c', 'd']);
    expect(requested).toEqual([1, 2, 3]);
  });
});

describe('walking pages', () => {
  it('starts at the page the caller asks for', async () => {
    const pages: Record<number, string[]> = { 3: ['e', 'f'], 4: ['g'] };
    const { list, requested } = pagedCore((n) => ({ items: ids(...(pages[n] ?? [])) }), { page: 3 });
    expect((await list().toArray()).map((item) => item.id)).toEqual(['e', 'f', 'g']);
    expect(requested).toEqual([3, 4]);
  });

  it('toArray stops at its limit, fetching no page beyond the one that reaches it', async () => {
    const { list, requested } = pagedCore((n) => ({ items: ids(`a${n}`, `b${n}`), total_count: 10 }));
    expect((await list().toArray({ limit: 3 })).map((item) => item.id)).toEqual(['a1', 'b1', 'a2']);
    expect(requested).toEqual([1, 2]);
    expect(await list().toArray({ limit: 2 })).toHaveLength(2);
    expect(await list().toArray({ limit: 10 })).toHaveLength(10);
  });

  it('toArray with a limit of 0 or less is empty', async () => {
    const { list } = pagedCore((n) => ({ items: ids(`a${n}`), total_count: 5 }));
    expect(await list().toArray({ limit: 0 })).toEqual([]);
    expect(await list().toArray({ limit: -1 })).toEqual([]);
  });

  it('items without an id (plain values, null) are each yielded, until a shorter page', async () => {
    const pages: Record<number, unknown[]> = { 1: [null, 'a', 7], 2: ['a', null, 7], 3: [false] };
    const { values, requested } = pagedCore((n) => ({ items: pages[n] ?? [] }));
    expect(await values().toArray()).toEqual([null, 'a', 7, 'a', null, 7, false]);
    expect(requested).toEqual([1, 2, 3]);
  });

  it('the next page fetched twice from the same page is the same page both times', async () => {
    const { list } = pagedCore((n) => ({ items: ids(`a${n}`, `b${n}`), total_count: 6 }));
    const first = await list();
    const once = await first.getNextPage();
    const again = await first.getNextPage();
    expect(again.items).toEqual(once.items);
    expect(again.hasNextPage()).toBe(true);
    const rest: string[] = [];
    for await (const item of again.iterate()) rest.push(item.id);
    expect(rest).toEqual(['a2', 'b2', 'a3', 'b3']);
  });
});
