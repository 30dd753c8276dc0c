/**
 * Helpers of the testing-kit tests: raw HTTP calls over real loopback (undici `request`, not the
 * SDK), request bodies, and schema checks of every JSON answer (the SDK's zod schemas where a test
 * asks, openapi.json through ajv always).
 */
import { type Dispatcher, request } from 'undici';
import { expect } from 'vitest';
import { z } from 'zod';
import type { MockServer } from '../../src/testing/index.js';
import { contractProblems } from '../support/openapi-contract.js';

/** An HTTP answer, body decoded when it is JSON. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  bytes: Uint8Array;
  json: unknown;
}

/** Options of {@link call}. */
export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** One request to the mock over loopback. */
export async function call(
  base: string,
  method: Dispatcher.HttpMethod,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const url = path.startsWith('http') ? path : `${base}${path}`;
  const response = await request(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const bytes = new Uint8Array(await response.body.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let json: unknown;
  if ((flat['content-type'] ?? '').includes('application/json') && text) json = JSON.parse(text);
  // Every answer of the API is checked against openapi.json (ajv), not only by the SDK's schemas.
  const pathname = new URL(url).pathname;
  expect(contractProblems(method, pathname, response.statusCode, flat['content-type'] ?? '', json)).toEqual(
    [],
  );
  return { status: response.statusCode, headers: flat, text, bytes, json };
}

/** Gets an access token; fails the test unless the mock answers 204 with a Bearer header. */
export async function login(mock: Pick<MockServer, 'url' | 'clientId' | 'secretKey'>): Promise<string> {
  const answer = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
    body: { client_id: mock.clientId, secret_key: mock.secretKey },
  });
  expect(answer.status).toBe(204);
  const token = /^Bearer (.+)$/.exec(answer.headers.authorization ?? '')?.[1];
  if (!token) throw new Error(`no token in ${JSON.stringify(answer.headers)}`);
  return token;
}

/** A valid applicant-group create body, with overrides. */
export function applicantGroupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    applicants: [
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone_number: '+14155550123' },
      { first_name: 'Charles', last_name: 'Babbage', email: 'charles@example.com' },
    ],
    property: {
      name: 'Elm Court',
      street_address: '12 Elm Street',
      city: 'Springfield',
      state: 'Illinois',
      zip_code: '62701',
      unit: '4B',
    },
    decision_maker_display_name: 'Acme Property Management',
    monthly_rent: 1850,
    ...overrides,
  };
}

/** A valid screening-group create body, with overrides. */
export function screeningGroupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    applicants: [
      {
        applicant_first_name: 'Grace',
        applicant_last_name: 'Hopper',
        applicant_email: 'grace@example.com',
        applicant_phone_number: '+12025550199',
      },
      { applicant_first_name: 'Alan', applicant_last_name: 'Turing', applicant_email: 'alan@example.com' },
    ],
    property: {
      name: 'Oak Plaza',
      street_address: '500 Oak Avenue',
      city: 'Austin',
      state: 'Texas',
      zip_code: '73301',
      unit: '12',
    },
    is_decision_maker_paying: true,
    decision_maker_display_name: 'Oak Rentals LLC',
    monthly_rent: 2400,
    ...overrides,
  };
}

/** The mock's error body (its own contract: the vendor's documentation does not show one). */
export const errorBodySchema = z.strictObject({
  error: z.string().min(1),
  message: z.string().min(1),
  fields: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
});

/** Asserts an error answer: status, JSON error body, request id; returns the body. */
export function expectError(answer: Answer, status: number): z.infer<typeof errorBodySchema> {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers['content-type']).toContain('application/json');
  expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  return errorBodySchema.parse(answer.json);
}

/** Asserts a 200 JSON answer and parses it with an SDK schema (throws on any mismatch). */
export function expectOk<S extends z.ZodType>(answer: Answer, schema: S): z.output<S> {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  return schema.parse(answer.json);
}

/**
 * An authenticated caller that logs in again when the mock clock has moved past most of the
 * token's 30 minutes, so tests can advance the clock by days between calls.
 */
export function session(mock: Pick<MockServer, 'url' | 'clientId' | 'secretKey' | 'clock'>) {
  let token: string | undefined;
  let issuedAt = 0;
  return async (method: Dispatcher.HttpMethod, path: string, options: Omit<CallOptions, 'token'> = {}) => {
    if (!token || mock.clock.now() - issuedAt > 25 * 60_000) {
      token = await login(mock);
      issuedAt = mock.clock.now();
    }
    return call(mock.url, method, path, { ...options, token });
  };
}

/** A well-formed id the mock holds nothing under. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** An error answer with the id it names replaced, so another account's id and an unknown id compare equal. */
export const sameAs = (answer: Answer, id: string) => ({
  status: answer.status,
  body: JSON.parse(answer.text.replaceAll(id, '<id>')),
});
