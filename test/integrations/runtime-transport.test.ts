/**
 * Transport choice by runtime: where undici cannot dispatch (Bun's `undici` module), the client
 * sends through the global fetch with the same behaviour (auth, retries, the create policy,
 * timeouts); a `dispatcher` option there is a clear configuration error. Bun itself is exercised
 * by `.ci/runtimes`; here Node plays it: undici's `Pool` loses its `dispatch` for the duration of
 * each test, as Bun's does. Node's fetch dispatches through the global dispatcher the package
 * sets (an `Agent` of pools), so for the test it is an `Agent` of single `Client`s.
 */
import { Agent, Client, type Dispatcher, getGlobalDispatcher, Pool, setGlobalDispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, GroupMayHaveBeenCreatedError, VerificationClient } from '../../src/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { clientFor } from '../support/mock-client.js';

/** Shadows `dispatch` on undici's Pool, as Bun's partial undici lacks it; returns the undo. */
function withoutPoolDispatch(): () => void {
  if (Object.hasOwn(Pool.prototype, 'dispatch')) throw new Error('undici changed: Pool has its own dispatch');
  Object.defineProperty(Pool.prototype, 'dispatch', { value: undefined, configurable: true, writable: true });
  return () => Reflect.deleteProperty(Pool.prototype, 'dispatch');
}

describe('a runtime whose undici cannot dispatch', () => {
  const realFetch = globalThis.fetch;
  let urls: string[];
  let restorePoolDispatch: () => void;
  let previousDispatcher: Dispatcher;
  let clientsOnly: Agent;

  beforeEach(() => {
    previousDispatcher = getGlobalDispatcher();
    clientsOnly = new Agent({ factory: (origin, options) => new Client(origin, options) });
    setGlobalDispatcher(clientsOnly);
    restorePoolDispatch = withoutPoolDispatch();
    urls = [];
    globalThis.fetch = (input, init) => {
      urls.push(String(input));
      return realFetch(input, init);
    };
  });

  afterEach(async () => {
    globalThis.fetch = realFetch;
    restorePoolDispatch();
    setGlobalDispatcher(previousDispatcher);
    await clientsOnly.close();
  });

  it('sends every request through the global fetch, with the same create policy', async () => {
    const mock = await createMockServer({ seed: 2 });
    const client = clientFor(mock);
    try {
      await client.applicantGroups.list();
      expect(urls).toEqual([`${mock.url}/api/v1/tenants/auth`, `${mock.url}/api/v1/applicant_groups?page=1`]);

      mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: '/api/v1/applicant_groups' });
      const create = client.applicantGroups.create({
        applicants: [{ first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com' }],
        property: {
          name: 'P',
          street_address: '1 Main St',
          city: 'Denver',
          state: 'Colorado',
          zip_code: '80203',
        },
        decision_maker_display_name: 'P Leasing',
        monthly_rent: 1000,
      });
      await expect(create).rejects.toBeInstanceOf(GroupMayHaveBeenCreatedError);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
      expect(urls.filter((url) => url.endsWith('/api/v1/applicant_groups'))).toHaveLength(1);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('refuses a dispatcher option with a message saying why', () => {
    const agent = new Agent();
    try {
      expect(
        () => new VerificationClient({ baseURL: 'https://api.test', accessToken: 't', dispatcher: agent }),
      ).toThrow(ConfigurationError);
      expect(
        () => new VerificationClient({ baseURL: 'https://api.test', accessToken: 't', dispatcher: agent }),
      ).toThrow(/dispatcher option needs undici's dispatcher.*use the fetch option/);
    } finally {
      void agent.close();
    }
  });
});
