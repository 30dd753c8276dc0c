/**
 * Transport choice by runtime: where undici cannot dispatch (Bun's `undici` module), the client
 * sends through the global fetch with the same behaviour (auth, retries, the create policy,
 * timeouts); a `dispatcher` option there is a clear configuration error. Bun itself is exercised
 * by `.ci/runtimes`; here Node plays it, with the detection stubbed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/core/runtime.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/core/runtime.js')>();
  return { ...actual, undiciCanDispatch: () => false };
});

const { Agent } = await import('undici');
const { ConfigurationError, GroupMayHaveBeenCreatedError, VerificationClient } = await import(
  '../../src/index.js'
);
const { createMockServer } = await import('../../src/testing/index.js');

describe('a runtime whose undici cannot dispatch', () => {
  const realFetch = globalThis.fetch;
  let urls: string[];

  beforeEach(() => {
    urls = [];
    globalThis.fetch = (input, init) => {
      urls.push(String(input));
      return realFetch(input, init);
    };
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('sends every request through the global fetch, with the same create policy', async () => {
    const mock = await createMockServer({ seed: 2 });
    const client = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      logLevel: 'off',
    });
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
