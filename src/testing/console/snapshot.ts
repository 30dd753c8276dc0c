/**
 * `GET /__mock/snapshot`: everything the console shows, in one JSON answer read from the mock's
 * controls (the same reads a test makes): the accounts, the groups with their applicants and
 * states, the outbox as the applicants read it, the webhook deliveries with their signature check
 * and faults, the reports with their income summary, the pending faults and the clock.
 */
import { verifyWebhook } from 'applicant-verification';
import type { MockControls } from '../controls/mock-controls.js';
import type { PendingFault } from '../faults/faults.js';
import {
  type ApplicantGroupRecord,
  groupStatus,
  isGroupExpired,
  type Progress,
  type ScreeningGroupRecord,
} from '../state/store.js';
import type { PendingWebhookFault, WebhookFault } from '../webhooks/webhook-faults.js';
import { type InvitationSubject, renderInvitation } from './invitation.js';

/** One applicant of an applicant group, or one screening of a screening group. */
export interface SnapshotMember {
  /** Applicant or screening id: the id the applicant controls take. */
  id: string;
  /** First name. */
  firstName: string;
  /** Last name. */
  lastName: string;
  /** Email address. */
  email: string;
  /** Phone number, `null` when none was given. */
  phoneNumber: string | null;
  /** not_started, in_progress or completed. */
  status: Progress;
  /** Why it completed, or `not_completed`. */
  reasonCompleted: string;
}

/** One group, of either family. */
export interface SnapshotGroup {
  /** `applicant_group` or `screening_group`. */
  family: 'applicant_group' | 'screening_group';
  /** Group id. */
  id: string;
  /** Client id of the account that created it. */
  account: string;
  /** The caller's correlation id, `null` when none was given. */
  correlationId: string | null;
  /** Property name, with the unit when there is one. */
  property: string;
  /** Display name of the decision maker. */
  decisionMaker: string;
  /** Status computed from the members'. */
  status: Progress;
  /** Whether its 14 days ran out before it completed. */
  expired: boolean;
  /** Mock clock time of creation, ISO 8601. */
  createdAt: string;
  /** Its applicants (or screenings). */
  members: SnapshotMember[];
}

/** One invitation of the outbox, as the applicant reads it. */
export interface SnapshotInvitation {
  /** `email` or `sms`. */
  channel: 'email' | 'sms';
  /** Email address or phone number. */
  to: string;
  /** Group id. */
  groupId: string;
  /** Applicant (or screening) id. */
  applicantId: string;
  /** Client id of the account that created the group. */
  account: string;
  /** Mock clock time of sending, ISO 8601. */
  at: string;
  /** The email's subject; `null` for a text message. */
  subject: string | null;
  /** The email's text, or the text message. */
  text: string;
}

/** One webhook delivery. */
export interface SnapshotDelivery {
  /** Delivery id: the redeliver control takes it. */
  id: number;
  /** Event code. */
  code: string;
  /** The group the event is about, when the mock holds it. */
  groupId: string | null;
  /** Client id of the account owning the group. */
  account: string;
  /** Receiver URL. */
  url: string;
  /** Status of the last answer; `null` before any or after a connection error. */
  status: number | null;
  /** Attempts so far. */
  attempts: number;
  /** Whether an attempt got a 2xx. */
  delivered: boolean;
  /** Whether a drop fault kept it from being sent. */
  dropped: boolean;
  /** Message of the last connection error. */
  error: string | null;
  /** The webhook fault it suffered, if any. */
  fault: WebhookFault | null;
  /** The delivery it repeats, when made by redeliver. */
  redeliveryOf: number | null;
  /** Whether the signature header verifies against the body with the account's webhook secret. */
  signatureValid: boolean;
  /** The raw body sent. */
  body: string;
}

/** One report, with its income summary. */
export interface SnapshotReport {
  /** Report id. */
  id: string;
  /** `individual` or `household`. */
  kind: 'individual' | 'household';
  /** `income`, `identity` or `asset`. */
  reportType: string;
  /** The applicant group. */
  groupId: string;
  /** The applicant of an individual report, `null` for a household one. */
  applicantId: string | null;
  /** First and last name of that applicant, `null` for a household report. */
  applicantName: string | null;
  /** Client id of the owning account. */
  account: string;
  /** Mock clock time of creation, ISO 8601. */
  createdAt: string;
  /** Whether its data expired. */
  expired: boolean;
  /** Recurring income in dollars over the report's period (income reports), else `null`. */
  recurringTotal: number | null;
  /** Average monthly recurring income over three months in dollars, else `null`. */
  recurringMonthly: number | null;
  /** Non-recurring income in dollars (income reports), else `null`. */
  nonRecurringTotal: number | null;
  /** The control API's path that redirects to a fresh signed PDF link. */
  pdfPath: string;
}

/** What `GET /__mock/snapshot` answers. */
export interface MockSnapshot {
  /** Mock clock, epoch ms. */
  now: number;
  /** Mock clock, ISO 8601. */
  iso: string;
  /** Client ids of the accounts. */
  accounts: string[];
  /** Groups of both families, oldest first. */
  groups: SnapshotGroup[];
  /** Invitations, in sending order. */
  outbox: SnapshotInvitation[];
  /** Webhook deliveries, in recording order. */
  deliveries: SnapshotDelivery[];
  /** Reports, oldest first. */
  reports: SnapshotReport[];
  /** Request faults still pending (a RegExp path shown as its source). */
  faults: unknown[];
  /** Webhook faults still pending. */
  webhookFaults: PendingWebhookFault[];
}

type AnyGroup = ApplicantGroupRecord | ScreeningGroupRecord;

const iso = (ms: number): string => new Date(Math.floor(ms)).toISOString();

function propertyOf(group: AnyGroup): string {
  if (group.family === 'applicant_group') {
    return group.unitNumber === '' ? group.property.name : `${group.property.name}, unit ${group.unitNumber}`;
  }
  return group.unit === null ? group.propertyName : `${group.propertyName}, unit ${group.unit}`;
}

function membersOf(group: AnyGroup): SnapshotMember[] {
  const members = group.family === 'applicant_group' ? group.applicants : group.screenings;
  return members.map((member) => ({
    id: member.id,
    firstName: member.firstName,
    lastName: member.lastName,
    email: member.email,
    phoneNumber: member.phoneNumber,
    status: member.status,
    reasonCompleted: member.reasonCompleted,
  }));
}

function groupOf(group: AnyGroup, now: number): SnapshotGroup {
  const members = membersOf(group);
  return {
    family: group.family,
    id: group.id,
    account: group.account,
    correlationId: group.correlationId,
    property: propertyOf(group),
    decisionMaker: group.decisionMakerDisplayName,
    status: groupStatus(members),
    expired: isGroupExpired(group, now),
    createdAt: iso(group.createdAt),
    members,
  };
}

const pendingFaults = (faults: PendingFault[]): unknown[] =>
  faults.map((entry) => ({
    ...entry,
    match: entry.match && {
      ...entry.match,
      path: entry.match.path instanceof RegExp ? String(entry.match.path) : entry.match.path,
    },
  }));

// An event names its group directly, or through a verification of one of its applicants.
function groupOfEvent(event: Record<string, unknown>, byVerification: Map<string, string>): string | null {
  for (const key of ['applicant_group_id', 'screening_group_id'] as const) {
    const value = event[key];
    if (typeof value === 'string') return value;
  }
  const verification = event.verification_id;
  return typeof verification === 'string' ? (byVerification.get(verification) ?? null) : null;
}

const dollars = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** Reads everything the console shows from `controls`. */
export function takeSnapshot(controls: MockControls): MockSnapshot {
  const now = controls.clock.now();
  const groups: AnyGroup[] = [...controls.state.applicantGroups, ...controls.state.screeningGroups].sort(
    (a, b) => a.createdAt - b.createdAt,
  );
  const subjects = new Map<string, InvitationSubject>();
  const byVerification = new Map<string, string>();
  const names = new Map<string, string>();
  for (const group of groups) {
    const members = group.family === 'applicant_group' ? group.applicants : group.screenings;
    for (const member of members) {
      names.set(member.id, `${member.firstName} ${member.lastName}`);
      subjects.set(member.id, {
        firstName: member.firstName,
        decisionMaker: group.decisionMakerDisplayName,
        property: propertyOf(group),
      });
    }
    if (group.family === 'applicant_group') {
      for (const applicant of group.applicants)
        for (const verification of applicant.verifications) byVerification.set(verification.id, group.id);
    }
  }
  const secrets = new Map(
    controls.accounts.map((account) => [account.clientId, account.webhookSecret ?? account.secretKey]),
  );
  const signatureValid = (body: string, signature: string, account: string): boolean => {
    try {
      verifyWebhook(body, signature, secrets.get(account));
      return true;
    } catch {
      return false;
    }
  };
  return {
    now,
    iso: iso(now),
    accounts: controls.accounts.map((account) => account.clientId),
    groups: groups.map((group) => groupOf(group, now)),
    outbox: controls.outbox.all().map((entry) => {
      const rendered = renderInvitation(
        entry,
        subjects.get(entry.applicantId) ?? { firstName: '', decisionMaker: '', property: '' },
      );
      return {
        channel: entry.channel,
        to: entry.to,
        groupId: entry.groupId,
        applicantId: entry.applicantId,
        account: entry.account,
        at: iso(entry.at),
        subject: rendered.subject,
        text: rendered.text,
      };
    }),
    deliveries: controls.deliveries.all().map((record) => ({
      id: record.id,
      code: record.event.code,
      groupId: groupOfEvent({ ...record.event }, byVerification),
      account: record.account,
      url: record.url,
      status: record.status,
      attempts: record.attempts,
      delivered: record.delivered,
      dropped: record.dropped === true,
      error: record.error ?? null,
      fault: record.fault ?? null,
      redeliveryOf: record.redeliveryOf ?? null,
      signatureValid: signatureValid(record.body, record.signature, record.account),
      body: record.body,
    })),
    reports: controls.reports.all().map((report) => ({
      id: report.id,
      kind: report.kind,
      reportType: report.reportType,
      groupId: report.applicantGroupId,
      applicantId: report.applicantId,
      applicantName: report.applicantId === null ? null : (names.get(report.applicantId) ?? null),
      account: report.account,
      createdAt: iso(report.createdAt),
      expired: report.expired,
      recurringTotal: dollars(report.data.recurring?.total),
      recurringMonthly: dollars(report.data.recurring?.three_month_avg_monthly),
      nonRecurringTotal: dollars(report.data.non_recurring?.total),
      pdfPath: `/__mock/reports/${report.id}/pdf`,
    })),
    faults: pendingFaults(controls.faults.pending()),
    webhookFaults: controls.webhookFaults.pending(),
  };
}
