/**
 * Mock fidelity to the service's reference (docs/wire-contract.md §2.4, §11): report names
 * `Income`, `Identity`, `Asset`; an identity and an asset report appear (individual, each with its
 * REPORT_READY) when an applicant with those verifications completes.
 */
import { describe, expect, it } from 'vitest';
import { isIncomeReport, type VerificationClient } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { mockWithClient } from '../support/mock-client.js';

let mock: MockServer;
let client: VerificationClient;
mockWithClient((pair) => ({ mock, client } = pair), { mock: { seed: 7 } });

describe('report names and report types', () => {
  it('an applicant with income, identity and asset verifications gets one report of each', async () => {
    const group = await client.applicantGroups.create({
      applicants: [
        {
          first_name: 'Ida',
          last_name: 'Asset',
          email: 'ida.asset@example.com',
          verifications: [
            { type: 'payroll_income_verification' },
            { type: 'identity_verification' },
            { type: 'asset_verification' },
          ],
        },
      ],
      property: { name: 'Vault', street_address: '1 Vault Rd', city: 'Reno', state: 'NV', zip_code: '89501' },
      decision_maker_display_name: 'Vault PM',
      monthly_rent: 1500,
      is_invitation_disabled: true,
    });
    const applicant = group.applicants[0]?.id ?? '';
    mock.applicants.complete(applicant, 'finished');

    const { individual_reports, household_reports } = await client.applicantGroups.listReports(group.id);
    expect(individual_reports.map((report) => report.report_name).sort()).toEqual([
      'Asset',
      'Identity',
      'Income',
    ]);
    expect(individual_reports.every((report) => report.applicant_id === applicant)).toBe(true);
    expect(household_reports.map((report) => report.report_name)).toEqual(['Income']);

    const details = await Promise.all(individual_reports.map((report) => client.reports.retrieve(report.id)));
    expect(details.map((detail) => detail.report_type).sort()).toEqual(['asset', 'identity', 'income']);
    const identity = details.find((detail) => detail.report_type === 'identity');
    expect(identity && !isIncomeReport(identity) ? identity.data : undefined).toMatchObject({
      full_name: 'Ida Asset',
      verified: true,
    });
  });

  it('an applicant with the default verification gets an income report only', async () => {
    const group = await client.applicantGroups.create({
      applicants: [{ first_name: 'Pat', last_name: 'Pay', email: 'pat.pay@example.com' }],
      property: { name: 'Mill', street_address: '2 Mill St', city: 'Reno', state: 'NV', zip_code: '89501' },
      decision_maker_display_name: 'Mill PM',
      monthly_rent: 1400,
      is_invitation_disabled: true,
    });
    mock.applicants.complete(group.applicants[0]?.id ?? '', 'finished');
    const { individual_reports } = await client.applicantGroups.listReports(group.id);
    expect(individual_reports.map((report) => report.report_name)).toEqual(['Income']);
  });
});
