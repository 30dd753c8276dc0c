/**
 * POST /api/v1/tenants/auth. The token comes back in the `Authorization: Bearer <jwt>` response
 * header with an empty body; a JSON `token` or `access_token` field is accepted as well, since
 * the spec does not show this endpoint.
 */
import { z } from 'zod';
import { AUTH_PATH, type TokenExchange } from './auth.js';
import { ResponseValidationError } from './errors.js';
import type { HttpCore } from './http.js';

const authBodySchema = z.union([
  z.looseObject({ token: z.string().optional(), access_token: z.string().optional() }),
  z.undefined(),
]);

const BEARER = /^Bearer\s+(\S+)$/i;

/** Builds the exchange of `credentials` for a token, sent through `core` (retries included). */
export function createTokenExchange(
  core: HttpCore,
  credentials: { clientId: string; secretKey: string },
): TokenExchange {
  return async () => {
    const { data, response } = await core.execute({
      method: 'POST',
      path: AUTH_PATH,
      body: { client_id: credentials.clientId, secret_key: credentials.secretKey },
      schema: authBodySchema,
      auth: false,
      keepCredentialHeaders: true,
      // Asking for a token has no side effect, so it retries like a read.
      safety: 'read',
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
