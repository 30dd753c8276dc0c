/** The access token, for callers who need it outside the SDK (an embedded widget, a proxy). */
import type { TokenSource } from '../core/token/auth.js';

/** `client.auth`. */
export class Auth {
  readonly #tokens: TokenSource;

  /** @internal Built by the client. */
  constructor(tokens: TokenSource) {
    this.#tokens = tokens;
  }

  /** A valid access token: the cached one, or a fresh one from POST /api/v1/tenants/auth. */
  getToken(): Promise<string> {
    return this.#tokens.get();
  }
}
