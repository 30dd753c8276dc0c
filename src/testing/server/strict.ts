/**
 * What `strict: true` adds to the mock (docs/testing.md, "Strict mode"): the request is held to
 * the OpenAPI document. A JSON body under another content type is 415; a body the document's
 * schema refuses (unknown keys, enum violations, nulls, wrong types) is 400 naming each field; a
 * known path asked with a method it does not serve is 405 with `Allow`. The default mock stays
 * tolerant, as the real service may be: the vendor does not document how it answers these.
 */

import type * as z from 'zod';
import { check, requestBodySchema } from './contract-check.js';
import type { RouteHandler } from './pipeline.js';
import { errorResponse } from './responses.js';
import { validate } from './validation.js';

/** The media type of a `content-type` header, lower-cased and without parameters. */
function mediaType(header: string | null): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Wraps the route of `operationId`, whose body is JSON: the content type must be
 * `application/json` (415 otherwise) and the body must pass the operation's request schema (400,
 * one field error each). An empty body or one that is not JSON goes on to the route, which
 * answers it as the tolerant mock does. Where `own` (the mock's own schema of the body) also
 * refuses a field, its message is the one sent: it says what to write instead (`use "Texas"`),
 * where a pattern of the document can only say that the value is refused.
 */
export function contractBody(operationId: string, route: RouteHandler, own?: z.ZodType): RouteHandler {
  const schema = requestBodySchema(operationId);
  if (schema === undefined) throw new Error(`openapi.json has no JSON request body for ${operationId}`);
  return (input) => {
    if (input.body.trim() === '') return route(input);
    const type = mediaType(input.request.headers.get('content-type'));
    if (type !== 'application/json') {
      return errorResponse(
        415,
        type === ''
          ? 'The request body must be sent as application/json: no content type was sent'
          : `The request body must be sent as application/json, not ${type}`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(input.body);
    } catch {
      return route(input);
    }
    const fields = check(schema, value);
    if (fields.length === 0) return route(input);
    const owned = own ? validate(own, value) : undefined;
    const better = new Map(owned && !owned.ok ? owned.fields.map((f) => [f.field, f]) : []);
    return errorResponse(400, 'The request does not match the API contract', {
      fields: fields.map((f) => better.get(f.field) ?? f),
    });
  };
}

/** The 405 answer for a known path asked with a method it does not serve. */
export function methodNotAllowed(method: string, path: string, allow: readonly string[]): Response {
  return errorResponse(405, `${method} is not allowed on ${path}: use ${allow.join(' or ')}`, {
    headers: { allow: allow.join(', ') },
  });
}
