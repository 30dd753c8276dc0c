/**
 * Group creation from validated bodies: builds the records, stores them, and records the
 * invitations the real service would send (one email per applicant, one text per phone number)
 * unless invitations are disabled.
 */

import type { ApplicantGroupCreate, ScreeningGroupCreate } from '../server/validation.js';
import type { MockContext } from './context.js';
import type { OutboxEntry } from './outbox.js';
import { DEFAULT_VERIFICATION_TYPE } from './serialize.js';
import type { ApplicantGroupRecord, ScreeningGroupRecord } from './store.js';

/** Default of the deprecated income multiplier (docs/wire-contract.md §4.6, §8). */
export const DEFAULT_INCOME_MULTIPLIER = 2.5;

// Creation times carry a sub-millisecond fraction, as the service's float timestamps do, drawn
// from the seeded stream so output stays deterministic. Within one millisecond they never go
// back (a group created later is never stamped earlier, as on the service), so the list index
// can bisect by creation time; only a clock set backwards breaks that order.
function creationTime(context: MockContext): number {
  const now = context.clock.now();
  const drawn = now + Math.floor(context.ids.next() * 1000) / 1000;
  const last = context.store.lastCreatedAt;
  return Math.floor(last) === Math.floor(now) && last > drawn ? last : drawn;
}

function invite(
  context: MockContext,
  family: OutboxEntry['family'],
  group: { id: string; account: string },
  members: readonly { id: string; email: string; phoneNumber: string | null }[],
): void {
  const sent = { groupId: group.id, account: group.account, family, at: context.clock.now() };
  for (const member of members) {
    context.outbox.push({ channel: 'email', to: member.email, applicantId: member.id, ...sent });
    if (member.phoneNumber) {
      context.outbox.push({ channel: 'sms', to: member.phoneNumber, applicantId: member.id, ...sent });
    }
  }
}

// Rents are whole dollars (validation.ts refuses fractions), so this is exact.
const cents = (dollars: number): number => dollars * 100;

/** Creates, stores and (unless disabled) invites an applicant group of the account `account`. */
export function createApplicantGroup(
  context: MockContext,
  body: ApplicantGroupCreate,
  account: string,
): ApplicantGroupRecord {
  const now = context.clock.now();
  const group: ApplicantGroupRecord = {
    family: 'applicant_group',
    account,
    id: context.ids.uuid(),
    decisionMakerDisplayName: body.decision_maker_display_name,
    property: {
      id: context.ids.uuid(),
      name: body.property.name,
      streetAddress: body.property.street_address,
      city: body.property.city,
      state: body.property.state,
      zipCode: body.property.zip_code,
    },
    unitNumber: body.property.unit ?? '',
    unitId: body.unit_id ?? null,
    monthlyRentCents: context.rentUnit === 'cents' ? body.monthly_rent : cents(body.monthly_rent),
    isFree: false,
    isDecisionMakerPaying: body.is_decision_maker_paying ?? true,
    correlationId: body.correlation_id ?? null,
    webhookUrl: body.webhook_url ?? null,
    isInvitationDisabled: body.is_invitation_disabled === true,
    blockBusinessAccounts: body.config?.block_business_accounts ?? null,
    createdAt: creationTime(context),
    expiryStart: now,
    completedAt: null,
    applicants: body.applicants.map((applicant) => {
      const requested = applicant.verifications ?? [];
      const kinds =
        requested.length > 0
          ? requested
          : [{ type: DEFAULT_VERIFICATION_TYPE, allowed_income_sources: null }];
      return {
        id: context.ids.uuid(),
        firstName: applicant.first_name,
        lastName: applicant.last_name,
        email: applicant.email,
        phoneNumber: applicant.phone_number ?? null,
        createdAt: now,
        updatedAt: now,
        status: 'not_started',
        reasonCompleted: 'not_completed',
        verifications: kinds.map((kind) => ({
          id: context.ids.uuid(),
          type: kind.type,
          status: 'not_started',
          allowedIncomeSources: kind.allowed_income_sources ?? null,
        })),
      };
    }),
  };
  context.store.addApplicantGroup(group);
  if (!group.isInvitationDisabled) invite(context, 'applicant_group', group, group.applicants);
  return group;
}

/** Creates, stores and (unless disabled) invites a screening group of the account `account`. */
export function createScreeningGroup(
  context: MockContext,
  body: ScreeningGroupCreate,
  account: string,
): ScreeningGroupRecord {
  const now = context.clock.now();
  const group: ScreeningGroupRecord = {
    family: 'screening_group',
    account,
    id: context.ids.uuid(),
    propertyName: body.property.name,
    streetAddress: body.property.street_address,
    city: body.property.city,
    state: body.property.state,
    zipCode: body.property.zip_code,
    unit: body.property.unit ?? null,
    monthlyRentCents: cents(body.monthly_rent),
    isDecisionMakerPaying: body.is_decision_maker_paying,
    decisionMakerDisplayName: body.decision_maker_display_name,
    incomeMultiplierThreshold: body.income_multiplier_threshold ?? DEFAULT_INCOME_MULTIPLIER,
    criteriaRuleSetId: body.criteria_rule_set_id ?? null,
    correlationId: body.correlation_id ?? null,
    webhookUrl: body.webhook_url ?? null,
    isInvitationDisabled: body.is_invitation_disabled === true,
    createdAt: creationTime(context),
    expiryStart: now,
    completedAt: null,
    hasReport: false,
    reportExpired: false,
    screenings: body.applicants.map((applicant) => ({
      id: context.ids.uuid(),
      firstName: applicant.applicant_first_name,
      lastName: applicant.applicant_last_name,
      email: applicant.applicant_email,
      phoneNumber: applicant.applicant_phone_number ?? null,
      status: 'not_started',
      reasonCompleted: 'not_completed',
      monthlyIncomeCents: null,
    })),
  };
  context.store.addScreeningGroup(group);
  if (!group.isInvitationDisabled) invite(context, 'screening_group', group, group.screenings);
  return group;
}
