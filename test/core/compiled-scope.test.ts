/**
 * The compiled response checks (src/core/call/compiled.ts) apply to the SDK's own schemas only: a
 * schema a caller passes to `client.request({ schema })` may come from another copy of zod, so it
 * is parsed by its own `safeParse`. Each schema here has its `safeParse` replaced, so the result
 * shows which path parsed it: the compiled check returns the accepted body itself.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { safeParseFast } from '../../src/core/call/compiled.js';
import { serverWithClient } from '../support/http-server.js';

const setup = serverWithClient();

/** `{ id: string }`, whose own `safeParse` marks what it returns as parsed by it. */
function markedSchema() {
  const schema = z.looseObject({ id: z.string() });
  const zodParse = schema.safeParse.bind(schema);
  schema.safeParse = ((value: unknown) => {
    const result = zodParse(value);
    return result.success
      ? { success: true, data: { ...result.data, parsedBy: 'its own safeParse' } }
      : result;
  }) as typeof schema.safeParse;
  return schema;
}

describe('compiled checks', () => {
  it("leave a caller's schema to its own safeParse (raw request, GET and POST)", async () => {
    const { client } = await setup({
      'GET /api/v2/things/1': () => ({ body: { id: '1' } }),
      'POST /api/v2/things': () => ({ body: { id: '2' } }),
    });
    await expect(client.get('/api/v2/things/1', { schema: markedSchema() })).resolves.toEqual({
      id: '1',
      parsedBy: 'its own safeParse',
    });
    await expect(
      client.request({ method: 'POST', path: '/api/v2/things', body: {}, schema: markedSchema() }),
    ).resolves.toEqual({ id: '2', parsedBy: 'its own safeParse' });
  });

  it("reject through the caller's schema too: its issues, not a compiled verdict", async () => {
    const { client } = await setup({ 'GET /api/v2/things/1': () => ({ body: { id: 1 } }) });
    await expect(client.get('/api/v2/things/1', { schema: markedSchema() })).rejects.toMatchObject({
      name: 'ResponseValidationError',
      issues: [expect.objectContaining({ path: 'id' })],
    });
  });

  it("still serve the SDK's own schemas: the compiled check accepts the body as is", () => {
    // The path resources take (parseResponse with own schemas): the replaced safeParse is not called.
    expect(safeParseFast(markedSchema(), { id: '3' })).toEqual({ success: true, data: { id: '3' } });
  });
});
