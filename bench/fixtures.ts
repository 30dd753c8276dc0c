/**
 * Canned, wire-shaped response bodies for the benchmark server: applicant group list pages and a
 * ~60 KB income report detail built by the mock's own report generator. Deterministic: the same
 * bytes every run, so runs compare.
 */
import { SignJWT } from 'jose';
import { buildIncomeReportData, generateVerificationReport } from '../src/testing/reports/report-data.js';

/** Credentials the benchmark server accepts (it checks nothing; they only have to be sent). */
export const CLIENT_ID = 'bench_client';
export const SECRET_KEY = 'bench_secret_key_value';

/** The access token the benchmark servers hand out: a JWT valid for three hours from now. */
export function benchToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'bench-tenant' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + 3 * 3600)
    .sign(new TextEncoder().encode('bench-signing-key-not-a-secret'));
}

/** The id every benchmark retrieves. */
export const REPORT_ID = '7c0c1f3e-5a4d-4b8e-9f21-6d3a2b1c0e99';
/** Items per page of the bulk listing (the memory test walks 400 of them). */
export const BULK_PAGE_SIZE = 25;
/** Items in the bulk listing. */
export const BULK_TOTAL = 10_000;
/** The `search` value that selects the bulk listing. */
export const BULK_SEARCH = 'bulk';

/** A small seeded PRNG (mulberry32): floats in [0, 1). */
export function seeded(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function uuid(n: number, kind: number): string {
  const hex = (n * 2_654_435_761 + kind * 40_503).toString(16).padStart(12, '0').slice(-12);
  return `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${hex}`;
}

const FIRST = ['Maya', 'Jordan', 'Priya', 'Lucas', 'Amara', 'Wei', 'Sofia', 'Mateo'];
const LAST = ['Okafor', 'Lee', 'Raman', 'Silva', 'Nguyen', 'Kowalski', 'Haddad', 'Brown'];
const STATUSES = ['not_started', 'in_progress', 'completed'];

/** One applicant group as docs/wire-contract.md §2.1-§2.3 shows it (one or two applicants). */
export function applicantGroup(n: number): Record<string, unknown> {
  const applicants = Array.from({ length: 1 + (n % 2) }, (_, i) => {
    const first = FIRST[(n + i) % FIRST.length] ?? 'Maya';
    const last = LAST[(n * 3 + i) % LAST.length] ?? 'Okafor';
    return {
      id: uuid(n * 2 + i, 2),
      first_name: first,
      last_name: last,
      email: `${first.toLowerCase()}.${last.toLowerCase()}${n}@example.com`,
      phone_number: i === 0 ? `+1415555${String(n % 10_000).padStart(4, '0')}` : null,
      created_at: '2026-01-15T16:00:00.482913Z',
      updated_at: '2026-01-15T16:05:12.100000Z',
      verifications: [{ id: uuid(n * 2 + i, 3), type: 'payroll_income_verification', status: 'in_progress' }],
    };
  });
  return {
    id: uuid(n, 1),
    decision_maker_display_name: 'Harbor View Property Management',
    property: {
      id: uuid(n % 50, 4),
      name: 'Harbor View Apartments',
      street_address: `${100 + (n % 900)} Harbor Way`,
      city: 'San Francisco',
      state: 'California',
      zip_code: '94105',
    },
    status: STATUSES[n % STATUSES.length],
    created_at_timestamp: 1_768_492_800.482913 + n,
    monthly_rent_cents: 185_000 + (n % 20) * 5_000,
    unit_number: `${1 + (n % 12)}B`,
    unit_id: n % 3 === 0 ? null : uuid(n, 5),
    is_free: false,
    is_decision_maker_paying: true,
    correlation_id: n % 2 === 0 ? `lease-app-${n}` : null,
    verification_types: ['payroll_income_verification', 'identity_verification'],
    is_expired: false,
    applicants,
  };
}

/** A small list page: two groups, the size of the vendor's sample (~2 KB). */
export function smallListBody(): string {
  return JSON.stringify({ applicant_groups: [applicantGroup(1), applicantGroup(2)], total_count: 2 });
}

/** Page `page` (from 1) of the bulk listing: 25 groups, 10,000 in all. */
export function bulkListBody(page: number): string {
  const start = (page - 1) * BULK_PAGE_SIZE;
  const count = Math.max(0, Math.min(BULK_PAGE_SIZE, BULK_TOTAL - start));
  const groups = Array.from({ length: count }, (_, i) => applicantGroup(start + i + 1));
  return JSON.stringify({ applicant_groups: groups, total_count: BULK_TOTAL });
}

/**
 * A household income report detail (docs/wire-contract.md §2.5) of about 60 KB: entries from the mock's generator
 * (every applicant `finished`, so bank and payroll data are present) are added until the body
 * reaches `targetBytes`.
 */
export function incomeReportBody(targetBytes = 60_000): string {
  const rng = seeded(3);
  const context = {
    applicantGroupId: uuid(1, 1),
    propertyName: 'Harbor View Apartments',
    monthlyRentCents: 285_000,
    createdAt: new Date('2026-01-15T12:00:00.000Z'),
  };
  const entries = [];
  for (let i = 0; i < 12; i++) {
    entries.push(
      generateVerificationReport(
        rng,
        {
          applicantId: uuid(i, 2),
          verificationId: uuid(i, 3),
          fullName: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`,
          email: `applicant${i}@example.com`,
          reasonCompleted: 'finished',
        },
        context,
      ),
    );
    const body = JSON.stringify({
      report_id: REPORT_ID,
      applicant_group_id: context.applicantGroupId,
      report_type: 'income',
      pdf_url: `https://storage.example.com/reports/${REPORT_ID}.pdf?X-Amz-Expires=7200&X-Amz-Signature=abc123`,
      data: buildIncomeReportData(context, entries),
    });
    if (body.length >= targetBytes) return body;
  }
  throw new Error('The report generator never reached the target size');
}
