/**
 * The mock's strict mode (`createMockServer({ strict: true })`) over real loopback: each rule it
 * adds, next to what the default, tolerant mock answers to the same request; and what holds in
 * both modes (repeated `statuses` keys merged, every 4xx a JSON error body, 413 and 431 included).
 */
import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantGroupListResponseSchema } from '../../src/schemas/index.js';
import { createMockApi, createMockServer, MAX_BODY_BYTES, type MockServer } from '../../src/testing/index.js';
import {
  applicantGroupBody,
  call,
  errorBodySchema,
  expectError,
  expectOk,
  login,
  screeningGroupBody,
} from './helpers.js';

interface Mode {
  name: string;
  strict: boolean;
}

const MODES: Mode[] = [
  { name: 'strict', strict: true },
  { name: 'tolerant (default)', strict: false },
];

// One raw request over a socket, for what undici refuses to send (oversized headers): the status
// line, headers and body as the server wrote them.
function rawExchange(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

/** A create body with some fields of its property changed (or added). */
function withProperty(body: Record<string, unknown>, changes: Record<string, unknown>) {
  const property = typeof body.property === 'object' && body.property !== null ? body.property : {};
  return { ...body, property: { ...property, ...changes } };
}

describe.each(MODES)('mock in $name mode', ({ strict }) => {
  let mock: MockServer;
  let token: string;
  const post = (path: string, body: unknown) => call(mock.url, 'POST', path, { token, body });
  beforeAll(async () => {
    mock = await createMockServer({ strict, seed: 3 });
    token = await login(mock);
  });
  afterAll(async () => {
    await mock.close();
  });

  it('a camelCase key (correlationId): strict names it with its snake_case twin; tolerant drops it', async () => {
    const before = mock.groups.applicant().length;
    const answer = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
      token,
      body: applicantGroupBody({ correlationId: 'order-42' }),
    });
    if (strict) {
      const body = expectError(answer, 400);
      expect(body.fields).toEqual([
        {
          field: 'correlationId',
          message: 'correlationId is not a field of this request: did you mean correlation_id?',
        },
      ]);
      expect(mock.groups.applicant()).toHaveLength(before);
    } else {
      expect(answer.status).toBe(200);
      expect(mock.groups.applicant()).toHaveLength(before + 1);
      expect(mock.groups.applicant().at(-1)?.correlation_id).toBeNull();
    }
  });

  it('an unknown nested key is named by its path', async () => {
    const answer = await post(
      '/api/v1/screening_groups',
      withProperty(screeningGroupBody(), { zip: '73301' }),
    );
    if (strict) {
      expect(expectError(answer, 400).fields).toEqual([
        { field: 'property.zip', message: 'zip is not a field of this request: did you mean zip_code?' },
      ]);
    } else expect(answer.status).toBe(200);
  });

  it('an unknown verification type: strict lists the allowed ones and suggests one; tolerant takes it', async () => {
    const body = applicantGroupBody({
      applicants: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          verifications: [{ type: 'payroll' }],
        },
      ],
    });
    const answer = await call(mock.url, 'POST', '/api/v1/applicant_groups', { token, body });
    if (strict) {
      expect(expectError(answer, 400).fields).toEqual([
        {
          field: 'applicants[0].verifications[0].type',
          message:
            'applicants[0].verifications[0].type must be one of "payroll_income_verification", "identity_verification", "asset_verification": did you mean payroll_income_verification?',
        },
      ]);
    } else expect(answer.status).toBe(200);
  });

  it('null in a field the contract does not make nullable: strict 400, tolerant takes it as absent', async () => {
    const body = applicantGroupBody({ webhook_url: null, correlation_id: null });
    const answer = await call(mock.url, 'POST', '/api/v1/applicant_groups', { token, body });
    if (strict) {
      expect(expectError(answer, 400).fields).toEqual([
        { field: 'webhook_url', message: 'webhook_url must not be null' },
        { field: 'correlation_id', message: 'correlation_id must not be null' },
      ]);
    } else expect(answer.status).toBe(200);
  });

  it('a value the document’s pattern refuses: strict says so with the document’s own description; tolerant takes it', async () => {
    const answer = await post(
      '/api/v1/applicant_groups',
      withProperty(applicantGroupBody(), { state: 'Texass' }),
    );
    if (strict) {
      const [field] = expectError(answer, 400).fields ?? [];
      expect(field?.field).toBe('property.state');
      expect(field?.message).toMatch(
        /^property\.state does not have the form the API expects \(A US state, .+\)$/,
      );
    } else expect(answer.status).toBe(200);
  });

  it('where the mock’s own check refuses the same field, its message (what to write instead) is the one sent', async () => {
    const answer = await post(
      '/api/v1/screening_groups',
      withProperty(screeningGroupBody(), { state: 'TX' }),
    );
    expect(expectError(answer, 400).fields).toEqual([
      { field: 'property.state', message: 'state must be spelled out: use "Texas" instead of "TX"' },
    ]);
  });

  it('a wrong type is named the same way in both modes (the tolerant mock checks types too)', async () => {
    const answer = await call(mock.url, 'POST', '/api/v1/screening_groups', {
      token,
      body: screeningGroupBody({ is_decision_maker_paying: 'yes' }),
    });
    expect(expectError(answer, 400).fields).toEqual([
      { field: 'is_decision_maker_paying', message: 'is_decision_maker_paying must be a boolean' },
    ]);
  });

  it('JSON under text/plain or with no content type: strict 415, tolerant reads it', async () => {
    for (const headers of [{ 'content-type': 'text/plain' }, {}] as Array<Record<string, string>>) {
      const before = mock.groups.applicant().length;
      const response = await request(`${mock.url}/api/v1/applicant_groups`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${token}` },
        body: JSON.stringify(applicantGroupBody()),
      });
      const json: unknown = await response.body.json();
      if (strict) {
        expect(response.statusCode).toBe(415);
        expect(errorBodySchema.parse(json)).toMatchObject({ error: 'unsupported_media_type' });
        expect(mock.groups.applicant()).toHaveLength(before);
      } else {
        expect(response.statusCode).toBe(200);
        expect(mock.groups.applicant()).toHaveLength(before + 1);
      }
    }
  });

  it('a JSON content type with parameters is JSON', async () => {
    const answer = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
      token,
      body: applicantGroupBody(),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(answer.status).toBe(200);
  });

  it('a wrong method on a known path: strict 405 with Allow, tolerant 404; unknown paths stay 404', async () => {
    const answer = await call(mock.url, 'DELETE', '/api/v1/applicant_groups', { token });
    if (strict) {
      expect(expectError(answer, 405).error).toBe('method_not_allowed');
      expect(answer.headers.allow).toBe('GET, POST');
      const report = await call(mock.url, 'PUT', '/api/v1/reports/rep_1', { token });
      expect(expectError(report, 405).message).toBe('PUT is not allowed on /api/v1/reports/rep_1: use GET');
      expect(report.headers.allow).toBe('GET');
    } else {
      expectError(answer, 404);
      expect(answer.headers.allow).toBeUndefined();
    }
    expectError(await call(mock.url, 'DELETE', '/api/v1/nothing_here', { token }), 404);
  });

  it('the auth body is held to the contract too: an unknown key is 400 strict, ignored tolerant', async () => {
    const answer = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
      body: { client_id: mock.clientId, secret_key: mock.secretKey, clientSecret: 'x' },
    });
    if (strict) {
      expect(expectError(answer, 400).fields?.map((f) => f.field)).toEqual(['clientSecret']);
    } else expect(answer.status).toBe(204);
  });

  it('the SDK’s own creates and reads pass: a client that works against a strict mock sends only the contract', async () => {
    const client = mock.client();
    const property = {
      name: 'Birch',
      street_address: '1 Birch Rd',
      city: 'Reno',
      state: 'Nevada',
      zip_code: '89501',
    };
    const group = await client.applicantGroups.create({
      applicants: [{ first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }],
      property,
      decision_maker_display_name: 'Birch LLC',
      monthly_rent: 1200,
      correlation_id: `strict-${strict}`,
    });
    expect(mock.groups.applicant().find((g) => g.id === group.id)?.correlation_id).toBe(`strict-${strict}`);
    const screening = await client.screeningGroups.create({
      applicants: [
        { applicant_first_name: 'Sam', applicant_last_name: 'Lee', applicant_email: 'sam@example.com' },
      ],
      property,
      is_decision_maker_paying: false,
      decision_maker_display_name: 'Pine LLC',
      monthly_rent: 900,
    });
    expect(mock.groups.screening().map((g) => g.id)).toContain(screening.id);
  });

  it('repeated statuses keys are merged with the comma form, never dropped', async () => {
    mock.reset();
    const fresh = await login(mock);
    const created = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
        token: fresh,
        body: applicantGroupBody(),
      });
      created.push((answer.json as { id: string; applicants: Array<{ id: string }> }).applicants);
    }
    // One group in progress (one of two applicants started), one completed, one not started.
    mock.applicants.start(created[0]?.[0]?.id ?? '');
    for (const applicant of created[1] ?? []) mock.applicants.complete(applicant.id);
    const list = async (query: string) =>
      expectOk(
        await call(mock.url, 'GET', `/api/v1/applicant_groups?${query}`, { token: fresh }),
        applicantGroupListResponseSchema,
      ).applicant_groups.map((g) => g.status);
    const repeated = await list('statuses=in_progress&statuses=completed');
    expect(repeated.sort()).toEqual(['completed', 'in_progress']);
    expect((await list('statuses=in_progress,completed')).sort()).toEqual(repeated);
    expect((await list('statuses=not_started&statuses=in_progress,completed')).sort()).toEqual([
      'completed',
      'in_progress',
      'not_started',
    ]);
  });

  it('a body past the limit is 413 with the JSON error body', async () => {
    const response = await request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20),
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toContain('application/json');
    expect(errorBodySchema.parse(await response.body.json())).toMatchObject({ error: 'payload_too_large' });
  });

  it('headers past Node’s limit are 431 with the JSON error body, and the mock keeps serving', async () => {
    const raw = await rawExchange(
      mock.url,
      `GET /api/v1/applicant_groups HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(errorBodySchema.parse(JSON.parse(body))).toEqual({
      error: 'headers_too_large',
      message: 'The request headers are too large',
    });
    const malformed = await rawExchange(mock.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(errorBodySchema.parse(JSON.parse(malformed.split('\r\n\r\n')[1] ?? ''))).toMatchObject({
      error: 'invalid_request',
    });
    expect((await call(mock.url, 'GET', '/api/v1/applicant_groups', { token })).status).toBe(200);
  });
});

describe('strict mode in process', () => {
  it('createMockApi({ strict: true }) refuses through mock.fetch what the server refuses', async () => {
    const mock = createMockApi({ strict: true });
    try {
      const wrongMethod = await mock.fetch(`${mock.baseUrl}/api/v1/screening_groups`, { method: 'DELETE' });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
      const typo = await mock.fetch(`${mock.baseUrl}/api/v1/tenants/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: mock.clientId, secret_key: mock.secretKey }),
      });
      expect(typo.status).toBe(400);
      expect(errorBodySchema.parse(await typo.json()).fields).toEqual([
        { field: 'client_id', message: 'client_id is required' },
        { field: 'clientId', message: 'clientId is not a field of this request: did you mean client_id?' },
      ]);
    } finally {
      await mock.close();
    }
  });
});
