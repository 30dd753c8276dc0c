/**
 * The process test/seams/cold-process.test.ts runs (bundled, test/support/bundle.ts) against its
 * server at VERIFICATION_BASE_URL: a fresh process, so zod has not been loaded (src/load/zod.ts).
 * MODE says what it does; it prints one JSON line per step, each with whether zod is loaded then.
 *
 * - `reads`: the first list page, a later page, a valid and an invalid webhook delivery, then a
 *   page whose body the build-time check refuses (zod is loaded to judge it).
 * - `create`: a create with an invalid email (refused before any I/O), then a filtered list.
 */
import {
  RequestValidationError,
  ResponseValidationError,
  VerificationClient,
  WebhookVerificationError,
} from '../../src/index.js';
import { zodIfLoaded } from '../../src/load/zod.js';
import { signWebhook, unwrapWebhook } from '../../src/webhooks/verify.js';
import { groupCreateBody } from '../support/bodies.js';

const SECRET = 'whsec_cold';
const print = (step: string, result: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ step, zodLoaded: zodIfLoaded() !== undefined, ...result })}\n`);

/** What a failed step threw: its class and message, or its field. */
function failure(error: unknown): Record<string, unknown> {
  if (error instanceof RequestValidationError || error instanceof ResponseValidationError) {
    return { error: error.constructor.name, fields: error.issues.map((issue) => issue.path) };
  }
  if (error instanceof WebhookVerificationError)
    return { error: error.name, reason: error.reason, message: error.message };
  return { error: String(error) };
}

function delivery(body: string) {
  return unwrapWebhook(body, { 'verification-signature': signWebhook(body, SECRET) }, SECRET);
}

print('imported');
const client = new VerificationClient({
  baseURL: process.env.VERIFICATION_BASE_URL,
  clientId: 'cold_client',
  secretKey: 'cold_secret_key',
  logLevel: 'off',
  maxRetries: 0,
});

if (process.env.MODE === 'reads') {
  const first = await client.applicantGroups.list();
  print('first page', { ids: first.items.map((group) => group.id) });
  const second = await client.applicantGroups.list({ page: 2 });
  print('page 2', { ids: second.items.map((group) => group.id) });
  const event = delivery(
    JSON.stringify({
      code: 'REPORT_READY',
      applicant_group_id: 'g1',
      report_id: 'r1',
      report_type: 'income',
    }),
  );
  print('valid delivery', { event });
  try {
    delivery(JSON.stringify({ code: 'REPORT_READY', applicant_group_id: 'g1', report_type: 'income' }));
    print('invalid delivery', { error: 'none' });
  } catch (error) {
    print('invalid delivery', failure(error));
  }
  try {
    await client.applicantGroups.list({ page: 3 });
    print('refused page', { error: 'none' });
  } catch (error) {
    print('refused page', failure(error));
  }
} else {
  try {
    await client.applicantGroups.create(groupCreateBody('not-an-email', 'unit-4B'));
    print('invalid create', { error: 'none' });
  } catch (error) {
    print('invalid create', failure(error));
  }
  const found = await client.applicantGroups.list({ search: 'Ruiz' });
  print('filtered list', { ids: found.items.map((group) => group.id) });
}
await client.close();
