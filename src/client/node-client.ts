/** VerificationClient on Node, Bun and Deno: undici's keep-alive dispatchers (fetch under Bun). */

import type { ClientOptions } from '../core/options.js';
import { nodeConnector } from '../core/transport/node-connector.js';
import { ClientBase } from './client-base.js';

/**
 * The client of the Applicant Income and Asset Verification API.
 *
 * ```ts
 * const client = new VerificationClient({ baseURL, clientId, secretKey });
 * const group = await client.applicantGroups.create({ ... });
 * await client.close();
 * ```
 */
export class VerificationClient extends ClientBase {
  /** Options default to the `VERIFICATION_*` environment variables; see {@link ClientOptions}. */
  constructor(options: ClientOptions = {}) {
    super(options, nodeConnector);
  }
}
