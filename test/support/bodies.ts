/** Valid applicant-group create bodies for tests. */
import type { ApplicantGroupCreateInDollars, ScreeningGroupCreateParams } from '../../src/index.js';

/** One applicant, with a phone (so two invitations). */

export function groupCreateBody(email: string, correlationId: string): ApplicantGroupCreateInDollars {
  return {
    applicants: [{ first_name: 'Ana', last_name: 'Silva', email, phone_number: '+14155550123' }],
    property: {
      name: 'Maple Court',
      street_address: '77 Maple Ave',
      city: 'Denver',
      state: 'Colorado',
      zip_code: '80203',
    },
    decision_maker_display_name: 'Maple Court Leasing',
    monthly_rent: 1950,
    correlation_id: correlationId,
  };
}

/** Two applicants whose events go to `webhookUrl`: the webhook tests' household. */
export function engineHouseBody(webhookUrl: string): ApplicantGroupCreateInDollars {
  return {
    applicants: [
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      { first_name: 'Charles', last_name: 'Babbage', email: 'charles@example.com' },
    ],
    property: {
      name: 'Engine House',
      street_address: '1 Analytical Way',
      city: 'Boston',
      state: 'Massachusetts',
      zip_code: '02110',
    },
    decision_maker_display_name: 'Engine House Leasing',
    monthly_rent: 2400,
    webhook_url: webhookUrl,
  };
}

/** A screening group at Oak Court (invitations off, correlation id `oak-<tag>`): the screening report tests' group. */
export function oakCourtBody(
  tag: string,
  applicants: ScreeningGroupCreateParams['applicants'],
): ScreeningGroupCreateParams {
  return {
    applicants,
    property: {
      name: 'Oak Court',
      street_address: '9 Oak Ct',
      city: 'Austin',
      state: 'Texas',
      zip_code: '78701',
    },
    is_decision_maker_paying: true,
    decision_maker_display_name: 'Oak Court LLC',
    monthly_rent: 1800,
    is_invitation_disabled: true,
    correlation_id: `oak-${tag}`,
  };
}
