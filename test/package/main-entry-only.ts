/**
 * A user's TypeScript file that imports only the main entry: `.ci/package-checks` type-checks it
 * without the DOM library and with skipLibCheck false, so the SDK's declarations (and undici's
 * and zod's, which they import) need nothing a Node project does not have.
 */
import { isIncomeReport, type ReportDetail, type VerificationClient } from 'applicant-verification';

/** The household's three-month average monthly recurring income, if the report is an income report. */
export async function recurringIncome(
  client: VerificationClient,
  id: string,
): Promise<number | null | undefined> {
  const report: ReportDetail = await client.reports.retrieve(id);
  return isIncomeReport(report) ? report.data.recurring?.three_month_avg_monthly : undefined;
}
