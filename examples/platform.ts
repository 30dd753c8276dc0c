/**
 * A property-management platform serving many landlords, each its own account (client id and
 * secret key), from one service. Runs end to end against the embedded mock, which serves every
 * landlord's account on one clock:
 *
 *   npx tsx examples/platform.ts
 *
 * One platform root (no account of its own) holds the connections; each landlord gets a derived
 * client (`withOptions`), made once and cached. One webhook route serves every landlord (`/webhooks/<landlord id>`, the secret
 * looked up per request, a rotation's old key still accepted). A nightly sync walks every landlord
 * with a concurrency limit (`accounts.each`), into one store for all of them, and one landlord whose credentials
 * went stale fails alone while the others sync. See docs/platforms.md.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AccountRegistry,
  AuthenticationError,
  expressWebhook,
  isKnownWebhookEvent,
  MemoryDeliveryStore,
  MemoryGroupStore,
  signWebhook,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
} from 'applicant-verification';
import { createMockServer, createTestClock, DEFAULT_START_TIME } from 'applicant-verification/testing';
import express from 'express';

/** The platform's landlord table: in production a database, with the secrets encrypted at rest. */
interface Landlord {
  id: string;
  clientId: string;
  secretKey: string;
  /** The key before the last rotation, still accepted on webhooks for a while. */
  previousSecretKey?: string;
}

const landlords = new Map<string, Landlord>(
  [
    { id: 'oak-street', clientId: 'client-oak-street', secretKey: 'sk-oak-street-2026' },
    {
      id: 'harbor-view',
      clientId: 'client-harbor-view',
      secretKey: 'sk-harbor-view-new',
      previousSecretKey: 'sk-harbor-view-old',
    },
    { id: 'elm-court', clientId: 'client-elm-court', secretKey: 'sk-elm-court-2026' },
    { id: 'birch-lane', clientId: 'client-birch-lane', secretKey: 'sk-birch-lane-2026' },
  ].map((landlord) => [landlord.id, landlord]),
);

// The API's side: every landlord's account. Birch Lane rotated its key at the API and the
// platform has not been told yet: its stored key is stale.
const mock = await createMockServer({
  seed: 37,
  now: DEFAULT_START_TIME,
  accounts: [...landlords.values()].map(({ id, clientId, secretKey }) => ({
    clientId,
    secretKey: id === 'birch-lane' ? 'sk-birch-lane-rotated' : secretKey,
    // Harbor View's deliveries are still signed with its previous key.
    webhookSecret: id === 'harbor-view' ? 'sk-harbor-view-old' : secretKey,
  })),
});

// One root that is no account: the connections, settings, logger, clock and token store every
// landlord's client shares. Its own calls are refused (a stray `root.applicantGroups.create()`
// creates under no landlord); each landlord's client is derived from it. (The test clock follows
// the mock's; in production: VerificationClient.platformRoot({ baseURL, tokenStore, ... }).)
const first = landlords.get('oak-street') as Landlord;
const root = VerificationClient.platformRoot({
  baseURL: mock.url,
  clock: createTestClock(mock.clock),
  logLevel: 'off',
});

/** The landlords' clients: each derived from the root on first use, kept, rebuilt on a new secret. */
const accounts = new AccountRegistry(root, {
  credentials: (clientId) => [...landlords.values()].find((landlord) => landlord.clientId === clientId),
});
const idOf = (clientId: string | undefined) =>
  [...landlords.values()].find((landlord) => landlord.clientId === clientId)?.id ?? '?';
async function clientFor(landlordId: string): Promise<VerificationClient> {
  const client = await accounts.get(landlords.get(landlordId)?.clientId ?? '');
  if (!client) throw new Error(`unknown landlord ${landlordId}`);
  return client;
}

// 1. One webhook route for every landlord: the secret comes from the landlord in the path.
const received = new Map<string, number>();
let signedWithPreviousKey = 0;
const app = express();
app.post(
  '/webhooks/:landlord',
  express.raw({ type: 'application/json' }),
  expressWebhook({
    secret: (request) => {
      const landlord = landlords.get(
        new URL(request.url ?? '/', 'http://local').pathname.split('/')[2] ?? '',
      );
      if (!landlord) return undefined; // answered 404
      const secret = landlord.previousSecretKey
        ? [landlord.secretKey, landlord.previousSecretKey]
        : landlord.secretKey;
      return { account: landlord.clientId, secret };
    },
    deliveries: new MemoryDeliveryStore(), // one store, records kept per landlord
    onEvent: (event, _request, { account, secretIndex }) => {
      const landlordId = idOf(account);
      received.set(landlordId, (received.get(landlordId) ?? 0) + 1);
      if (secretIndex > 0) signedWithPreviousKey += 1;
      if (isKnownWebhookEvent(event) && event.code === 'REPORT_READY') {
        console.log(`[webhook] ${landlordId}: ${event.report_type} report ready`);
      }
    },
  }),
);
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  // 2. Each landlord (but Birch Lane, whose key is stale) screens one household.
  const active = ['oak-street', 'harbor-view', 'elm-court'];
  for (const [index, landlordId] of active.entries()) {
    const group = await (await clientFor(landlordId)).applicantGroups.create({
      applicants: [
        { first_name: 'Applicant', last_name: `No${index + 1}`, email: `applicant${index + 1}@example.com` },
      ],
      property: {
        name: landlordId,
        street_address: `${index + 1} Main Street`,
        city: 'Boston',
        state: 'Massachusetts',
        zip_code: '02108',
        unit: `${index + 1}A`,
      },
      decision_maker_display_name: landlordId,
      monthly_rent: 2000 + index * 100,
      correlation_id: `${landlordId}-unit-${index + 1}A`,
      webhook_url: `${receiver}/webhooks/${landlordId}`,
    });
    for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
  }
  await mock.deliveries.settled();
  console.log(
    `Webhooks: ${active.map((id) => `${id} ${received.get(id) ?? 0}`).join(', ')} (each verified with its own secret)`,
  );
  console.log(`Harbor View mid-rotation: ${signedWithPreviousKey} deliveries verified with its previous key`);

  // 3. A delivery signed with Oak Street's key, posted to Elm Court's URL, is refused.
  const body = JSON.stringify({ code: 'VERIFICATION_STARTED', verification_id: 'v-1' });
  const crossed = await fetch(`${receiver}/webhooks/elm-court`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, first.secretKey),
    },
    body,
  });
  console.log(`Oak Street's signature on Elm Court's URL: ${crossed.status}`);
  const unknown = await fetch(`${receiver}/webhooks/nobody`, { method: 'POST', body });
  console.log(`Unknown landlord: ${unknown.status}`);

  // 4. The nightly sync: every landlord, two at a time, into one store; a failure stays its own.
  const store = new MemoryGroupStore();
  const clientIds = [...landlords.values()].map((landlord) => landlord.clientId);
  const results = await accounts.each(
    clientIds,
    async (client) => {
      let changes = 0;
      for await (const _change of client.applicantGroups.sync(store)) changes += 1;
      return changes;
    },
    { concurrency: 2 },
  );
  for (const result of results.sort((a, b) => idOf(a.account).localeCompare(idOf(b.account)))) {
    const item = idOf(result.account);
    if (result.ok) console.log(`[nightly] ${item}: ${result.value} changes`);
    else {
      const error = result.error;
      const why =
        error instanceof AuthenticationError
          ? 'credentials refused, ask the landlord to reconnect'
          : String(error);
      console.log(`[nightly] ${item}: failed (${why})`);
    }
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(`Nightly sync: ${results.length - failed} landlords synced, ${failed} failed`);
  console.log(`Store: ${store.all().length} groups across ${active.length} landlords`);
} finally {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await root.close(); // closes the connections and every landlord's client
  await mock.close();
}
