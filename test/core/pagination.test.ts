/**
 * Pagination ends whatever the server claims: pages served by an in-memory transport through a
 * real HttpCore, so the walk's rules are checked without sockets (10 000 pages stay cheap).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../src/core/operation.js';
import { listPages, MAX_PAGES } from '../../src/core/pagination.js';
import type { Transport } from '../../src/core/transport.js';
import { PaginationLimitError } from '../../src/index.js';
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

/** A core whose transport answers `page(n)` for `?page=n`, counting requests. */
function pagedCore(page: (n: number) => { items: Array<{ id: string }>; total_count?: number }) {
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
      params: {},
      items: (body) => body.items,
      totalCount: (body) => body.total_count,
    });
  return { list, requested };
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
    const { list, requested } = pagedCore((n) => ({ items: ids(`item-${n}`), total_count: 1e9 }));
    let seen = 0;
    let error: unknown;
    try {
      for await (const _item of list()) seen++;
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PaginationLimitError);
    expect((error as Error).message).toContain(`${MAX_PAGES} pages`);
    expect(seen).toBe(MAX_PAGES);
    expect(requested).toHaveLength(MAX_PAGES);
  });
});
