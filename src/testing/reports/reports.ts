/**
 * Reports of applicant groups: creation (income data from the report generator) and the signed,
 * time-limited PDF links. A link is `{baseUrl}/files/reports/{id}.pdf?expires=<ms>&sig=<hmac>`,
 * valid 2 hours on the mock clock from the moment the report detail was read (docs/wire-contract.md §4.4, §8).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomeReportData, VerificationReport } from 'applicant-verification';
import type { MockContext } from '../state/context.js';
import type { ApplicantGroupRecord, ApplicantRecord, ReportRecord } from '../state/store.js';
import { buildIncomeReportData, generateVerificationReport, type ReportContext } from './report-data.js';

/** Lifetime of a PDF link. */
export const PDF_LINK_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** Path pattern of PDF links, relative to the base URL. */
export const PDF_PATH_PREFIX = '/files/reports/';

// Keyed with the owning account's secret key, so a link signed under another account's key never
// verifies. Signs `expires` as the link's text carries it: whatever number the mock minted, the check
// below hashes the very characters the client sends back, so no fraction or float formatting
// can make a link fail its own signature.
function linkSignature(secretKey: string, reportId: string, expires: string): string {
  return createHmac('sha256', `pdf-link:${secretKey}`).update(`${reportId}:${expires}`).digest('hex');
}

/**
 * Mints a fresh PDF link for a report of the account `account` (its owner), valid {@link PDF_LINK_LIFETIME_MS} from now (mock clock).
 * The context's clock reads whole milliseconds (api.ts), so `expires` is a whole number.
 */
export function mintPdfUrl(context: MockContext, reportId: string, account: string): string {
  const expires = String(context.clock.now() + PDF_LINK_LIFETIME_MS);
  const sig = linkSignature(context.accounts.get(account).secretKey, reportId, expires);
  return `${context.baseUrl}${PDF_PATH_PREFIX}${reportId}.pdf?expires=${expires}&sig=${sig}`;
}

/** Why a PDF link is refused; `undefined` when it is valid now. */
export type PdfLinkProblem = 'bad_signature' | 'expired';

/** Checks the `expires` and `sig` of a PDF link to a report of `account` (its owner) against the mock clock. */
export function checkPdfLink(
  context: MockContext,
  reportId: string,
  account: string,
  query: URLSearchParams,
): PdfLinkProblem | undefined {
  const expiresText = query.get('expires') ?? '';
  const expires = Number(expiresText);
  const sig = query.get('sig') ?? '';
  if (expiresText === '' || !Number.isFinite(expires)) return 'bad_signature';
  const expected = Buffer.from(linkSignature(context.accounts.get(account).secretKey, reportId, expiresText));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature';
  return context.clock.now() > expires ? 'expired' : undefined;
}

function reportContext(group: ApplicantGroupRecord, now: number): ReportContext {
  return {
    applicantGroupId: group.id,
    propertyName: group.property.name,
    monthlyRentCents: group.monthlyRentCents,
    createdAt: new Date(now),
    blockBusinessAccounts: group.blockBusinessAccounts,
  };
}

function money(amount: number | null | undefined): string {
  return typeof amount === 'number' ? `$${amount.toFixed(2)}` : 'n/a';
}

// What the PDF shows: a readable digest of the data, enough for a human opening the file.
function pdfLines(group: ApplicantGroupRecord, data: IncomeReportData): string[] {
  const lines = [
    `Property: ${group.property.name} (${group.property.streetAddress}, ${group.property.city})`,
    `Monthly rent: ${money(group.monthlyRentCents / 100)}`,
    `Created: ${data.created_at}`,
    '',
  ];
  // The SDK's types read every report field as optional (responses are parsed liberally).
  for (const entry of data.reports ?? []) {
    lines.push(`${entry.identity?.full_name} <${entry.identity?.email}>: ${entry.reason_completed}`);
    lines.push(
      `  Recurring income, 3-month average: ${money(entry.recurring?.three_month_avg_monthly)} a month`,
    );
  }
  lines.push(
    '',
    `Household recurring income, 3-month average: ${money(data.recurring?.three_month_avg_monthly)}`,
  );
  for (const rule of data.criteria_rule_results ?? []) {
    lines.push(
      `Criteria: ${rule.result} (${rule.multiplier_result} of rent, threshold ${rule.multiplier_threshold}x)`,
    );
  }
  return lines;
}

function store(
  context: MockContext,
  group: ApplicantGroupRecord,
  kind: ReportRecord['kind'],
  applicant: ApplicantRecord | null,
  data: IncomeReportData,
): ReportRecord {
  const who = applicant ? `${applicant.firstName} ${applicant.lastName}` : 'Household';
  const report: ReportRecord = {
    id: context.ids.uuid(),
    kind,
    reportType: 'income',
    otherData: null,
    applicantGroupId: group.id,
    account: group.account,
    applicantId: applicant?.id ?? null,
    createdAt: context.clock.now(),
    expired: false,
    data,
    pdfTitle: `Income report: ${who}`,
    pdfLines: pdfLines(group, data),
  };
  context.store.addReport(report);
  return report;
}

/** Creates the individual report of an applicant who just completed: one entry per verification. */
export function createIndividualReport(
  context: MockContext,
  group: ApplicantGroupRecord,
  applicant: ApplicantRecord,
): ReportRecord {
  const ctx = reportContext(group, context.clock.now());
  const entries = applicant.verifications.map((verification) =>
    generateVerificationReport(
      context.reportRandom,
      {
        applicantId: applicant.id,
        verificationId: verification.id,
        fullName: `${applicant.firstName} ${applicant.lastName}`,
        email: applicant.email,
        reasonCompleted: applicant.reasonCompleted,
        verificationType: verification.type,
        allowedIncomeSources: verification.allowedIncomeSources,
      },
      ctx,
    ),
  );
  return store(context, group, 'individual', applicant, buildIncomeReportData(ctx, entries));
}

/** Creates the household report of a fully completed group from each applicant's latest individual report. */
export function createHouseholdReport(context: MockContext, group: ApplicantGroupRecord): ReportRecord {
  const reports = context.store.reportsOf(group.id);
  const entries: VerificationReport[] = group.applicants.flatMap((applicant) => {
    const latest = reports.findLast((r) => r.kind === 'individual' && r.applicantId === applicant.id);
    return latest?.data.reports ?? [];
  });
  const ctx = reportContext(group, context.clock.now());
  return store(context, group, 'household', null, buildIncomeReportData(ctx, entries));
}

/** The verification kinds that produce a report of their own, and its type. */
const OWN_REPORT_TYPES: Readonly<Record<string, 'identity' | 'asset'>> = {
  identity_verification: 'identity',
  asset_verification: 'asset',
};

/**
 * The identity and asset reports of an applicant who just completed: one per identity or asset
 * verification (the service's report names `Identity`, `Asset`). Their data is a small record;
 * the service documents no shape for it.
 */
export function createOwnReports(
  context: MockContext,
  group: ApplicantGroupRecord,
  applicant: ApplicantRecord,
): ReportRecord[] {
  const who = `${applicant.firstName} ${applicant.lastName}`;
  return applicant.verifications.flatMap((verification) => {
    const reportType = OWN_REPORT_TYPES[verification.type];
    if (!reportType) return [];
    const finished = applicant.reasonCompleted === 'finished';
    const otherData: Record<string, unknown> =
      reportType === 'identity'
        ? { verification_id: verification.id, full_name: who, verified: finished }
        : {
            verification_id: verification.id,
            accounts: finished
              ? [
                  {
                    name: 'Everyday Checking',
                    type: 'checking',
                    current_balance: context.reportRandom.int(500, 20_000),
                  },
                ]
              : [],
          };
    const report: ReportRecord = {
      id: context.ids.uuid(),
      kind: 'individual',
      reportType,
      applicantGroupId: group.id,
      account: group.account,
      applicantId: applicant.id,
      createdAt: context.clock.now(),
      expired: false,
      data: {},
      otherData,
      pdfTitle: `${reportType === 'identity' ? 'Identity' : 'Asset'} report: ${who}`,
      pdfLines: [`Property: ${group.property.name}`, `Applicant: ${who}`],
    };
    context.store.addReport(report);
    return [report];
  });
}
