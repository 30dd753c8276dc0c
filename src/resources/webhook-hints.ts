/**
 * Webhooks as hints: an event says which group to look at, never what its state is. The group is
 * read from the API and compared with the sync store, so a repeated event changes nothing and a
 * late one cannot roll a status back.
 */
import type { RequestOptions } from '../core/call/http.js';
import { isKnownWebhookEvent, type WebhookEvent } from '../schemas/lazy/webhooks.js';
import {
  type AccountGroupStore,
  type GroupChange,
  refreshGroup,
  type SyncOptions,
  type SyncSource,
  syncGroups,
} from './group-sync.js';

/** The applicant group an event names directly (`REPORT_READY`). */
function groupIdOf(event: WebhookEvent): string | undefined {
  return isKnownWebhookEvent(event) && event.code === 'REPORT_READY' ? event.applicant_group_id : undefined;
}

/** The verification a `VERIFICATION_*` event names (those name no group). */
function verificationIdOf(event: WebhookEvent): string | undefined {
  if (!isKnownWebhookEvent(event)) return undefined;
  return event.code === 'VERIFICATION_STARTED' || event.code === 'VERIFICATION_COMPLETED'
    ? event.verification_id
    : undefined;
}

/**
 * The changes an event points at: its group read from the API and diffed against the store. An
 * event naming only a verification finds its group through the store. A group the store does not
 * know yet (created elsewhere, or before the store existed) runs one sync pass, which records it
 * (and yields whatever else changed); a bounded list, never a walk of the whole account. Events of
 * screening groups, and unknown codes, yield nothing.
 */
export async function* changesFromEvent(
  source: SyncSource,
  store: AccountGroupStore,
  event: WebhookEvent,
  options: SyncOptions = {},
): AsyncGenerator<GroupChange, void, undefined> {
  const { marginMs: _margin, now: _now, ...request } = options;
  const verificationId = verificationIdOf(event);
  const groupId =
    groupIdOf(event) ??
    (verificationId === undefined ? undefined : await store.groupOfVerification(verificationId));
  if (groupId !== undefined && (await store.get(groupId)) !== undefined) {
    yield* refreshGroup(source, store, groupId, request satisfies RequestOptions);
  } else if (groupId !== undefined || verificationId !== undefined) {
    yield* syncGroups(source, store, options);
  }
}
