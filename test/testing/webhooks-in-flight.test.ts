/**
 * More than ten webhook deliveries in flight at once (a platform's landlords, each with its own
 * receiver URL): every one arrives, and the process warns of no listener leak
 * (`MaxListenersExceededWarning`), whose cause would be the mock's one stop signal that every
 * delivery in flight listens to.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { applicantGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { closeServer, listen } from '../support/http-server.js';
import { applicantGroupBody, expectOk, session } from './helpers.js';

const RECEIVERS = 16;

let mock: MockServer | undefined;
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('webhook deliveries in flight', () => {
  it(`${RECEIVERS} at once, to as many receivers: all delivered, no MaxListenersExceededWarning`, async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    cleanups.push(() => {
      process.off('warning', onWarning);
    });
    // The receiver holds every delivery until all of them are in flight at once.
    const held: ServerResponse[] = [];
    const paths: string[] = [];
    const server = createServer((request, response) => {
      request.resume();
      paths.push(request.url ?? '');
      held.push(response);
      if (held.length === RECEIVERS) for (const waiting of held) waiting.writeHead(204).end();
    });
    const origin = await listen(server);
    cleanups.push(() => closeServer(server));
    mock = await createMockServer({ seed: 8 });
    const api = session(mock);
    const starts: string[] = [];
    for (let i = 0; i < RECEIVERS; i++) {
      const group = expectOk(
        await api('POST', '/api/v1/applicant_groups', {
          body: applicantGroupBody({ webhook_url: `${origin}/hooks/${i}` }),
        }),
        applicantGroupSchema,
      );
      starts.push(group.applicants[0]?.id ?? '');
    }
    for (const applicant of starts) mock.applicants.start(applicant);
    await mock.deliveries.settled();
    // A warning is emitted on the next tick after the listener that crossed the limit.
    await new Promise((resolve) => setImmediate(resolve));
    expect(paths.sort()).toEqual(Array.from({ length: RECEIVERS }, (_, i) => `/hooks/${i}`).sort());
    expect(mock.deliveries.all().filter((record) => record.delivered)).toHaveLength(RECEIVERS);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});
