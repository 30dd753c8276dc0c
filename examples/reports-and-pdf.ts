/**
 * Reports and PDFs: list a group's reports, read each income report (typed), download the PDF,
 * survive a stale PDF link, and recognise expired report data. Runs against the embedded mock:
 *
 *   npx tsx examples/reports-and-pdf.ts
 */
import {
  isIncomeReport,
  ReportExpiredError,
  toIsoDate,
  VerificationClient,
  type VerificationReport,
} from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

const mock = await createMockServer({ seed: 4 });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
});
const money = (amount: number | null | undefined) =>
  amount == null ? 'n/a' : `$${amount.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;

function describe(entry: VerificationReport): string {
  const sources = (entry.income_sources ?? []).map((source) => source.source).join('+') || 'no source';
  const employers = (entry.payroll_connections ?? []).map((payroll) => payroll.company_name).join(', ');
  const stream = entry.recurring?.income_streams?.[0];
  const since = stream?.start_date ? ` since ${toIsoDate(stream.start_date)}` : '';
  return `${entry.identity?.full_name ?? 'unknown'} (${entry.reason_completed}, via ${sources}): recurring ${money(entry.recurring?.three_month_avg_monthly)}/month${since}${employers ? `; employer ${employers}` : ''}`;
}

try {
  const group = await client.applicantGroups.create({
    applicants: [
      { first_name: 'Lena', last_name: 'Fischer', email: 'lena.fischer@example.com' },
      { first_name: 'Omar', last_name: 'Haddad', email: 'omar.haddad@example.com' },
    ],
    property: {
      name: 'Elm Street Homes',
      street_address: '15 Elm St',
      city: 'Portland',
      state: 'Oregon',
      zip_code: '97205',
    },
    decision_maker_display_name: 'Elm Street Homes',
    monthly_rent: 2200,
    correlation_id: 'reports-demo-1',
  });
  // The applicants verify (the mock plays them); a report appears as each one completes.
  const [lena, omar] = group.applicants;
  if (lena) mock.applicants.complete(lena.id, 'finished');
  if (omar) mock.applicants.complete(omar.id, 'no_income');

  // 1. The group's reports: one per applicant, and one for the household.
  const { individual_reports, household_reports } = await client.applicantGroups.listReports(group.id);
  console.log(
    `${individual_reports.length} individual reports, ${household_reports.length} household report`,
  );

  // 2. Each report in detail. `isIncomeReport` narrows `data` to the typed income report.
  for (const summary of individual_reports) {
    const report = await client.reports.retrieve(summary.id);
    if (!isIncomeReport(report)) continue;
    for (const entry of report.data.reports ?? []) console.log(`- ${describe(entry)}`);
  }

  // 3. The household report and its PDF. The link is pre-signed: no Authorization header is sent.
  const householdSummary = household_reports[0];
  if (!householdSummary) throw new Error('no household report');
  const household = await client.reports.retrieve(householdSummary.id);
  if (isIncomeReport(household)) {
    const criteria = (household.data.criteria_rule_results ?? []).map((rule) => rule.result).join(', ');
    console.log(
      `Household: recurring ${money(household.data.recurring?.three_month_avg_monthly)}/month; criteria ${criteria || 'none'}`,
    );
  }
  const pdf = await client.reports.downloadPdf(household); // a Uint8Array: fs.writeFile(path, pdf)
  console.log(`PDF: ${pdf.byteLength} bytes, starts with ${new TextDecoder().decode(pdf.subarray(0, 5))}`);

  // 4. PDF links expire after 2 hours. A refused link is refreshed once by retrieving the report.
  //    (The mock's clock jumps; the 30-minute access token expires too and is refreshed on the 401.)
  mock.clock.advance(3 * 60 * 60_000);
  const downloads = () => mock.stats.count('GET /files/reports/:file');
  const before = downloads();
  const again = await client.reports.downloadPdf(household);
  console.log(
    `Three hours later: ${downloads() - before} download attempts (old link refused, then a fresh one), ${again.byteLength} bytes`,
  );

  // 5. Report data that has expired answers 410: ReportExpiredError.
  mock.reports.expire(householdSummary.id);
  try {
    await client.reports.retrieve(householdSummary.id);
  } catch (error) {
    if (!(error instanceof ReportExpiredError)) throw error;
    console.log(`After expiry: ${error.name} (status ${error.status})`);
  }
} finally {
  await client.close();
  await mock.close();
}
