/**
 * The invitation outbox: what the real service would send by email and text when a group is
 * created. Nothing leaves the process; tests read the entries to check that invitations were
 * sent exactly once (the SDK must never duplicate them on retries).
 */

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
  /** Which interface family created the group. */
  family: 'applicant_group' | 'screening_group';
  /** Mock clock time of sending, epoch ms. */
  at: number;
}

/** Read and reset access to the invitations sent so far. */
export interface Outbox {
  /** Every entry, in sending order (a copy). */
  all(): OutboxEntry[];
  /** Entries of one group. */
  forGroup(groupId: string): OutboxEntry[];
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
  return {
    all: () => entries.map((entry) => ({ ...entry })),
    forGroup: (groupId) =>
      entries.filter((entry) => entry.groupId === groupId).map((entry) => ({ ...entry })),
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
