/**
 * A batch job: create a group per row with bounded concurrency, keep every outcome (one bad row
 * never loses the others), report progress, and exit with a summary. The mock rate-limits and
 * fails a few requests along the way; each row carries a correlation_id, so nothing is sent twice:
 *
 *   npx tsx examples/batch.ts
 *
 * For batches from a spreadsheet, the `applicant-verification groups create --csv FILE` command
 * adds what a long-running job needs on top of this: a write-ahead journal (a killed run loses
 * nothing), a lock against a second concurrent run, and conflict reports (see docs/cli.md,
 * "Batch jobs").
 */
import {
  type ApplicantGroupCreateParams,
  RequestValidationError,
  VerificationClient,
} from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

const mock = await createMockServer({ seed: 8 });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
  maxConcurrency: 4, // requests in flight across the whole client
  logLevel: 'error',
});

// Rows as they might come from a CSV export of your leasing system. Row 5 has a typo.
const rows = Array.from({ length: 12 }, (_, i) => ({
  lease: `LEASE-${1000 + i}`,
  first: 'Tenant',
  last: `No${i + 1}`,
  email: i === 4 ? 'tenant5.example.com' : `tenant${i + 1}@example.com`,
  unit: `${100 + i}`,
  rent: 1400 + 25 * i,
}));
const toBody = (row: (typeof rows)[number]): ApplicantGroupCreateParams => ({
  applicants: [{ first_name: row.first, last_name: row.last, email: row.email }],
  property: {
    name: 'Cedar Park',
    street_address: '9 Cedar Ln',
    city: 'Seattle',
    state: 'Washington',
    zip_code: '98101',
    unit: row.unit,
  },
  decision_maker_display_name: 'Cedar Park Rentals',
  monthly_rent: row.rent,
  correlation_id: row.lease, // makes every create safe to retry and easy to reconcile
});

// Trouble on the server side: two 429s, then a 503 that came after the group was created, then
// a connection dropped after the group was created (both recovered by looking the
// correlation_id up: a create is never sent twice after an answer it cannot trust).
const create = { method: 'POST', path: '/api/v1/applicant_groups' };
mock.faults.next(2, { status: 429, retryAfterMs: 100 }, create);
mock.faults.next(1, { status: 503, retryAfterMs: 100, afterCommit: true }, create);
mock.faults.next(1, { reset: 'after' }, create);

try {
  const results = await client.applicantGroups.createMany(rows.map(toBody), {
    concurrency: 4,
    onProgress: ({ done, total, failed }) => {
      if (done % 4 === 0 || done === total) console.log(`progress ${done}/${total} (${failed} failed)`);
    },
  });

  for (const result of results) {
    const row = rows[result.index];
    if (result.ok) continue;
    const reason =
      result.error instanceof RequestValidationError
        ? result.error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
        : String(result.error);
    console.log(`${row?.lease} failed: ${reason}`);
  }
  const created = results.filter((result) => result.ok).length;
  console.log(`\nCreated ${created} of ${rows.length} groups`);
  console.log(
    `Groups on the server: ${mock.groups.applicant().length}; invitations sent: ${mock.outbox.count()}`,
  );
  console.log(
    `Create requests sent: ${mock.stats.count('POST /api/v1/applicant_groups')} (retries included)`,
  );
} finally {
  await client.close();
  await mock.close();
}
