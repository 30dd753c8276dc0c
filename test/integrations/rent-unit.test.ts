/**
 * The rent unit against a mock that reads applicant-group `monthly_rent` in cents, as the
 * service's own reference says (docs/wire-contract.md): a default client (dollars) is told by the
 * create's echo, once, and refuses its next create before any request; a client set to cents
 * sends cents and hears nothing.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AlertTraceEvent,
  type ApplicantGroupCreateParams,
  type Logger,
  RentUnitMismatchError,
  RequestValidationError,
  TRACE_STEP_CHANNELS,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { caught } from '../support/exposure.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 24, apiRentUnit: 'cents' });
});
afterAll(async () => {
  await mock.close();
});

const clients: VerificationClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

interface Line {
  level: keyof Logger;
  message: string;
}

function recordingLogger(lines: Line[]): Logger {
  const at = (level: keyof Logger) => (message: string) => {
    lines.push({ level, message });
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A client over loopback HTTP whose request bodies are recorded as sent. */
function clientFor(options: { apiRentUnit?: 'dollars' | 'cents'; logLevel?: 'off' | 'warn' } = {}) {
  const lines: Line[] = [];
  const sent: unknown[] = [];
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
    logger: recordingLogger(lines),
    logLevel: options.logLevel ?? 'warn',
    ...(options.apiRentUnit ? { apiRentUnit: options.apiRentUnit } : {}),
    fetch: (input, init) => {
      if (init?.method === 'POST' && String(input).endsWith('/api/v1/applicant_groups'))
        sent.push(JSON.parse(String(init.body)));
      return globalThis.fetch(input, init);
    },
  });
  clients.push(client);
  return { client, lines, sent };
}

function household(tag: string, rent: { monthly_rent: number } | { monthly_rent_cents: number }) {
  return {
    applicants: [{ first_name: 'Rita', last_name: `Rent ${tag}`, email: `rita.${tag}@example.com` }],
    property: {
      name: 'Ledger Lofts',
      street_address: '1 Ledger St',
      city: 'Austin',
      state: 'TX',
      zip_code: '78701',
    },
    decision_maker_display_name: 'Ledger Leasing',
    is_invitation_disabled: true,
    ...rent,
  } satisfies ApplicantGroupCreateParams;
}

const posts = () => mock.stats.count('POST /api/v1/applicant_groups');

describe('a default (dollars) client against a cents API', () => {
  it('logs one error line naming apiRentUnit, returns the group, and refuses its next create with no request', async () => {
    const { client, lines, sent } = clientFor();
    const alerts: AlertTraceEvent[] = [];
    const onAlert = (event: unknown) => alerts.push(event as AlertTraceEvent);
    subscribe(TRACE_STEP_CHANNELS.alert, onAlert);
    try {
      const before = posts();
      const group = await client.applicantGroups.create(household('a', { monthly_rent: 2500 }));
      expect(posts()).toBe(before + 1);
      expect(sent).toEqual([expect.objectContaining({ monthly_rent: 2500 })]);
      // The API read 2500 as cents: $25.
      expect(group.monthly_rent_cents).toBe(2500);

      const errors = lines.filter((line) => line.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toContain("apiRentUnit: 'cents'");
      expect(errors[0]?.message).toContain('250000 cents');
      expect(errors[0]?.message).toContain('monthly_rent_cents 2500');
      expect(errors[0]?.message).toContain(group.id);
      expect(alerts).toEqual([
        expect.objectContaining({
          code: 'rent_unit_mismatch',
          operation: 'applicantGroups.create',
          details: expect.objectContaining({ groupId: group.id, meantCents: 250_000, echoedCents: 2500 }),
        }),
      ]);

      const error = await caught(client.applicantGroups.create(household('b', { monthly_rent: 2500 })));
      expect(error).toBeInstanceOf(RentUnitMismatchError);
      expect((error as Error).message).toContain("apiRentUnit: 'cents'");
      expect(posts()).toBe(before + 1);
      expect(sent).toHaveLength(1);
    } finally {
      unsubscribe(TRACE_STEP_CHANNELS.alert, onAlert);
    }
  });

  it("logLevel 'off' hides the line but not the alert, nor the refusal", async () => {
    const { client, lines } = clientFor({ logLevel: 'off' });
    const alerts: unknown[] = [];
    const onAlert = (event: unknown) => alerts.push(event);
    subscribe(TRACE_STEP_CHANNELS.alert, onAlert);
    try {
      await client.applicantGroups.create(household('c', { monthly_rent_cents: 180_000 }));
      expect(lines).toEqual([]);
      expect(alerts).toHaveLength(1);
      await expect(client.applicantGroups.create(household('d', { monthly_rent: 1800 }))).rejects.toThrow(
        RentUnitMismatchError,
      );
    } finally {
      unsubscribe(TRACE_STEP_CHANNELS.alert, onAlert);
    }
  });

  it("rentUnitMismatch: 'continue' keeps sending after the line", async () => {
    const lines: Line[] = [];
    const client = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      logger: recordingLogger(lines),
      rentUnitMismatch: 'continue',
    });
    clients.push(client);
    await client.applicantGroups.create(household('e', { monthly_rent: 1900 }));
    const second = await client.applicantGroups.create(household('f', { monthly_rent: 1900 }));
    expect(second.monthly_rent_cents).toBe(1900);
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(2);
  });
});

describe("apiRentUnit: 'cents' against a cents API", () => {
  it('sends cents (from dollars or cents given) and logs nothing', async () => {
    const { client, lines, sent } = clientFor({ apiRentUnit: 'cents' });
    const fromDollars = await client.applicantGroups.create(household('g', { monthly_rent: 2500 }));
    const fromCents = await client.applicantGroups.create(household('h', { monthly_rent_cents: 250_050 }));
    expect(sent).toEqual([
      expect.objectContaining({ monthly_rent: 250_000 }),
      expect.objectContaining({ monthly_rent: 250_050 }),
    ]);
    expect(sent.every((body) => !Object.hasOwn(body as object, 'monthly_rent_cents'))).toBe(true);
    expect(fromDollars.monthly_rent_cents).toBe(250_000);
    expect(fromCents.monthly_rent_cents).toBe(250_050);
    expect(lines).toEqual([]);
  });

  it('follows the wire unit before any I/O: a cents API takes 250000 cents; a dollars one refuses cents that are not whole dollars', async () => {
    const before = posts();
    const dollarsClient = clientFor().client;
    const error = await caught(
      dollarsClient.applicantGroups.create(household('i', { monthly_rent_cents: 250_050 })),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      expect.objectContaining({
        path: 'monthly_rent_cents',
        message: expect.stringContaining('whole dollars'),
      }),
    ]);
    const twice = { ...household('j', { monthly_rent: 2500 }), monthly_rent_cents: 250_000 };
    // @ts-expect-error the body states its rent once
    const both = await caught(dollarsClient.applicantGroups.create(twice));
    expect(both).toBeInstanceOf(RequestValidationError);
    expect((both as Error).message).toContain('not both');
    expect(posts()).toBe(before);
  });
});

describe('the $100 floor on monthly_rent_cents', () => {
  it('refuses dollars typed into the cents field before any I/O, naming both rent fields; createOnce and createMany too', async () => {
    const { client, sent } = clientFor({ apiRentUnit: 'cents' });
    const before = posts();
    const body = household('floor-a', { monthly_rent_cents: 2800 });
    for (const attempt of [
      () => client.applicantGroups.create(body),
      () => client.applicantGroups.createOnce({ ...body, correlation_id: 'floor-a' }),
    ]) {
      const error = await caught(attempt());
      expect(error).toBeInstanceOf(RequestValidationError);
      const issue = (error as RequestValidationError).issues[0];
      expect(issue?.path).toBe('monthly_rent_cents');
      expect(issue?.message).toContain('$28.00 a month, below the $100 floor');
      expect(issue?.message).toContain(
        'monthly_rent_cents is in cents (280000 for $2800), monthly_rent in dollars',
      );
      expect(issue?.message).toContain("rentBelowFloor: 'allow'");
    }
    const [batch] = await client.applicantGroups.createMany([body]);
    expect(batch?.ok === false && batch.error).toBeInstanceOf(RequestValidationError);
    expect(posts()).toBe(before);
    expect(sent).toEqual([]);
  });

  it("sends such a rent when the caller says it is intended (rentBelowFloor: 'allow'); $100 itself needs no word", async () => {
    const { client, sent } = clientFor({ apiRentUnit: 'cents' });
    const low = await client.applicantGroups.create(household('floor-b', { monthly_rent_cents: 2800 }), {
      rentBelowFloor: 'allow',
    });
    expect(low.monthly_rent_cents).toBe(2800);
    const once = await client.applicantGroups.createOnce(
      { ...household('floor-c', { monthly_rent_cents: 4500 }), correlation_id: 'floor-c' },
      { rentBelowFloor: 'allow' },
    );
    expect(once.group.monthly_rent_cents).toBe(4500);
    const floor = await client.applicantGroups.create(household('floor-d', { monthly_rent_cents: 10_000 }));
    expect(floor.monthly_rent_cents).toBe(10_000);
    expect(sent.map((wire) => (wire as { monthly_rent: number }).monthly_rent)).toEqual([2800, 4500, 10_000]);
  });
});
