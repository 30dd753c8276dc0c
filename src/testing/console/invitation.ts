/**
 * The invitations of the outbox as the applicant would read them: the email (subject and text)
 * and the text message the real service sends when a group is created. The wording is the mock's
 * own (the vendor does not publish its templates); what matters is who it names and where it
 * points, all taken from the group as created.
 */
import type { OutboxEntry } from '../state/outbox.js';

/** What an invitation is written from: the applicant and the group that invited them. */
export interface InvitationSubject {
  /** First name of the applicant. */
  firstName: string;
  /** Display name of the decision maker who asked. */
  decisionMaker: string;
  /** Property name, with the unit when there is one. */
  property: string;
}

/** One invitation as it reads: `subject` for an email only, and the text. */
export interface RenderedInvitation {
  /** The email's subject line; `null` for a text message. */
  subject: string | null;
  /** The email's plain-text body, or the text message, lines joined with `\n`. */
  text: string;
}

/** Where the invitation's link points: the mock's stand-in for the vendor's applicant flow. */
export const invitationLink = (applicantId: string): string =>
  `https://applicant.verification.test/start/${applicantId}`;

/** Renders one outbox entry as the applicant reads it. */
export function renderInvitation(entry: OutboxEntry, subject: InvitationSubject): RenderedInvitation {
  const link = invitationLink(entry.applicantId);
  if (entry.channel === 'sms') {
    return {
      subject: null,
      text: `${subject.decisionMaker} asks you to verify your income for ${subject.property}: ${link}`,
    };
  }
  return {
    subject: `${subject.decisionMaker} asks you to verify your income for ${subject.property}`,
    text: [
      `Hi ${subject.firstName},`,
      '',
      `${subject.decisionMaker} is reviewing your application for ${subject.property} and asks you to verify your income. Connect your bank or payroll account: it takes a few minutes, and ${subject.decisionMaker} sees a read-only income report, never your login.`,
      '',
      `Start here: ${link}`,
      '',
      'This invitation expires in 14 days.',
    ].join('\n'),
  };
}
