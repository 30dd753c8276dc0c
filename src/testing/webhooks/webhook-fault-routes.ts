/** The control API's routes for webhook faults (webhook-faults.ts), mirroring `mock.webhookFaults`. */
import * as z from 'zod';
import type { Route, RouteRequest } from '../server/pipeline.js';
import { errorResponse, jsonResponse } from '../server/responses.js';
import { readJson } from '../server/routes.js';
import { fieldName } from '../server/validation.js';
import { type MockWebhookFaults, webhookFaultMatchSchema, webhookFaultSchema } from './webhook-faults.js';

/**
 * The control API's webhook-fault routes under `prefix`: `POST /webhook-faults` with
 * `{ count?, fault, match? }`, `GET` the pending ones, `DELETE` them all.
 */
export function webhookFaultRoutes(faults: MockWebhookFaults, prefix: string): Route[] {
  const path = `${prefix}/webhook-faults`;
  const add = ({ body }: RouteRequest): Response => {
    const parsed = readJson(body.trim() === '' ? '{}' : body);
    if (!parsed.ok) return parsed.response;
    const request = z
      .object({
        count: z.number().int().min(1).default(1),
        fault: webhookFaultSchema,
        match: webhookFaultMatchSchema,
      })
      .safeParse(parsed.value);
    if (!request.success) {
      return errorResponse(400, 'Invalid webhook fault', {
        fields: request.error.issues.map((issue) => ({
          field: fieldName(issue.path),
          message: `${issue.message} (a fault is { "drop": true }, { "duplicate": true } or { "reorder": true })`,
        })),
      });
    }
    faults.next(request.data.count, request.data.fault, request.data.match);
    return jsonResponse(faults.pending(), 201);
  };
  return [
    { method: 'POST', pattern: path, target: add },
    { method: 'GET', pattern: path, target: () => jsonResponse(faults.pending()) },
    {
      method: 'DELETE',
      pattern: path,
      target: () => {
        faults.clear();
        return jsonResponse([]);
      },
    },
  ];
}
