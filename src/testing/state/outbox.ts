/**
 * The invitation outbox: what the real service would send by email and text when a group is
 * created. Nothing leaves the process; tests read the entries to check that invitations were
 * sent exactly once (the SDK must never duplicate them on retries).
 */

import { type AccountFilter, belongsTo } from '../accounts/accounts.js';

/** One invitation the mock "sent". */
export interface OutboxEntry {
  /** `email` for every applicant, `sms` too when a phone number was given. */
  channel: 'email' | 'sms';
  /** Email address or phone number. */
  to: string;
  /** Id of the applicant group or screening group. */
  groupId: string;
  /** Id of the applicant (applicant groups) or of the screening (screening groups). */
  applicantId: string;
  /** Client id of the account that created the group. */
  account: string;
  /** Which interface family created the group. */
  family: 'applicant_group' | 'screening_group';
  /** Mock clock time of sending, epoch ms. */
  at: number;
}

/** Read and reset access to the invitations sent so far. */
export interface Outbox {
  /** Every entry (or one account's: `{ account: clientId }`), in sending order (copies). */
  all(filter?: AccountFilter): OutboxEntry[];
  /** Entries of one group (of `filter.account` only, when given). */
  forGroup(groupId: string, filter?: AccountFilter): OutboxEntry[];
  /** Number of entries, optionally only of one channel. */
  count(channel?: OutboxEntry['channel']): number;
  /** Forgets every entry. */
  clear(): void;
}

/** The outbox with the method the mock uses to add entries. */
export interface WritableOutbox extends Outbox {
  /** Records one invitation. */
  push(entry: OutboxEntry): void;
}

/** Creates an empty outbox. */
export function createOutbox(): WritableOutbox {
  const entries: OutboxEntry[] = [];
  const copies = (keep: (entry: OutboxEntry) => boolean): OutboxEntry[] =>
    entries.filter(keep).map((entry) => ({ ...entry }));
  return {
    all: (filter) => copies((entry) => belongsTo(entry, filter)),
    forGroup: (groupId, filter) => copies((entry) => entry.groupId === groupId && belongsTo(entry, filter)),
    count: (channel) =>
      channel ? entries.filter((entry) => entry.channel === channel).length : entries.length,
    clear: () => {
      entries.length = 0;
    },
    push: (entry) => {
      entries.push({ ...entry });
    },
  };
}
