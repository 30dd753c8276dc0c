/** VerificationClient on the edge entry: fetch, and defaults that end inside the platforms' request limits. */

import type { ClientOptions } from '../core/options.js';
import { fetchConnector } from '../core/transport/connector.js';
import { ClientBase } from './client-base.js';

/**
 * The client of the Applicant Income and Asset Verification API, for Cloudflare Workers, Vercel
 * Edge and other runtimes without Node's modules. It sends through `fetch` (no undici), with the
 * main entry's retries, create policy, validation and errors. Its defaults end every call within
 * 20 s: `timeout` 8 s, `maxRetries` 2, `deadline` 20 s, `createGraceWindow` 6 s.
 *
 * ```ts
 * const client = new VerificationClient({ baseURL: env.VERIFICATION_BASE_URL, clientId, secretKey });
 * const page = await client.applicantGroups.list();
 * ```
 */
export class VerificationClient extends ClientBase {
  /** Options as on Node, except `dispatcher` (undici is not loaded here) and the defaults above. */
  constructor(options: ClientOptions = {}) {
    super(options, fetchConnector);
  }
}
