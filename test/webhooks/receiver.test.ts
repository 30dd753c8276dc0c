/**
 * End to end over loopback: the mock server delivers signed events to a real node:http receiver
 * that verifies each one on its raw body, and the events lead back to the group's verifications,
 * applicants and retrievable reports. Forged deliveries are rejected.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApplicantGroup,
  isKnownWebhookEvent,
  type KnownWebhookEvent,
  signWebhook,
  unwrapWebhook,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookVerificationError,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { engineHouseBody } from '../support/bodies.js';

const SECRET = 'whsec-receiver-test';

interface Receiver {
  url: string;
  /** Events that passed verification, in arrival order. */
  events: KnownWebhookEvent[];
  /** Reasons of the deliveries rejected. */
  rejected: string[];
  close(): Promise<void>;
}

/** A receiver as an integrator writes it: raw body, verify, then 204; 400 on a bad delivery. */
async function startReceiver(client: VerificationClient): Promise<Receiver> {
  const events: KnownWebhookEvent[] = [];
  const rejected: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    try {
      const event = client.webhooks.unwrap(rawBody, request.headers);
      // The standalone function, keyed explicitly, agrees with the client's resource.
      expect(unwrapWebhook(rawBody, request.headers, SECRET)).toEqual(event);
      if (!isKnownWebhookEvent(event)) throw new Error(`unexpected event code ${event.code}`);
      events.push(event);
      response.writeHead(204).end();
    } catch (error) {
      rejected.push(error instanceof WebhookVerificationError ? error.reason : String(error));
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    events,
    rejected,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('webhook receiver against the mock server', () => {
  let mock: MockServer;
  let client: VerificationClient;
  let receiver: Receiver;
  let group: ApplicantGroup;

  beforeAll(async () => {
    mock = await createMockServer({ seed: 42, secretKey: SECRET });
    client = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: SECRET });
    receiver = await startReceiver(client);

    group = await client.applicantGroups.create({
      ...engineHouseBody(receiver.url),
      correlation_id: 'receiver-test-1',
    });
    for (const applicant of group.applicants) {
      mock.applicants.start(applicant.id);
      mock.applicants.complete(applicant.id, 'finished');
    }
    await mock.deliveries.settled();
  });

  afterAll(async () => {
    await receiver?.close();
    await client?.close();
    await mock?.close();
  });

  const ofCode = <C extends KnownWebhookEvent['code']>(code: C) =>
    receiver.events.filter((event): event is Extract<KnownWebhookEvent, { code: C }> => event.code === code);

  it('receives every delivery verified, none rejected', () => {
    const deliveries = mock.deliveries.all();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((delivery) => delivery.delivered && delivery.status === 204)).toBe(true);
    expect(receiver.events).toHaveLength(deliveries.length);
    expect(receiver.rejected).toEqual([]);
  });

  it('gets VERIFICATION_STARTED and VERIFICATION_COMPLETED for each verification of the group', () => {
    const verificationIds = group.applicants.flatMap((applicant) => applicant.verifications.map((v) => v.id));
    expect(verificationIds.length).toBeGreaterThanOrEqual(group.applicants.length);
    expect(
      ofCode('VERIFICATION_STARTED')
        .map((event) => event.verification_id)
        .sort(),
    ).toEqual([...verificationIds].sort());
    const completed = ofCode('VERIFICATION_COMPLETED');
    expect(completed.map((event) => event.verification_id).sort()).toEqual([...verificationIds].sort());
    expect(completed.every((event) => event.reason_completed === 'finished')).toBe(true);
  });

  it('gets each verification started before it completed', () => {
    for (const event of ofCode('VERIFICATION_COMPLETED')) {
      const started = receiver.events.findIndex(
        (other) => other.code === 'VERIFICATION_STARTED' && other.verification_id === event.verification_id,
      );
      expect(started).toBeGreaterThanOrEqual(0);
      expect(started).toBeLessThan(receiver.events.indexOf(event));
    }
  });

  it('gets REPORT_READY for each applicant and the household, each report retrievable', async () => {
    const ready = ofCode('REPORT_READY');
    const applicantIds = group.applicants.map((applicant) => applicant.id);
    // One individual report per applicant, plus the household report once everyone completed.
    expect(ready).toHaveLength(applicantIds.length + 1);
    for (const event of ready) {
      expect(event.applicant_group_id).toBe(group.id);
      expect(event.report_type).toBe('income');
    }
    // Individual reports name their applicant; the household report names none.
    const named = ready.map((event) => event.applicant_id).filter((id) => typeof id === 'string');
    expect(named.sort()).toEqual([...applicantIds].sort());

    const reports = await client.applicantGroups.listReports(group.id);
    const listed = [...reports.individual_reports, ...reports.household_reports].map((r) => r.id);
    expect(ready.map((event) => event.report_id).sort()).toEqual([...listed].sort());

    for (const event of ready) {
      const report = await client.reports.retrieve(event.report_id);
      expect(report.report_id).toBe(event.report_id);
      expect(report.applicant_group_id).toBe(group.id);
      expect(report.report_type).toBe('income');
    }
    const individual = new Set(reports.individual_reports.map((r) => r.applicant_id));
    expect(individual).toEqual(new Set(applicantIds));
  });

  it('rejects a tampered delivery, a foreign signature and a missing one', async () => {
    const genuine = mock.deliveries.all().find((delivery) => delivery.event.code === 'REPORT_READY');
    if (!genuine) throw new Error('no REPORT_READY delivery recorded');
    const before = receiver.events.length;
    const post = (body: string, headers: Record<string, string>) =>
      fetch(receiver.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });

    // The genuine delivery replayed verbatim still verifies (deduplicate on your side).
    expect((await post(genuine.body, { [WEBHOOK_SIGNATURE_HEADER]: genuine.signature })).status).toBe(204);
    expect(receiver.events).toHaveLength(before + 1);

    const tampered = genuine.body.replace(
      /"report_id":"[^"]+"/,
      '"report_id":"00000000-0000-4000-8000-000000000000"',
    );
    expect(tampered).not.toBe(genuine.body);
    expect((await post(tampered, { [WEBHOOK_SIGNATURE_HEADER]: genuine.signature })).status).toBe(400);
    const foreign = signWebhook(genuine.body, 'someone-elses-secret');
    expect((await post(genuine.body, { [WEBHOOK_SIGNATURE_HEADER]: foreign })).status).toBe(400);
    expect((await post(genuine.body, {})).status).toBe(400);

    expect(receiver.rejected).toEqual(['bad_signature', 'bad_signature', 'missing_signature']);
    expect(receiver.events).toHaveLength(before + 1);
  });
});
