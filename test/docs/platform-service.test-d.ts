/**
 * docs/platforms.md's "The platform's service" snippet, type-checked as written (`npm run
 * typecheck`): `test/docs/platform-service.test.ts` holds the block in the docs equal to the
 * region between the markers below. The declarations above the region are the platform's own.
 */
import {
  AccountRegistry,
  expressWebhook,
  type GroupChange,
  MemoryDeliveryStore,
  MemoryGroupStore,
  type TokenStore,
  VerificationClient,
} from 'applicant-verification';
import express from 'express';

declare const baseURL: string;
declare const tokenStore: TokenStore;
declare const landlords: {
  credentials(clientId: string): Promise<{ clientId: string; secretKey: string } | undefined>;
  clientIds(): Promise<string[]>;
};
declare function apply(account: string, change: GroupChange): Promise<void>;
const app = express();
const groupStore = new MemoryGroupStore();

// docs/platforms.md: the platform's service, begin
const root = VerificationClient.platformRoot({ baseURL, tokenStore });
const accounts = new AccountRegistry(root, { credentials: (clientId) => landlords.credentials(clientId) });

app.post(
  '/webhooks/:clientId',
  express.raw({ type: 'application/json' }),
  expressWebhook({
    secret: async (request) => {
      const landlord = await landlords.credentials(request.params?.clientId ?? '');
      return landlord && { account: landlord.clientId, secret: landlord.secretKey };
    },
    deliveries: new MemoryDeliveryStore(),
    onEvent: async (event, _request, { account = '' }) => {
      const client = await accounts.get(account);
      for await (const change of client?.applicantGroups.syncEvent(event, groupStore) ?? [])
        await apply(account, change);
    },
  }),
);

export async function nightly() {
  return accounts.each(
    await landlords.clientIds(),
    async (client, clientId) => {
      for await (const change of client.applicantGroups.sync(groupStore)) await apply(clientId, change);
    },
    { concurrency: 4 },
  );
}
// docs/platforms.md: the platform's service, end
