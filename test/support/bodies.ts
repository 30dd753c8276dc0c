/** A valid applicant-group create body for tests: one applicant (with a phone, so two invitations). */
import type { ApplicantGroupCreateParams } from '../../src/index.js';

export function groupCreateBody(email: string, correlationId: string): ApplicantGroupCreateParams {
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
