/**
 * Pagination: one page at a time, every item with `for await`, a bounded `toArray`, and filters.
 * Runs against the embedded mock server (10 groups a page, so a few pages exist):
 *
 *   npx tsx examples/pagination.ts
 */
import { type ApplicantGroupCreateParams, VerificationClient } from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

const mock = await createMockServer({ seed: 3, pageSize: 10 });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
});

const cities = ['Austin', 'Boston', 'Chicago'] as const;
const body = (n: number): ApplicantGroupCreateParams => ({
  applicants: [{ first_name: 'Applicant', last_name: `No${n}`, email: `applicant${n}@example.com` }],
  property: {
    name: `${cities[n % 3]} Lofts`,
    street_address: `${n} Main St`,
    city: cities[n % 3] ?? 'Austin',
    state: 'Texas',
    zip_code: '78701',
  },
  decision_maker_display_name: 'Lofts Leasing',
  monthly_rent: 1500 + n * 10,
  is_invitation_disabled: true,
  correlation_id: `pagination-${n}`,
});

try {
  // Some data to page through: 25 groups, a few of them completed.
  const created = await client.applicantGroups.createMany(
    Array.from({ length: 25 }, (_, n) => body(n)),
    { concurrency: 5 },
  );
  for (const result of created.slice(0, 4)) {
    if (result.ok) mock.applicants.complete(result.value.applicants[0]?.id ?? '');
  }

  // 1. One page: `await` gives the first page and its counts.
  const first = await client.applicantGroups.list();
  console.log(
    `Page ${first.page}: ${first.items.length} of ${first.totalCount} groups, more: ${first.hasNextPage()}`,
  );
  const second = await first.getNextPage();
  console.log(`Page ${second.page}: ${second.items.length} groups`);

  // 2. Every group of every page, one page in memory at a time.
  let count = 0;
  let rent = 0;
  for await (const group of client.applicantGroups.list()) {
    count += 1;
    rent += group.monthly_rent_cents / 100;
  }
  console.log(`Walked ${count} groups with for await; average rent $${Math.round(rent / count)}`);

  // 3. Collect at most N items (stops fetching pages once it has them).
  const some = await client.applicantGroups.list().toArray({ limit: 12 });
  console.log(`toArray({ limit: 12 }) gave ${some.length} groups`);

  // 4. Filters: sent as query parameters; statuses go comma-separated.
  const completed = await client.applicantGroups.list({ statuses: ['completed'] }).toArray();
  console.log(`Completed: ${completed.length}`);
  const boston = await client.applicantGroups.list({ search: 'Boston' });
  console.log(`Search "Boston": ${boston.totalCount} groups`);
  const recent = await client.applicantGroups.list({ created_after: new Date(Date.UTC(2026, 0, 1)) });
  console.log(`Created after 2026-01-01: ${recent.totalCount} groups`);
} finally {
  await client.close();
  await mock.close();
}
