/**
 * The registry of the SDK's operations: every descriptor its resources declare. Tracing names,
 * raw requests, the README's endpoint table and the OpenAPI document read it; the core reads
 * none of it (it is handed the descriptors). A resource's new operation goes in its resource's
 * operations object, and so appears here without an edit.
 */
import type { AnyOperation } from '../core/call/operation.js';
import { channelNameOf } from '../core/observability/tracing.js';
import { applicantGroupOperations } from './applicant-groups.js';
import { PDF_DOWNLOAD_OPERATION, reportOperations } from './reports.js';
import { screeningGroupOperations } from './screening-groups.js';

const families = [applicantGroupOperations, reportOperations, screeningGroupOperations] as const;

/** The names a family of descriptors declares. */
type NamesOf<F> = F extends unknown
  ? { [K in keyof F]: F[K] extends { name: infer N extends string } ? N : never }[keyof F]
  : never;
/** @inline The operation names the families declare. */
type DeclaredName = NamesOf<(typeof families)[number]>;

/** Every API operation the SDK declares, in resource order. */
export const OPERATIONS: readonly AnyOperation[] = families.flatMap((family): AnyOperation[] =>
  Object.values(family),
);

/** The operations the SDK traces: the declared ones, the PDF download, the token exchange (`auth.exchange`) and `request` (a raw request to an undeclared path). */
export const TRACED_OPERATIONS: readonly TracedOperation[] = [
  // The names are the families' own (NamesOf reads them from the same objects).
  ...OPERATIONS.map((operation) => operation.name as DeclaredName),
  PDF_DOWNLOAD_OPERATION,
  'auth.exchange',
  'request',
];

/** An operation the SDK traces. */
export type TracedOperation = DeclaredName | 'reports.downloadPdf' | 'auth.exchange' | 'request';

/** Name of the `tracingChannel` of `operation`, e.g. `applicant-verification:reports.retrieve`. */
export function operationChannelName(operation: TracedOperation): string {
  return channelNameOf(operation);
}
