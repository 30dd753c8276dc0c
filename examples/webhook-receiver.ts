/**
 * A webhook receiver on plain `node:http`: verify each delivery on its raw body, handle the
 * event, answer 2xx. Runs end to end against the embedded mock server:
 *
 *   npx tsx examples/webhook-receiver.ts
 *
 * It listens on 127.0.0.1, creates a group whose `webhook_url` points at itself, plays the
 * applicants through their verifications (the mock sends signed events as they go), prints each
 * verified event, shows that a forged delivery is rejected, and exits. In production, serve
 * `receiver` behind HTTPS and pass its public URL as `webhook_url`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isIncomeReport,
  isKnownWebhookEvent,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  WebhookVerificationError,
} from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

const mock = await createMockServer({ seed: 6 });
// The client's secret key is also the key the deliveries are signed with.
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
});

const MAX_BODY_BYTES = 1024 * 1024;
/** Applicant names by applicant id and verification id, to print events readably. */
const names = new Map<string, string>();
const who = (id: string) => names.get(id) ?? id;

/** The body exactly as sent: the signature covers these bytes, not re-serialised JSON. */
async function readRawBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('webhook body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function handleEvent(event: WebhookEvent): Promise<void> {
  // An event code newer than this SDK arrives as a generic event, not as an error.
  if (!isKnownWebhookEvent(event)) {
    console.log(`${event.code.padEnd(22)} (not handled)`);
    return;
  }
  switch (event.code) {
    case 'VERIFICATION_STARTED':
      console.log(`${event.code.padEnd(22)} ${who(event.verification_id)}`);
      break;
    case 'VERIFICATION_COMPLETED':
      console.log(`${event.code.padEnd(22)} ${who(event.verification_id)} (${event.reason_completed})`);
      break;
    case 'REPORT_READY': {
      const report = await client.reports.retrieve(event.report_id);
      const monthly = isIncomeReport(report) ? report.data.recurring?.three_month_avg_monthly : undefined;
      // A household report names no applicant.
      const subject = report.applicant_id ? who(report.applicant_id) : 'the household';
      console.log(
        `${event.code.padEnd(22)} ${event.report_type} report for ${subject}: recurring $${Math.round(monthly ?? 0).toLocaleString('en-US')}/month`,
      );
      break;
    }
    default:
      console.log(`${event.code.padEnd(22)} (not handled here)`);
  }
}

const receiver = createServer(async (request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405).end();
    return;
  }
  try {
    const rawBody = await readRawBody(request);
    // Checks Verification-Signature against the raw bytes, then parses and validates the event.
    const event = client.webhooks.unwrap(rawBody, request.headers);
    // Answer 2xx only once handled: a failure makes the sender retry. Deliveries can repeat, so
    // handle idempotently; if handling is slow, queue the event and answer at once instead.
    await handleEvent(event);
    response.writeHead(204).end();
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      console.log(`rejected delivery: ${error.reason}`);
      response.writeHead(400).end();
    } else {
      console.error('webhook handler failed:', error);
      response.writeHead(500).end();
    }
  }
});

await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
console.log(`Receiver listening on ${webhookUrl}`);

try {
  const group = await client.applicantGroups.create({
    applicants: [
      { first_name: 'Ana', last_name: 'Silva', email: 'ana.silva@example.com' },
      { first_name: 'Ben', last_name: 'Okafor', email: 'ben.okafor@example.com' },
    ],
    property: {
      name: 'Maple Court',
      street_address: '77 Maple Ave',
      city: 'Denver',
      state: 'Colorado',
      zip_code: '80203',
    },
    decision_maker_display_name: 'Maple Court Leasing',
    monthly_rent: 1950,
    webhook_url: webhookUrl,
    correlation_id: 'webhook-demo-1',
  });
  console.log(`Created group ${group.id} with webhook_url ${webhookUrl}\n`);
  for (const applicant of group.applicants) {
    const name = `${applicant.first_name} ${applicant.last_name}`;
    names.set(applicant.id, name);
    for (const verification of applicant.verifications) names.set(verification.id, name);
  }

  // The applicants verify their income (the mock plays them); each step sends signed events.
  for (const applicant of group.applicants) {
    mock.applicants.start(applicant.id);
    mock.applicants.complete(applicant.id, 'finished');
  }
  await mock.deliveries.settled();

  // A forged delivery: a valid signature from another body does not match.
  const genuine = mock.deliveries.all()[0];
  if (genuine) {
    const forged = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: genuine.signature },
      body: genuine.body.replace('VERIFICATION_STARTED', 'VERIFICATION_COMPLETED'),
    });
    console.log(`Forged delivery answered ${forged.status}`);
  }

  const delivered = mock.deliveries.all().filter((delivery) => delivery.delivered).length;
  console.log(`\n${delivered} events verified and handled`);
} finally {
  receiver.close();
  receiver.closeAllConnections();
  await client.close();
  await mock.close();
}
