/**
 * Your integration, end to end (docs/integration-guide.md), against the embedded mock server:
 *
 *   npx tsx examples/integration.ts
 *
 * A property-management backend: it creates a group when an application is submitted, receives
 * webhooks (Express, with a delivery store that drops repeats), takes each event as a hint to read
 * the group's state, decides income to rent on the household report, and runs a nightly sync that
 * catches what webhooks lost. The sync store is a real embedded SQL database (SQLite compiled to
 * WebAssembly by sql.js: no native build), saved to a file and reopened, as a nightly job would.
 *
 * The mock is told to lose, repeat and reorder webhooks, so the weather is real.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ApplicantGroupCreateParams,
  affordability,
  expressWebhook,
  type GroupChange,
  type GroupSnapshot,
  type GroupStore,
  MemoryDeliveryStore,
  VerificationClient,
} from 'applicant-verification';
import { createMockServer, DEFAULT_START_TIME } from 'applicant-verification/testing';
import express from 'express';
import initSqlJs, { type Database } from 'sql.js';

/** The sync store in SQLite: one row per group, one per verification. */
class SqlGroupStore implements GroupStore {
  constructor(readonly db: Database) {
    db.run(`CREATE TABLE IF NOT EXISTS groups (id TEXT PRIMARY KEY, live INTEGER NOT NULL, snapshot TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS verifications (id TEXT PRIMARY KEY, group_id TEXT NOT NULL);`);
  }

  get(groupId: string): GroupSnapshot | undefined {
    const rows = this.db.exec('SELECT snapshot FROM groups WHERE id = ?', [groupId]);
    const text = rows[0]?.values[0]?.[0];
    return typeof text === 'string' ? (JSON.parse(text) as GroupSnapshot) : undefined;
  }

  put(snapshot: GroupSnapshot): void {
    const live = snapshot.status !== 'completed' && !snapshot.is_expired ? 1 : 0;
    this.db.run('INSERT OR REPLACE INTO groups (id, live, snapshot) VALUES (?, ?, ?)', [
      snapshot.id,
      live,
      JSON.stringify(snapshot),
    ]);
    for (const id of snapshot.verification_ids) {
      this.db.run('INSERT OR REPLACE INTO verifications (id, group_id) VALUES (?, ?)', [id, snapshot.id]);
    }
  }

  live(): GroupSnapshot[] {
    const rows = this.db.exec('SELECT snapshot FROM groups WHERE live = 1');
    return (rows[0]?.values ?? []).map(([text]) => JSON.parse(String(text)) as GroupSnapshot);
  }

  groupOfVerification(verificationId: string): string | undefined {
    const rows = this.db.exec('SELECT group_id FROM verifications WHERE id = ?', [verificationId]);
    const id = rows[0]?.values[0]?.[0];
    return typeof id === 'string' ? id : undefined;
  }
}

const SQL = await initSqlJs();
const dir = mkdtempSync(join(tmpdir(), 'integration-example-'));
const dbFile = join(dir, 'sync.sqlite');
let store = new SqlGroupStore(new SQL.Database());

// Pinned: the mock's report figures follow its clock, so the decisions below are the same on every day.
const mock = await createMockServer({ seed: 25, now: DEFAULT_START_TIME });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
});
// The mock keeps its own clock (the example moves it 15 days); a real integration leaves `now` out.
const syncOptions = { now: () => mock.clock.now() };

const names = new Map<string, string>();
const label = (groupId: string) => names.get(groupId) ?? groupId;

/** What the backend does with a change, from a webhook or from the nightly sync. */
async function apply(change: GroupChange, via: string): Promise<void> {
  const name = label(change.group.id);
  switch (change.type) {
    case 'added':
      console.log(`[${via}] ${name}: new group (${change.group.status})`);
      return;
    case 'status_changed':
      console.log(`[${via}] ${name}: ${change.previous.status} -> ${change.group.status}`);
      return;
    case 'expired':
      console.log(`[${via}] ${name}: expired, ask the applicants to apply again`);
      return;
    case 'report_added': {
      if (change.scope !== 'household') return;
      const report = await client.applicantGroups.householdReport(change.group.id);
      if (!report) return;
      const result = affordability(report, syncOptions);
      const income = ((result.householdMonthlyIncomeCents ?? 0) / 100).toFixed(2);
      const ratio = result.ratio === null ? 'unknown' : `${result.ratio.toFixed(2)}x`;
      const verdict = result.passed ? 'approve' : `decline (${result.reasons.map((r) => r.code).join(', ')})`;
      console.log(
        `[${via}] ${name}: household income $${income}/month, ${ratio} rent (threshold ${result.threshold}x): ${verdict}`,
      );
      return;
    }
  }
}

// 1. The webhook receiver: verified, repeats dropped, each event a hint read back from the API.
let handled = 0;
const app = express();
app.post(
  '/webhooks',
  express.raw({ type: 'application/json' }),
  expressWebhook({
    secret: mock.secretKey,
    deliveries: new MemoryDeliveryStore(),
    onEvent: async (event) => {
      handled += 1;
      for await (const change of client.applicantGroups.syncEvent(event, store, syncOptions)) {
        await apply(change, 'webhook');
      }
    },
  }),
);
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

function application(tag: string, rent: number, people: string[]): ApplicantGroupCreateParams {
  return {
    applicants: people.map((person) => {
      const [first = person, last = 'Applicant'] = person.split(' ');
      return { first_name: first, last_name: last, email: `${first.toLowerCase()}.${tag}@example.com` };
    }),
    property: {
      name: 'Harbor View',
      street_address: '120 Harbor Way',
      city: 'San Francisco',
      state: 'California',
      zip_code: '94105',
      unit: tag,
    },
    decision_maker_display_name: 'Harbor View Property Management',
    monthly_rent: rent,
    correlation_id: `application-${tag}`,
    webhook_url: webhookUrl,
  };
}

try {
  // 2. Applications submitted: one group each. Every webhook is sent twice; the first
  //    completion of each group arrives late.
  mock.webhookFaults.next(100, { duplicate: true });
  const unit4b = await client.applicantGroups.create(
    application('4B', 2400, ['Ada Lovelace', 'Charles Babbage']),
  );
  const unit7 = await client.applicantGroups.create(application('7', 2500, ['Grace Hopper']));
  const unit9 = await client.applicantGroups.create(application('9', 2100, ['Alan Turing']));
  names.set(unit4b.id, 'unit 4B').set(unit7.id, 'unit 7').set(unit9.id, 'unit 9');
  console.log(`Created 3 groups, webhooks to ${new URL(webhookUrl).pathname}`);

  // 3. Unit 4B completes; its webhooks arrive (twice, some late) and drive the decision.
  mock.webhookFaults.clear();
  mock.webhookFaults.next(1, { reorder: true }, { code: 'VERIFICATION_COMPLETED' });
  mock.webhookFaults.next(100, { duplicate: true });
  for (const applicant of unit4b.applicants) mock.applicants.complete(applicant.id);
  await mock.deliveries.settled();
  const sent = mock.deliveries.all().filter((r) => !r.dropped).length;
  console.log(`Webhooks: ${sent} deliveries, ${handled} handled (repeats dropped)`);

  // 4. Unit 7 completes, but every webhook is lost: only the nightly sync can see it.
  mock.webhookFaults.clear();
  mock.webhookFaults.next(100, { drop: true });
  mock.applicants.complete(unit7.applicants[0]?.id ?? '');
  await mock.deliveries.settled();

  // 5. Nightly: the store is saved, reopened (as a separate job would), and one sync pass runs.
  writeFileSync(dbFile, store.db.export());
  store = new SqlGroupStore(new SQL.Database(readFileSync(dbFile)));
  let nightly = 0;
  for await (const change of client.applicantGroups.sync(store, syncOptions)) {
    nightly += 1;
    await apply(change, 'nightly');
  }
  console.log(`Nightly sync 1: ${nightly} changes`);

  // 6. Fifteen days later unit 9 never completed: the next nightly sync reports its expiry.
  mock.clock.advance(15 * 24 * 60 * 60 * 1000);
  nightly = 0;
  for await (const change of client.applicantGroups.sync(store, syncOptions)) {
    nightly += 1;
    await apply(change, 'nightly');
  }
  console.log(`Nightly sync 2: ${nightly} changes`);
  console.log(`Groups still live in the store: ${store.live().length}`);
} finally {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await client.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
