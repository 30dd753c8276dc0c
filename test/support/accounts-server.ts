/**
 * A loopback API of many accounts that checks isolation: it issues each account its own tokens
 * (JWTs whose subject is the client id, timed on a clock the test moves), answers
 * `GET /api/v1/whoami` with the account the token belongs to, and counts every request whose
 * token belongs to another account than the one the client meant (the `x-test-account` header a
 * derived client sends through its `defaultHeaders`). It can revoke a token on its next use (a
 * 401) to force refreshes and replays, and counts the sockets and token exchanges it saw.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { SignJWT } from 'jose';
import { closeServer, listen } from './http-server.js';
import { TEST_SECRET_KEY } from './secrets.js';

/** One account: its client id and secret key (which contains the suite's secret, so the scan catches it). */
export interface TestAccount {
  clientId: string;
  secretKey: string;
}

/** `count` accounts `landlord-0` … with distinct secret keys. */
export function testAccounts(count: number): TestAccount[] {
  return Array.from({ length: count }, (_, i) => ({
    clientId: `landlord-${i}`,
    secretKey: `${TEST_SECRET_KEY}-${i}`,
  }));
}

export interface AccountsServer {
  url: string;
  /** Token exchanges per client id. */
  exchanges: Map<string, number>;
  /** Requests whose token belonged to another account than their `x-test-account`. */
  crossAccount: number;
  /** API requests answered (401s included). */
  apiRequests: number;
  /** 401s answered to a token the server revoked. */
  revoked: Map<string, number>;
  /** Sockets opened so far. */
  sockets: number;
  /** Revokes the token each of the next `n` API requests carries (answered 401), at most once per account. */
  revokeNext(n: number): void;
  /** Answers the next API request of `clientId` 429 with `Retry-After: 2`. */
  rateLimitNext(clientId: string): void;
  /**
   * Rotates the secret key of `clientId` (as the vendor's console does): the old secret is refused
   * from now on, and every token it minted is revoked (answered 401).
   */
  rotate(clientId: string, secretKey: string): void;
  /** API requests that carried a token revoked by a rotation (each answered 401), per client id. */
  rotatedTokenUses: Map<string, number>;
  close(): Promise<void>;
}

const signingKey = new TextEncoder().encode('accounts-server-signing-key');

/** Starts the server; `now()` is the clock tokens are timed on (the clients' test clock). */
export async function startAccountsServer(
  accounts: readonly TestAccount[],
  now: () => number = Date.now,
): Promise<AccountsServer> {
  const secrets = new Map(accounts.map((account) => [account.clientId, account.secretKey]));
  const owners = new Map<string, { clientId: string; expiresAt: number }>();
  let toRevoke = 0;
  const rotatedTokens = new Set<string>();
  const rateLimited = new Set<string>();
  let sequence = 0;
  const state: AccountsServer = {
    url: '',
    exchanges: new Map(),
    crossAccount: 0,
    apiRequests: 0,
    revoked: new Map(),
    sockets: 0,
    revokeNext(n) {
      toRevoke += n;
    },
    rateLimitNext(clientId) {
      rateLimited.add(clientId);
    },
    rotate(clientId, secretKey) {
      secrets.set(clientId, secretKey);
      for (const [token, owner] of owners) {
        if (owner.clientId !== clientId) continue;
        owners.delete(token);
        rotatedTokens.add(token);
      }
    },
    rotatedTokenUses: new Map(),
    close: () => closeServer(server),
  };
  const send = (response: ServerResponse, status: number, body?: unknown, headers = {}) => {
    response.writeHead(
      status,
      body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    );
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'POST' && path === '/api/v1/tenants/auth') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const clientId = String(body.client_id);
      if (secrets.get(clientId) !== body.secret_key) {
        send(response, 401, { error: 'unauthorized', message: 'Unknown client_id or wrong secret_key' });
        return;
      }
      state.exchanges.set(clientId, (state.exchanges.get(clientId) ?? 0) + 1);
      const issuedAt = Math.floor(now() / 1000);
      const token = await new SignJWT({ sub: clientId, n: sequence++ })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + 1800)
        .sign(signingKey);
      owners.set(token, { clientId, expiresAt: (issuedAt + 1800) * 1000 });
      send(response, 204, undefined, { authorization: `Bearer ${token}` });
      return;
    }
    state.apiRequests++;
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const owner = owners.get(token);
    if (rotatedTokens.has(token)) {
      const subject = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
        .sub as string;
      state.rotatedTokenUses.set(subject, (state.rotatedTokenUses.get(subject) ?? 0) + 1);
    }
    if (owner === undefined || owner.expiresAt <= now()) {
      send(response, 401, { error: 'unauthorized', message: 'Invalid or expired token' });
      return;
    }
    const meant = request.headers['x-test-account'];
    if (meant !== owner.clientId) state.crossAccount++;
    if (rateLimited.delete(owner.clientId)) {
      send(response, 429, { error: 'rate_limited', message: 'Slow down' }, { 'retry-after': '2' });
      return;
    }
    // Each account is revoked at most once, so a replay after its 401 is never refused again.
    if (toRevoke > 0 && !state.revoked.has(owner.clientId)) {
      toRevoke--;
      owners.delete(token);
      state.revoked.set(owner.clientId, (state.revoked.get(owner.clientId) ?? 0) + 1);
      send(response, 401, { error: 'unauthorized', message: 'Token revoked' });
      return;
    }
    if (request.method === 'GET' && path === '/api/v1/whoami') {
      send(response, 200, { account: owner.clientId });
      return;
    }
    send(response, 404, { error: 'not_found', message: `No route ${path}` });
  });
  server.on('connection', () => {
    state.sockets++;
  });
  state.url = await listen(server);
  return state;
}
