/**
 * The headers the SDK owns, whatever their case: a caller's `Authorization` (any spelling, per
 * call or in `defaultHeaders`, on a root or a derived client) is refused before any I/O with an
 * error that says how to act for another account; so are `Content-Type`, `Content-Length`,
 * `Host`, `User-Agent`, `Accept` and the connection's own. What the server received decides: an
 * echo server written here over loopback keeps every raw header line, and the multi-account mock
 * its request log.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestValidationError, VerificationClient } from '../../src/index.js';
import { createMockServer, DEFAULT_START_TIME, type MockServer } from '../../src/testing/index.js';
import { testAccounts } from '../support/accounts-server.js';
import { caught } from '../support/exposure.js';
import { closeServer, listen, mintToken } from '../support/http-server.js';

/** One request as the echo server received it: every raw header line, names as sent. */
interface Received {
  method: string;
  path: string;
  rawHeaders: Array<[string, string]>;
}

interface EchoServer {
  url: string;
  received: Received[];
  /** The token the echo server handed each client id. */
  tokens: Map<string, string>;
  close(): Promise<void>;
}

/** Answers the token exchange (a token per client id) and echoes any other request's headers. */
async function startEchoServer(): Promise<EchoServer> {
  const received: Received[] = [];
  const tokens = new Map<string, string>();
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawHeaders: Array<[string, string]> = [];
    for (let i = 0; i < request.rawHeaders.length; i += 2) {
      rawHeaders.push([request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string]);
    }
    received.push({ method: request.method ?? '', path: request.url ?? '', rawHeaders });
    if (request.url === '/api/v1/tenants/auth') {
      const { client_id: clientId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        client_id: string;
      };
      const token = tokens.get(clientId) ?? (await mintToken(1800, clientId));
      tokens.set(clientId, token);
      response.writeHead(204, { authorization: `Bearer ${token}` }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  const url = await listen(server);
  return { url, received, tokens, close: () => closeServer(server) };
}

/** The values of header `name` (any case) on a received request. */
const valuesOf = (request: Received, name: string) =>
  request.rawHeaders.filter(([header]) => header.toLowerCase() === name).map(([, value]) => value);

const [alice, bob] = testAccounts(2) as [
  ReturnType<typeof testAccounts>[number],
  ReturnType<typeof testAccounts>[number],
];

const SPELLINGS = ['Authorization', 'AUTHORIZATION', 'aUtHoRiZaTiOn', 'authorization'];
const OTHER_SDK_HEADERS = [
  'Content-Type',
  'CONTENT-TYPE',
  'content-length',
  'Host',
  'User-Agent',
  'uSeR-aGeNt',
  'Accept',
  'Connection',
  'Transfer-Encoding',
  'Proxy-Authorization',
];

let echo: EchoServer | undefined;
let mock: MockServer | undefined;
const clients: VerificationClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await echo?.close();
  await mock?.close();
  echo = undefined;
  mock = undefined;
});

async function echoRoot(options: { defaultHeaders?: Record<string, string> } = {}) {
  echo = await startEchoServer();
  const root = new VerificationClient({ baseURL: echo.url, ...alice, logLevel: 'off', ...options });
  clients.push(root);
  return { root, echo };
}

describe('a caller’s Authorization, in any spelling', () => {
  it.each(SPELLINGS)(
    'per call (%s): refused before any I/O, naming withOptions; the server received nothing',
    async (name) => {
      const { root, echo } = await echoRoot();
      const landlordB = root.withOptions(bob);
      const aliceToken = await mintToken(1800, alice.clientId);
      const error = await caught(
        landlordB.get('/api/v1/applicant_groups', {
          options: { headers: { [name]: `Bearer ${aliceToken}` } },
        }),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues).toEqual([
        expect.objectContaining({ path: `headers.${name}`, code: 'sdk_header' }),
      ]);
      expect((error as Error).message).toContain('withOptions({ clientId, secretKey })');
      expect((error as Error).message).toContain('accessToken');
      expect((error as Error).message).not.toContain(aliceToken);
      expect(echo.received).toEqual([]);
    },
  );

  it.each(SPELLINGS)(
    'in defaultHeaders (%s), of a root or a derived client: refused on every call, nothing sent, not even the token exchange',
    async (name) => {
      const { root, echo } = await echoRoot({ defaultHeaders: { [name]: 'Bearer stolen' } });
      const derived = (await echoRoot()).root.withOptions({
        ...bob,
        defaultHeaders: { [name]: 'Bearer stolen' },
      });
      for (const client of [root, derived, root]) {
        const error = await caught(client.applicantGroups.list());
        expect(error).toBeInstanceOf(RequestValidationError);
        expect((error as RequestValidationError).issues[0]).toMatchObject({
          path: `defaultHeaders.${name}`,
          code: 'sdk_header',
        });
        expect((error as Error).message).toContain('withOptions');
      }
      expect(echo.received).toEqual([]);
    },
  );

  it('landlord B’s client with landlord A’s token in Authorization reaches the mock not at all and reads none of A’s groups', async () => {
    mock = await createMockServer({ accounts: [alice, bob], seed: 3, now: DEFAULT_START_TIME });
    const landlordA = mock.client({ account: alice.clientId });
    clients.push(landlordA);
    const landlordB = landlordA.withOptions(bob);
    await landlordA.applicantGroups.create({
      applicants: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }],
      property: {
        name: 'Elm Court',
        street_address: '1 Elm St',
        city: 'Springfield',
        state: 'Illinois',
        zip_code: '62701',
      },
      decision_maker_display_name: 'A',
      monthly_rent: 1500,
    });
    const aliceToken = await landlordA.auth.getToken();
    const before = mock.stats.count();
    for (const name of SPELLINGS) {
      const perCall = await caught(
        landlordB.applicantGroups.list({}, { headers: { [name]: `Bearer ${aliceToken}` } }),
      );
      expect(perCall).toBeInstanceOf(RequestValidationError);
      const byDefault = landlordA.withOptions({ ...bob, defaultHeaders: { [name]: `Bearer ${aliceToken}` } });
      expect(await caught(byDefault.applicantGroups.list())).toBeInstanceOf(RequestValidationError);
    }
    expect(mock.stats.count()).toBe(before);
    // B's own call, without the header, answers B's groups (none) with B's token.
    const page = await landlordB.applicantGroups.list();
    expect(page.items).toEqual([]);
    const last = mock.stats.log().at(-1);
    expect(last?.account).toBe(bob.clientId);
  });
});

describe('the other headers the SDK owns', () => {
  it.each(OTHER_SDK_HEADERS)(
    '%s, per call or in defaultHeaders: refused, naming the header, nothing sent',
    async (name) => {
      const { root, echo } = await echoRoot();
      const perCall = await caught(root.get('/api/v1/ping', { options: { headers: { [name]: 'x' } } }));
      expect(perCall).toBeInstanceOf(RequestValidationError);
      expect((perCall as RequestValidationError).issues[0]).toMatchObject({
        path: `headers.${name}`,
        code: 'sdk_header',
      });
      const byDefault = root.withOptions({ defaultHeaders: { [name]: 'x' } });
      const error = await caught(byDefault.get('/api/v1/ping'));
      expect((error as RequestValidationError).issues[0]).toMatchObject({
        path: `defaultHeaders.${name}`,
        code: 'sdk_header',
      });
      expect(echo.received).toEqual([]);
    },
  );

  it('the SDK’s own headers reach the server once each, under the client’s token, beside the caller’s', async () => {
    const { root, echo } = await echoRoot({ defaultHeaders: { 'X-Platform': 'acme', 'X-Trace': 'default' } });
    await root.post('/api/v1/echo', {
      body: { a: 1 },
      idempotent: true,
      options: { headers: { 'x-trace': 'per-call', 'X-Extra': 'yes' } },
    });
    const request = echo.received.find((entry) => entry.path === '/api/v1/echo');
    expect(request).toBeDefined();
    const sent = request as Received;
    expect(valuesOf(sent, 'authorization')).toEqual([`Bearer ${echo.tokens.get(alice.clientId)}`]);
    expect(valuesOf(sent, 'content-type')).toEqual(['application/json']);
    expect(valuesOf(sent, 'user-agent')).toHaveLength(1);
    expect(valuesOf(sent, 'user-agent')[0]).toMatch(/^applicant-verification\//);
    expect(valuesOf(sent, 'accept')).toEqual(['application/json']);
    expect(valuesOf(sent, 'host')).toHaveLength(1);
    expect(valuesOf(sent, 'x-platform')).toEqual(['acme']);
    // A call's header wins over a default of another case: one header, not two.
    expect(valuesOf(sent, 'x-trace')).toEqual(['per-call']);
    expect(valuesOf(sent, 'x-extra')).toEqual(['yes']);
  });

  it('one header twice in one record, under two cases, is refused naming both spellings', async () => {
    const { root, echo } = await echoRoot();
    const error = await caught(
      root.get('/api/v1/ping', { options: { headers: { 'X-Tag': 'a', 'x-tag': 'b' } } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]).toMatchObject({
      path: 'headers.x-tag',
      code: 'duplicate_header',
    });
    expect((error as Error).message).toContain('X-Tag');
    expect(echo.received).toEqual([]);
  });
});
