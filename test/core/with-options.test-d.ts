import { describe, expectTypeOf, it } from 'vitest';
import { VerificationClient as EdgeClient } from '../../src/edge.js';
import {
  type DerivedClientOptions,
  VerificationClient,
  type WebhookDelivery,
  webhookHandler,
} from '../../src/index.js';

describe('withOptions', () => {
  it('returns the class it was called on, on either entry', () => {
    const client = new VerificationClient({
      baseURL: 'https://api.example.com',
      clientId: 'a',
      secretKey: 's',
    });
    expectTypeOf(client.withOptions({ clientId: 'b', secretKey: 't' })).toEqualTypeOf<VerificationClient>();
    const edge = new EdgeClient({ baseURL: 'https://api.example.com', clientId: 'a', secretKey: 's' });
    expectTypeOf(edge.withOptions({ timeout: 5_000 })).toEqualTypeOf<EdgeClient>();
  });

  it('takes no option of what the root shares', () => {
    expectTypeOf<DerivedClientOptions>().not.toHaveProperty('baseURL');
    expectTypeOf<DerivedClientOptions>().not.toHaveProperty('dispatcher');
    expectTypeOf<DerivedClientOptions>().not.toHaveProperty('fetch');
    expectTypeOf<DerivedClientOptions>().not.toHaveProperty('clock');
    expectTypeOf<DerivedClientOptions>().not.toHaveProperty('accessToken');
    expectTypeOf<DerivedClientOptions>().toHaveProperty('apiRentUnit');
  });
});

describe('webhook secret option', () => {
  it('takes a string, a list or a function of the request; onEvent gets the delivery', () => {
    webhookHandler({ secret: 's', onEvent: () => {} });
    webhookHandler({ secret: ['new', 'old'], onEvent: () => {} });
    webhookHandler({
      secret: async (request) => ({ account: new URL(request.url).pathname, secret: ['k'] }),
      onEvent: (_event, request, delivery) => {
        expectTypeOf(request).toEqualTypeOf<Request>();
        expectTypeOf(delivery).toEqualTypeOf<WebhookDelivery>();
      },
    });
  });
});

describe('platformRoot', () => {
  it('returns the class it was called on, and takes no credentials', () => {
    expectTypeOf(
      VerificationClient.platformRoot({ baseURL: 'https://api.example.com' }),
    ).toEqualTypeOf<VerificationClient>();
    expectTypeOf(EdgeClient.platformRoot({ baseURL: 'https://api.example.com' })).toEqualTypeOf<EdgeClient>();
    // @ts-expect-error: a platform root is no account
    VerificationClient.platformRoot({ baseURL: 'https://api.example.com', clientId: 'a', secretKey: 's' });
    // @ts-expect-error: nor a static token's
    VerificationClient.platformRoot({ baseURL: 'https://api.example.com', accessToken: 't' });
  });
});
