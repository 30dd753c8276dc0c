/**
 * POST /api/v1/tenants/auth. The token comes back in the `Authorization: Bearer <jwt>` response
 * header with an empty body; a JSON `token` or `access_token` field is accepted as well, since
 * the vendor's documentation does not show this endpoint.
 */
import { zod } from '../../load/zod.js';
import type { HttpCore } from '../call/http.js';
import { ResponseValidationError } from '../errors.js';
import { AUTH_PATH, type TokenExchange } from './auth.js';

/** The exchange's response body, as zod checks it once loaded (a body {@link isAuthBody} refused). */
function buildAuthBodySchema() {
  const z = zod();
  return z.union([
    z.looseObject({ token: z.string().optional(), access_token: z.string().optional() }),
    z.undefined(),
  ]);
}

type AuthBodySchema = ReturnType<typeof buildAuthBodySchema>;

let authBody: AuthBodySchema | undefined;

/** {@link buildAuthBodySchema}'s schema, built on first use. */
export function authBodySchema(): AuthBodySchema {
  authBody ??= buildAuthBodySchema();
  return authBody;
}

/**
 * The exchange's body checked without zod, so that a cold process's first call loads none: `true`
 * only where {@link authBodySchema} accepts the body and returns it unchanged (no body, or an
 * object whose `token` and `access_token` are strings when present). `false` is not final: zod
 * decides, and words the issues.
 */
export function isAuthBody(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // An own `__proto__` key (JSON.parse makes one) is copied differently by zod: zod decides.
  if (Object.hasOwn(value, '__proto__')) return false;
  const fields: { token?: unknown; access_token?: unknown } = value;
  return isOptionalString(fields.token) && isOptionalString(fields.access_token);
}

const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';

const AUTH_BODY_CHECKS = { response: isAuthBody } as const;

const BEARER = /^Bearer\s+(\S+)$/i;

/** Where a 404 from the token endpoint most likely comes from: a base URL that already has `/api/v1`. */
function notFoundHint(core: HttpCore): string {
  if (/\/api\/v1$/i.test(core.basePath)) {
    return `The base URL ends in /api/v1: remove it (use ${core.origin}${core.basePath.replace(/\/api\/v1$/i, '')}), since the SDK adds /api/v1/... to every path`;
  }
  return `Check the base URL (${core.origin}${core.basePath}): it should be the API's root, without /api/v1, which the SDK adds itself`;
}

/**
 * Builds the exchange of `credentials` for a token, sent through `core` as one attempt
 * (`sendOnce`, not `execute`): the exchange runs inside an API call's attempt, whose retry budget
 * decides whether to try again (retries nested here would multiply: 3 × 3 auth calls for one
 * failing call).
 */
export function createTokenExchange(
  core: HttpCore,
  credentials: { clientId: string; secretKey: string },
): TokenExchange {
  return async () => {
    const { data, response } = await core.sendOnce({
      method: 'POST',
      path: AUTH_PATH,
      body: { client_id: credentials.clientId, secret_key: credentials.secretKey },
      get schema(): AuthBodySchema {
        return authBodySchema();
      },
      cold: AUTH_BODY_CHECKS,
      auth: false,
      keepCredentialHeaders: true,
      // Asking for a token has no side effect: a read, retried by the calling attempt's budget.
      safety: 'read',
      hints: { 404: notFoundHint(core) },
      operation: 'auth.exchange',
    });
    const header = response.headers.authorization ?? '';
    const token = BEARER.exec(header)?.[1] ?? data?.token ?? data?.access_token;
    if (!token) {
      throw new ResponseValidationError(
        [
          {
            path: 'Authorization',
            message: 'No bearer token in the Authorization header or body',
            code: 'missing_token',
          },
        ],
        undefined,
        `Unexpected response to POST ${AUTH_PATH}`,
      );
    }
    return token;
  };
}
