/**
 * How the Node entry loads undici: Pool, Agent and errors from their own modules on Node (undici's
 * index loads all of undici), the index where those modules moved or on Bun and Deno, and a
 * literal `import('undici')` on the first request where `require` finds no undici (a bundled
 * application). The real undici's modules must be the very classes its index exports: this test
 * fails on the undici upgrade that moves them, while the SDK falls back to the index.
 */
import { createRequire } from 'node:module';
import * as undiciIndex from 'undici';
import { describe, expect, it } from 'vitest';
import type { Connection } from '../../src/core/transport/connector.js';
import { deferredConnection, nodeConnectorWith } from '../../src/core/transport/node-connector.js';
import type { TransportRequest } from '../../src/core/transport/transport.js';
import {
  importUndici,
  loadUndiciParts,
  requireUndici,
  UNDICI_PART_MODULES,
  undiciCanDispatch,
} from '../../src/core/transport/undici-modules.js';
import { createMockServer } from '../../src/testing/index.js';

const realRequire = createRequire(import.meta.url);

/** A `require` that records what it was asked and answers from `modules` (else throws as Node does). */
function fakeRequire(modules: Record<string, unknown>) {
  const asked: string[] = [];
  const load = (id: string): unknown => {
    asked.push(id);
    if (Object.hasOwn(modules, id)) return modules[id];
    throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  };
  return { load, asked };
}

class Dispatches {
  dispatch(): boolean {
    return true;
  }
}
class AlsoDispatches extends Dispatches {}
class CannotDispatch {}
const fakeErrors = { RequestAbortedError: class extends Error {} };
const fakeIndex = { Pool: AlsoDispatches, Agent: AlsoDispatches, errors: fakeErrors };

describe('loading undici', () => {
  it("on Node, takes Pool, Agent and errors from their own modules: the same classes undici's index exports", () => {
    const parts = loadUndiciParts(realRequire, 'node/v20.20.2');
    expect(parts?.direct).toBe(true);
    expect(parts?.Pool).toBe(undiciIndex.Pool);
    expect(parts?.Agent).toBe(undiciIndex.Agent);
    expect(parts?.errors).toBe(undiciIndex.errors);
  });

  it('asks for the three modules and not for the index', () => {
    const { load, asked } = fakeRequire({
      [UNDICI_PART_MODULES.Pool]: Dispatches,
      [UNDICI_PART_MODULES.Agent]: Dispatches,
      [UNDICI_PART_MODULES.errors]: fakeErrors,
    });
    const parts = loadUndiciParts(load, 'node/v24.0.0');
    expect(asked).toEqual([UNDICI_PART_MODULES.Pool, UNDICI_PART_MODULES.Agent, UNDICI_PART_MODULES.errors]);
    expect(parts).toEqual({ Pool: Dispatches, Agent: Dispatches, errors: fakeErrors, direct: true });
  });

  it('falls back to the index when a module is missing (a later undici moved it)', () => {
    const { load, asked } = fakeRequire({ [UNDICI_PART_MODULES.Pool]: Dispatches, undici: fakeIndex });
    const parts = loadUndiciParts(load, 'node/v20.20.2');
    expect(parts).toEqual({ ...fakeIndex, direct: false });
    expect(asked).toEqual([UNDICI_PART_MODULES.Pool, UNDICI_PART_MODULES.Agent, 'undici']);
  });

  it('falls back to the index when a module holds something else than a dispatcher class', () => {
    const { load } = fakeRequire({
      [UNDICI_PART_MODULES.Pool]: { Pool: Dispatches },
      [UNDICI_PART_MODULES.Agent]: Dispatches,
      [UNDICI_PART_MODULES.errors]: fakeErrors,
      undici: fakeIndex,
    });
    expect(loadUndiciParts(load, 'node/v20.20.2')).toEqual({ ...fakeIndex, direct: false });
  });

  it.each(['bun/1.2.0', 'deno/2.1.0'])('on %s, asks for the index only', (runtime) => {
    const { load, asked } = fakeRequire({ undici: fakeIndex });
    expect(loadUndiciParts(load, runtime)).toEqual({ ...fakeIndex, direct: false });
    expect(asked).toEqual(['undici']);
  });

  it('is undefined where nothing resolves by require (a bundle without node_modules)', () => {
    const { load, asked } = fakeRequire({});
    expect(loadUndiciParts(load, 'node/v20.20.2')).toBeUndefined();
    expect(asked.at(-1)).toBe('undici');
  });

  it('tells a Bun-like undici, whose classes cannot dispatch, from a working one', () => {
    expect(
      undiciCanDispatch({
        Pool: CannotDispatch,
        Agent: CannotDispatch,
        errors: fakeErrors,
        direct: false,
      } as never),
    ).toBe(false);
    expect(undiciCanDispatch(fakeIndex)).toBe(true);
  });

  it('requires once per process, here from the modules; the import path gives the index', async () => {
    expect(requireUndici()).toBe(requireUndici());
    expect(requireUndici()?.direct).toBe(true);
    const imported = await importUndici();
    expect(imported).toEqual({
      Pool: undiciIndex.Pool,
      Agent: undiciIndex.Agent,
      errors: undiciIndex.errors,
      direct: false,
    });
  });
});

/** A GET of the mock's open endpoint, as the core hands it to a transport. */
function openApiRequest(origin: string): TransportRequest {
  return {
    origin,
    path: '/__mock/openapi.json',
    method: 'GET',
    headers: { accept: 'application/json' },
    maxResponseBytes: 10_000_000,
  };
}

describe('a Node connector that finds no undici by require', () => {
  it('imports undici on the first request and sends through its Pool', async () => {
    const mock = await createMockServer({ seed: 1 });
    let imports = 0;
    const connector = nodeConnectorWith(
      () => undefined,
      () => {
        imports++;
        return importUndici();
      },
    );
    const connection = connector.connect(mock.url, { dispatcher: undefined, fetch: undefined });
    try {
      const [first, second] = await Promise.all([
        connection.transport(openApiRequest(mock.url)),
        connection.transport(openApiRequest(mock.url)),
      ]);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(JSON.parse(Buffer.from(first.body).toString('utf8')).openapi).toMatch(/^3\.1/);
      expect(imports).toBe(1);
    } finally {
      await connection.close();
      await mock.close();
    }
  });

  it('with a fetch option and no dispatcher, loads no undici at all', () => {
    let loads = 0;
    const connector = nodeConnectorWith(
      () => {
        loads++;
        return undefined;
      },
      () => {
        loads++;
        return importUndici();
      },
    );
    connector.connect('http://127.0.0.1:9', { dispatcher: undefined, fetch: () => globalThis.fetch });
    expect(loads).toBe(0);
  });
});

describe('deferredConnection', () => {
  const request = openApiRequest('http://127.0.0.1:9');

  it('holds requests until the connection is ready, then sends them through it', async () => {
    const sent: string[] = [];
    let ready!: (connection: Connection) => void;
    const deferred = deferredConnection(new Promise<Connection>((resolve) => (ready = resolve)));
    const pending = deferred.transport({ ...request, path: '/first' });
    expect(sent).toEqual([]);
    ready({
      transport: async (r) => {
        sent.push(r.path);
        return { status: 204, headers: {}, body: new Uint8Array(0) };
      },
      close: async () => {
        sent.push('closed');
      },
    });
    expect((await pending).status).toBe(204);
    await deferred.transport({ ...request, path: '/second' });
    await deferred.close();
    expect(sent).toEqual(['/first', '/second', 'closed']);
  });

  it('rejects every request with the loading failure, and closes without one', async () => {
    const failure = new Error("Cannot find package 'undici'");
    const deferred = deferredConnection(Promise.reject(failure));
    await expect(deferred.transport(request)).rejects.toBe(failure);
    await expect(deferred.transport(request)).rejects.toBe(failure);
    await expect(deferred.close()).resolves.toBeUndefined();
  });
});
