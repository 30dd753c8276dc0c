/**
 * A webhook event checked without zod: `unwrapWebhook` is synchronous, and a process that only
 * receives webhooks should not load zod for them (src/load/zod.ts). The fields of each known event
 * are generated from the event schemas (src/webhooks/event-fields.generated.ts), and the result is
 * what `webhookEventSchema.safeParse` gives: the same verdict, the same issues (paths and
 * messages, in the schema's order), an equal event (the event's known fields first, then the
 * others in the body's order, an own `__proto__` key dropped). test/webhooks/event-check.test.ts
 * holds the two to that on generated payloads.
 */
import { openEnumMessage, typeName } from '../schemas/lazy/common.js';
import type { WebhookEvent } from '../schemas/lazy/webhooks.js';
import { EVENT_FIELDS, type EventFieldKind } from './event-fields.generated.js';

/** One problem with an event body: where it is, and what is wrong, worded as zod words it. */
export interface EventIssue {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

/** The event, or what is wrong with the body. */
export type EventCheck = { readonly event: WebhookEvent } | { readonly issues: readonly EventIssue[] };

const expected = (type: string, input: unknown) =>
  `Invalid input: expected ${type}, received ${typeName(input)}`;

/** The issue of `value` as a field of `kind`, if any. */
function fieldIssue(kind: EventFieldKind, value: unknown): string | undefined {
  if (typeof value === 'string') return undefined;
  if (kind === 'string') return expected('string', value);
  if (kind === 'nullish string')
    return value === null || value === undefined ? undefined : expected('string', value);
  return openEnumMessage(kind, value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks a parsed webhook body as `webhookEventSchema` does. */
export function checkWebhookEvent(body: unknown): EventCheck {
  if (!isObject(body)) return { issues: [{ path: [], message: expected('object', body) }] };
  const code = body.code;
  if (typeof code !== 'string') return { issues: [{ path: ['code'], message: expected('string', code) }] };
  // An own key only: a code such as `constructor` names no event.
  const fields = (Object.hasOwn(EVENT_FIELDS, code) ? EVENT_FIELDS[code] : undefined) ?? [];
  const issues: EventIssue[] = [];
  for (const [name, kind] of fields) {
    const message = fieldIssue(kind, body[name]);
    if (message !== undefined) issues.push({ path: [name], message });
  }
  if (issues.length > 0) return { issues };
  const event: Record<string, unknown> & { code: string } = { code };
  // An own `__proto__` key is dropped, as zod drops it: assigned, it would set the prototype.
  const known = new Set<string>(['code', '__proto__']);
  for (const [name] of fields) {
    known.add(name);
    if (name in body) event[name] = body[name];
  }
  for (const name of Object.keys(body)) if (!known.has(name)) event[name] = body[name];
  // A known code's fields were checked above; its type is still the one TypeScript calls an
  // UnknownWebhookEvent until narrowed (isKnownWebhookEvent), as with zod's result.
  const checked: WebhookEvent = event;
  return { event: checked };
}
