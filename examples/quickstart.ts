/**
 * Quick start, end to end against the embedded mock server: authenticate, create a group, list
 * it, move the applicants through the flow, read the reports and download a PDF.
 *
 *   npm run demo
 *
 * To run it against the real API instead, set VERIFICATION_BASE_URL, VERIFICATION_CLIENT_ID and
 * VERIFICATION_SECRET_KEY and pass `--live` (it then creates a real group and sends real
 * invitations, so use test applicants).
 */
import { affordability, centsToDollars, isIncomeReport, VerificationClient } from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

const live = process.argv.includes('--live');
const mock = live ? undefined : await createMockServer({ seed: 7 });
const client = new VerificationClient(
  mock ? { baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey } : {},
);
const dollars = (amount: number | null | undefined) =>
  amount == null ? 'n/a' : `$${amount.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;

try {
  // 1. Create a group. The correlation_id makes the create safe to retry.
  const group = await client.applicantGroups.create({
    applicants: [
      { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com', phone_number: '+14155550123' },
      { first_name: 'John', last_name: 'Roe', email: 'john.roe@example.com' },
    ],
    property: {
      name: 'Harbor View Apartments',
      street_address: '120 Harbor Way',
      city: 'San Francisco',
      state: 'California',
      zip_code: '94105',
      unit: '4B',
    },
    decision_maker_display_name: 'Harbor View Property Management',
    monthly_rent: 2850,
    correlation_id: `quickstart-${Date.now()}`,
  });
  console.log(`Created group ${group.id} (${group.status}) for ${group.applicants.length} applicants`);

  // 2. Find it again through the list endpoint.
  const listed = await client.applicantGroups.findByCorrelationId(group.correlation_id ?? '');
  console.log(`Listed by correlation_id: ${listed?.id === group.id ? 'found' : 'missing'}`);

  // 3. The applicants verify their income (the mock plays them; in production they do it).
  if (mock) {
    console.log(`Invitations sent: ${mock.outbox.forGroup(group.id).length} (emails and texts)`);
    for (const applicant of group.applicants) {
      mock.applicants.start(applicant.id);
      mock.applicants.complete(applicant.id, 'finished');
    }
  }
  const done = await client.applicantGroups.waitForCompletion(group, { pollInterval: live ? 30_000 : 10 });
  console.log(`Group is now ${done.status}`);

  // 4. Read the reports.
  const reports = await client.applicantGroups.listReports(group.id);
  const rent = centsToDollars(group.monthly_rent_cents);
  console.log(`\nRent: ${dollars(rent)} a month`);
  for (const summary of reports.individual_reports) {
    const report = await client.reports.retrieve(summary.id);
    if (!isIncomeReport(report)) continue;
    const entry = report.data.reports?.[0];
    const monthly = report.data.recurring?.three_month_avg_monthly;
    // Income to rent as the report's own criteria rule defines it; a null figure is unknown.
    const ratio = affordability(report).ratio?.toFixed(2) ?? 'n/a';
    const criteria = (report.data.criteria_rule_results ?? []).map(
      (rule) => `${rule.criteria_used}: ${rule.result}`,
    );
    console.log(
      `- ${entry?.identity?.full_name ?? summary.applicant_id}: recurring ${dollars(monthly)}/month (${ratio}x rent); ${criteria.join(', ') || 'no criteria'}`,
    );
  }
  for (const summary of reports.household_reports) {
    const report = await client.reports.retrieve(summary.id);
    if (!isIncomeReport(report)) continue;
    const monthly = report.data.recurring?.three_month_avg_monthly;
    const decision = affordability(report);
    const verdict = decision.passed ? 'passes' : `fails (${decision.reasons.map((r) => r.code).join(', ')})`;
    console.log(
      `Household: recurring ${dollars(monthly)}/month, ${decision.ratio?.toFixed(2) ?? 'n/a'}x rent: ${verdict} (threshold ${decision.threshold}x)`,
    );

    // 5. Download its PDF (the link is pre-signed: no Authorization header is sent).
    const pdf = await client.reports.downloadPdf(report);
    const header = new TextDecoder().decode(pdf.slice(0, 5));
    console.log(`PDF: ${pdf.byteLength} bytes, starts with ${header}`);
  }
} finally {
  await client.close();
  await mock?.close();
}
