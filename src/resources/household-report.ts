/**
 * A group's current household income report: the reports list names the candidates, the newest
 * household report among them is read. The API has no "current" marker, so "current" is chosen
 * here, once, for every caller (docs/household-reports.md, "Household report").
 */
import type { RequestOptions } from '../core/call/http.js';
import type { ApplicantGroupReports, ReportDetail, ReportSummary } from '../schemas/lazy/reports.js';

/**
 * The household report that describes the group now: the newest by `created_at` (a later one in
 * the list wins a tie), whatever its `is_expired`. An older report is never returned in its place:
 * it predates the latest completion, so its figures are stale. Only `income` reports count
 * (`report_name` `income`, any case).
 */
export function currentHouseholdReport(reports: ApplicantGroupReports): ReportSummary | undefined {
  let best: ReportSummary | undefined;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (const summary of reports.household_reports) {
    if (summary.report_name.toLowerCase() !== 'income') continue;
    const time = Date.parse(summary.created_at);
    const at = Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY;
    if (best === undefined || at >= bestTime) {
      best = summary;
      bestTime = at;
    }
  }
  return best;
}

/** What {@link householdReport} needs of the client: the reports list and one report's detail. */
export interface HouseholdReportSource {
  /** `applicantGroups.listReports`. */
  listReports(groupId: string, options?: RequestOptions): PromiseLike<ApplicantGroupReports>;
  /** `reports.retrieve`. */
  retrieve(reportId: string, options?: RequestOptions): PromiseLike<ReportDetail>;
}

/**
 * The detail of the group's current household report, or `undefined` while the group has none
 * (not every applicant has completed yet). An expired current report throws `ReportExpiredError`.
 */
export async function householdReport(
  source: HouseholdReportSource,
  groupId: string,
  options?: RequestOptions,
): Promise<ReportDetail | undefined> {
  const current = currentHouseholdReport(await source.listReports(groupId, options));
  return current === undefined ? undefined : await source.retrieve(current.id, options);
}
