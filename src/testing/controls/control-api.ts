/**
 * The control API: the mock's JS controls over HTTP, under `/__mock/` on the mock's own origin,
 * so a test suite in any language (or curl) can drive a mock running as a separate process.
 * Each route calls the very control a JS test calls; nothing here has behaviour of its own.
 * It needs no token: it only exists on the mock, which holds nothing but fake data.
 */

// The API's OpenAPI document, the file the package ships as `applicant-verification/openapi.json`.
import openApiDocument from '../../../openapi.json' with { type: 'json' };
import type { AccountFilter } from '../accounts/accounts.js';
import { faultMatchSchema, faultSchema } from '../faults/faults.js';
import type { Route, RouteRequest } from '../server/pipeline.js';
import { errorResponse, jsonResponse } from '../server/responses.js';
import { readJson } from '../server/routes.js';
import { fieldName } from '../server/validation.js';
import { DEFAULT_FAILURE_REASON } from '../state/lifecycle.js';
import { COMPLETION_REASONS, type CompletionReason } from '../state/store.js';
import { webhookFaultRoutes } from '../webhooks/webhook-fault-routes.js';
import type { MockControls } from './mock-controls.js';

/** Path prefix of the control API. */
export const CONTROL_PREFIX = '/__mock';

/** What the control API drives: the JS controls plus reset. */
export interface ControlTarget extends MockControls {
  /** Back to the seeded state. */
  reset(): void;
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response };

// Control bodies are optional: an empty body is an empty object.
function objectBody(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: {} };
  const body = readJson(text);
  if (!body.ok) return body;
  const value = body.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, response: errorResponse(400, 'The request body must be a JSON object') };
  }
  return { ok: true, value: { ...value } };
}

// A control that refuses (unknown id, a transition that is not allowed) answers 404 or 409 with
// the control's own message, so the caller reads the same words a JS test would.
function guarded(run: () => Response): Response {
  try {
    return run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorResponse(message.startsWith('No ') ? 404 : 409, message);
  }
}

// `?account=<client id>` narrows a listing to one account's records, and makes a per-object
// control find only that account's objects (another account's id is then a 404).
const accountFilter = (url: URL): AccountFilter => {
  const account = url.searchParams.get('account');
  return account === null || account === '' ? {} : { account };
};

const isReason = (value: unknown): value is CompletionReason =>
  typeof value === 'string' && (COMPLETION_REASONS as readonly string[]).includes(value);

const FAILURE_REASONS = COMPLETION_REASONS.filter((reason) => reason !== 'finished');

/** Builds the control routes over `target`. */
export function createControlRoutes(target: ControlTarget): Route[] {
  const id = (input: RouteRequest): string => input.params.id ?? '';

  // complete and fail: the same body, `fail` refusing `finished` (its default is a failure).
  const completion =
    (step: 'complete' | 'fail') =>
    (input: RouteRequest): Response => {
      const body = objectBody(input.body);
      if (!body.ok) return body.response;
      const { reason = step === 'fail' ? DEFAULT_FAILURE_REASON : 'finished', bankName } = body.value;
      const allowed: readonly string[] = step === 'fail' ? FAILURE_REASONS : COMPLETION_REASONS;
      if (!isReason(reason) || !allowed.includes(reason)) {
        return errorResponse(400, `reason must be one of ${allowed.join(', ')}`, {
          fields: [
            {
              field: 'reason',
              message: `unknown ${step === 'fail' ? 'failure' : 'completion'} reason ${JSON.stringify(reason)}`,
            },
          ],
        });
      }
      if (bankName !== undefined && typeof bankName !== 'string') {
        return errorResponse(400, 'bankName must be a string', {
          fields: [{ field: 'bankName', message: 'must be a string' }],
        });
      }
      return guarded(() => {
        const filter = accountFilter(input.url);
        const options = bankName === undefined ? filter : { ...filter, bankName };
        if (reason === 'finished') target.applicants.complete(id(input), reason, options);
        else target.applicants[step](id(input), reason, options);
        return jsonResponse(target.applicants.get(id(input), filter));
      });
    };

  const advance = (input: RouteRequest): Response => {
    const body = objectBody(input.body);
    if (!body.ok) return body.response;
    const { ms } = body.value;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      return errorResponse(400, 'ms must be a non-negative number of milliseconds', {
        fields: [{ field: 'ms', message: 'must be a non-negative number' }],
      });
    }
    const now = target.clock.advance(ms);
    return jsonResponse({ now, iso: new Date(now).toISOString() });
  };

  // A RegExp match (set from JS) is shown as its source text: JSON has no RegExp.
  const pendingFaults = () =>
    target.faults.pending().map((entry) => ({
      ...entry,
      match: entry.match && {
        ...entry.match,
        path: entry.match.path instanceof RegExp ? String(entry.match.path) : entry.match.path,
      },
    }));

  const addFault = (input: RouteRequest): Response => {
    const body = objectBody(input.body);
    if (!body.ok) return body.response;
    const { count = 1, fault, match } = body.value;
    const fields = [];
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1)
      fields.push({ field: 'count', message: 'must be an integer >= 1' });
    const parsedFault = faultSchema.safeParse(fault);
    if (!parsedFault.success) {
      fields.push({
        field: 'fault',
        message:
          fault === undefined
            ? 'is required, e.g. { "status": 503 }'
            : `is not a fault spec (${parsedFault.error.issues.map((i) => `${fieldName(i.path)}: ${i.message}`).join('; ')})`,
      });
    }
    const parsedMatch = faultMatchSchema.safeParse(match);
    if (!parsedMatch.success) fields.push({ field: 'match', message: 'must be { "method"?, "path"? }' });
    if (fields.length > 0 || !parsedFault.success || !parsedMatch.success || typeof count !== 'number') {
      return errorResponse(400, 'Invalid fault', { fields });
    }
    target.faults.next(count, parsedFault.data, parsedMatch.data);
    return jsonResponse(pendingFaults(), 201);
  };

  const p = (path: string) => `${CONTROL_PREFIX}${path}`;
  return [
    {
      method: 'POST',
      pattern: p('/reset'),
      target: () => {
        target.reset();
        return jsonResponse({ reset: true, now: target.clock.now() });
      },
    },
    {
      method: 'GET',
      pattern: p('/outbox'),
      target: ({ url }) => {
        const group = url.searchParams.get('group_id');
        const filter = accountFilter(url);
        return jsonResponse(group ? target.outbox.forGroup(group, filter) : target.outbox.all(filter));
      },
    },
    {
      method: 'POST',
      pattern: p('/applicants/:id/start'),
      target: (input) =>
        guarded(() => {
          target.applicants.start(id(input), accountFilter(input.url));
          return jsonResponse(target.applicants.get(id(input), accountFilter(input.url)));
        }),
    },
    { method: 'POST', pattern: p('/applicants/:id/complete'), target: completion('complete') },
    { method: 'POST', pattern: p('/applicants/:id/fail'), target: completion('fail') },
    {
      method: 'POST',
      pattern: p('/applicants/:id/reopen'),
      target: (input) =>
        guarded(() => {
          target.applicants.reopen(id(input), accountFilter(input.url));
          return jsonResponse(target.applicants.get(id(input), accountFilter(input.url)));
        }),
    },
    {
      method: 'GET',
      pattern: p('/applicants/:id'),
      target: (input) =>
        guarded(() => jsonResponse(target.applicants.get(id(input), accountFilter(input.url)))),
    },
    { method: 'POST', pattern: p('/clock/advance'), target: advance },
    {
      method: 'GET',
      pattern: p('/clock'),
      target: () => jsonResponse({ now: target.clock.now(), iso: target.clock.date().toISOString() }),
    },
    {
      method: 'POST',
      pattern: p('/reports/:id/expire'),
      target: (input) =>
        guarded(() => {
          target.reports.expire(id(input), accountFilter(input.url));
          return jsonResponse({ expired: id(input) });
        }),
    },
    {
      method: 'GET',
      pattern: p('/reports'),
      target: ({ url }) => jsonResponse(target.reports.all(accountFilter(url))),
    },
    {
      method: 'GET',
      pattern: p('/accounts'),
      // Client ids only: secrets stay with whoever started the mock.
      target: () => jsonResponse(target.accounts.map(({ clientId }) => ({ client_id: clientId }))),
    },
    { method: 'GET', pattern: p('/openapi.json'), target: () => jsonResponse(openApiDocument) },
    { method: 'POST', pattern: p('/faults'), target: addFault },
    { method: 'GET', pattern: p('/faults'), target: () => jsonResponse(pendingFaults()) },
    {
      method: 'DELETE',
      pattern: p('/faults'),
      target: () => {
        target.faults.clear();
        return jsonResponse([]);
      },
    },
    ...webhookFaultRoutes(target.webhookFaults, CONTROL_PREFIX),
    {
      method: 'GET',
      pattern: p('/deliveries'),
      // `?settled=1` waits until no delivery is in flight or waiting for a retry.
      target: async ({ url }) => {
        if (url.searchParams.has('settled')) await target.deliveries.settled();
        const { account } = accountFilter(url);
        const all = target.deliveries.all();
        return jsonResponse(account === undefined ? all : all.filter((record) => record.account === account));
      },
    },
    {
      method: 'POST',
      pattern: p('/deliveries/:id/redeliver'),
      target: (input) =>
        guarded(() => {
          const n = Number(id(input));
          if (!Number.isInteger(n) || n < 1) throw new Error(`No delivery with id ${id(input)}`);
          return jsonResponse(target.deliveries.redeliver(n), 201);
        }),
    },
    {
      method: 'POST',
      pattern: p('/groups/:id/expire'),
      target: (input) =>
        guarded(() => {
          const filter = accountFilter(input.url);
          target.groups.expire(id(input), filter);
          return jsonResponse(
            target.groups.applicantGroup(id(input), filter) ??
              target.groups.screeningGroup(id(input), filter),
          );
        }),
    },
    {
      method: 'GET',
      pattern: p('/stats'),
      // Every count (`mock.stats.summary()`); `?account=` answers that account's counts alone.
      target: ({ url }) => {
        const { account } = accountFilter(url);
        const summary = target.stats.summary();
        if (account === undefined) return jsonResponse(summary);
        return jsonResponse(summary.accounts[account] ?? { total: 0, routes: {}, tokenExchanges: 0 });
      },
    },
    {
      method: 'DELETE',
      pattern: p('/stats'),
      target: () => {
        target.stats.reset();
        return jsonResponse(target.stats.summary());
      },
    },
    {
      method: 'GET',
      pattern: p('/groups'),
      target: ({ url }) =>
        jsonResponse({
          applicant_groups: target.groups.applicant(accountFilter(url)),
          screening_groups: target.groups.screening(accountFilter(url)),
        }),
    },
    {
      method: '*',
      pattern: p('/*'),
      target: ({ request, url }) =>
        errorResponse(404, `No control route for ${request.method} ${url.pathname}`),
    },
  ];
}
