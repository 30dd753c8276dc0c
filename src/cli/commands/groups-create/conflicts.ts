/**
 * Whether a group found by a household's correlation id is that household (the SDK's comparator:
 * applicants' emails, rent, unit). A group holding other applicants, rent or unit than the row is a conflict: the household was edited since
 * the group was created, or someone reused the id. Counting it as "already existed" would leave
 * a new applicant uninvited without a word; creating another group would invite the others twice.
 */
import {
  type ApplicantGroup,
  centsToDollars,
  householdDifferences,
  isSameHousehold,
} from 'applicant-verification';
import { rentCentsMeant } from '../../../internal.js';

/** What the comparator reads of a household's body: its applicants' emails, its rent, its unit. */
export type ComparedBody = Parameters<typeof householdDifferences>[1];

/**
 * What the conflict check reads of a group, and its id: a run keeps this of each group it found
 * (a rerun of 100,000 households finds 100,000), not the group with its applicants' names.
 */
export interface ComparedGroup {
  id: string;
  applicants: { email: string }[];
  monthly_rent_cents: number;
  unit_number?: string | null | undefined;
  /** Whether the group expired (an expired group is not the household's live one: expiry.ts). */
  is_expired: boolean;
  /** When it was created (the newest expired group stands for a household with no live one). */
  created_at_timestamp: number;
}

/** `group` as the conflict check and the expiry rules read it. */
export function compactGroup(group: ApplicantGroup): ComparedGroup {
  return {
    id: group.id,
    applicants: group.applicants.map((applicant) => ({ email: applicant.email })),
    monthly_rent_cents: group.monthly_rent_cents,
    unit_number: group.unit_number,
    is_expired: group.is_expired,
    created_at_timestamp: group.created_at_timestamp,
  };
}

/** Both sides of a conflict, for the results log and the message. */
export interface Conflict {
  groupId: string;
  /** The group's applicants' emails and rent, as the server holds them. */
  serverEmails: string[];
  serverRentCents: number;
  /** The row's. */
  rowEmails: string[];
  rowRentCents: number;
  /** The units, when they differ (`''`: none). */
  units?: { server: string; row: string } | undefined;
}

function emailsOf(applicants: readonly { email: string }[]): string[] {
  return [...new Set(applicants.map((applicant) => applicant.email.trim().toLowerCase()))].sort();
}

/** The conflict between `group` and the household's `body`, or `undefined` when they agree. */
export function findConflict(group: ComparedGroup, body: ComparedBody): Conflict | undefined {
  const serverEmails = emailsOf(group.applicants);
  const rowEmails = emailsOf(body.applicants);
  const rowRentCents = rentCentsMeant(body) ?? Number.NaN;
  // The SDK's one comparator decides (applicants, rent, unit), as createOnce and recovery do.
  const differences = householdDifferences(group, body);
  if (isSameHousehold(differences)) return undefined;
  const unit = differences.find((difference) => difference.kind === 'unit');
  return {
    groupId: group.id,
    serverEmails,
    serverRentCents: group.monthly_rent_cents,
    rowEmails,
    rowRentCents,
    units: unit ? { server: unit.group, row: unit.intended } : undefined,
  };
}

function dollars(cents: number): string {
  return `$${centsToDollars(cents).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * `conflict: group G has applicants a@x; b@y and rent $1,200.00; the row has a@x; c@z and rent
 * $1,250.00`. `mask` hides the emails for terminal output; the results log keeps them.
 */
export function describeConflict(
  conflict: Conflict,
  mask: (text: string) => string = (text) => text,
): string {
  const list = (emails: readonly string[]) => mask(emails.join('; '));
  return `conflict: group ${conflict.groupId} has applicants ${list(conflict.serverEmails)} and rent ${dollars(conflict.serverRentCents)}${conflict.units ? ` (unit "${conflict.units.server}")` : ''}; the row has applicants ${list(conflict.rowEmails)} and rent ${dollars(conflict.rowRentCents)}${conflict.units ? ` (unit "${conflict.units.row}")` : ''}. Nothing was created: fix the row, or give a new --batch-id to create a new group`;
}
