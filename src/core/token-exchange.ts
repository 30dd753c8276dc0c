/**
 * POST /api/v1/tenants/auth. The token comes back in the `Authorization: Bearer <jwt>` response
 * header with an empty body; a JSON `token` or `access_token` field is accepted as well, since
 * the vendor's documentation does not show this endpoint.
 */
import * as z from 'zod';
import { AUTH_PATH, type TokenExchange } from './auth.js';
import { ResponseValidationError } from './errors.js';
import type { HttpCore } from './http.js';

const authBodySchema = z.union([
  z.looseObject({ token: z.string().optional(), access_token: z.string().optional() }),
  z.undefined(),
]);

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
      schema: authBodySchema,
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
