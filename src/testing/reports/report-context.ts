/** The group-level facts every generated report is built against (mock report data). */

/** The group-level facts a report is built against. */
export interface ReportContext {
  applicantGroupId: string;
  propertyName: string;
  monthlyRentCents: number;
  /** The report's creation time on the mock clock: every generated date is anchored on it. */
  createdAt: Date;
  /** `config.block_business_accounts` of the group: when true, no business bank account appears. */
  blockBusinessAccounts?: boolean | null;
}
