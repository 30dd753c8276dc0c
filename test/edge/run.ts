/**
 * `npm run test:edge` (run by .ci/runtimes, after `npm run build`): the quick start and a webhook
 * receiver inside workerd (Cloudflare Workers' runtime) and inside Vercel's edge-runtime, against
 * the mock served from Node. The app (test/edge/worker-app.ts) imports `applicant-verification`,
 * bundled with esbuild under each platform's export conditions, so the package's own dist/edge.js
 * is what runs. Prints one line per check and "N passed, N failed" per runtime; exits 1 on a failure.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from 'applicant-verification';
import { createMockServer, type MockServer } from 'applicant-verification/testing';
import { EdgeRuntime, runServer } from 'edge-runtime';
import { build } from 'esbuild';
import type { EdgeEnv } from './worker-app.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WORKERD = join(REPO, 'node_modules/.bin/workerd');

/** A worker serving the app at `url`, and how to stop it. */
interface Host {
  url: string;
  stop(): Promise<void>;
}

/** Bundles `entry` for a platform: `applicant-verification` resolves through its export conditions. */
async function bundle(entry: string, conditions: string[], format: 'esm' | 'iife'): Promise<string> {
  const result = await build({
    entryPoints: [join(REPO, entry)],
    bundle: true,
    write: false,
    format,
    platform: 'neutral',
    target: 'es2022',
    conditions,
    mainFields: ['module', 'main'],
    // Not tsconfig.json, whose paths point `applicant-verification` at the Node entry's sources.
    tsconfigRaw: {},
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return code;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}/runtime`)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`workerd did not answer on ${url}:\n${log()}`);
}

/** workerd serving the app; its "internet" service may reach local addresses (the mock). */
async function startWorkerd(env: EdgeEnv, dir: string): Promise<Host> {
  writeFileSync(
    join(dir, 'worker.js'),
    await bundle('test/edge/workerd-worker.ts', ['workerd', 'worker', 'browser'], 'esm'),
  );
  const port = await freePort();
  const text = (name: keyof EdgeEnv) => `(name = "${name}", text = ${JSON.stringify(env[name])})`;
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .app),
    # The default outbound network allows public addresses only: the mock listens on 127.0.0.1.
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const app :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-06-01",
  bindings = [${text('MOCK_URL')}, ${text('CLIENT_ID')}, ${text('SECRET_KEY')}],
);
`,
  );
  const child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, () => output);
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** Vercel's edge-runtime (a VM with the Edge globals only) serving the app. */
async function startEdgeRuntime(env: EdgeEnv): Promise<Host> {
  const code = await bundle('test/edge/edge-light-worker.ts', ['edge-light', 'worker', 'browser'], 'iife');
  const runtime = new EdgeRuntime({
    initialCode: code,
    extend: (context) => Object.assign(context, { EDGE_ENV: env }),
  });
  const server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
  return { url: server.url.replace(/\/$/, ''), stop: () => server.close() };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON object a route answered with; a failed route's error in the message. */
async function call(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const body: unknown = await response.json();
  if (!response.ok || !isRecord(body)) {
    throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${JSON.stringify(body)}`);
  }
  return body;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; tries < 100 && !done(value); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** The checks, on one runtime; returns [passed, failed]. */
async function scenario(name: string, start: (env: EdgeEnv) => Promise<Host>): Promise<[number, number]> {
  let passed = 0;
  let failed = 0;
  const check = async (label: string, run: () => Promise<void>) => {
    try {
      await run();
      passed++;
      console.log(`  ok   ${label}`);
    } catch (error) {
      failed++;
      console.log(`  FAIL ${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const mock: MockServer = await createMockServer({ seed: 27 });
  const env = { MOCK_URL: mock.url, CLIENT_ID: mock.clientId, SECRET_KEY: mock.secretKey };
  console.log(`\n${name}`);
  let host: Host | undefined;
  try {
    host = await start(env);
    const url = host.url;
    await check('runs without Node built-ins', async () => {
      const runtime = await call(`${url}/runtime`);
      assert.equal(runtime.nodeBuiltins, false);
      assert.equal(runtime.baseURL, `${mock.url}/`);
    });
    await check(
      'says the synchronous webhook functions need node:crypto, and names the async ones',
      async () => {
        const answer = await call(`${url}/sync-webhooks`);
        assert.match(String(answer.message), /^VerificationError: .*node:crypto.*verifyWebhookAsync/);
      },
    );
    let group: { id: string; applicants: string[] } | undefined;
    await check('creates a group, finds it by correlation id and lists it', async () => {
      const created = await call(`${url}/create?correlation_id=edge-${name}`, { method: 'POST' });
      assert.equal(created.foundByCorrelationId, true);
      assert.equal(created.listed, true);
      assert.ok(Array.isArray(created.applicants));
      group = { id: String(created.id), applicants: created.applicants.map(String) };
      assert.equal(mock.groups.applicantGroup(group.id)?.correlation_id, `edge-${name}`);
      assert.equal(mock.outbox.forGroup(group.id).length > 0, true);
    });
    await check('refuses an invalid create before any request', async () => {
      const before = mock.groups.applicant().length;
      const answer = await call(`${url}/invalid`, { method: 'POST' });
      assert.equal(answer.validationError, true);
      assert.match(String(answer.message), /monthly_rent/);
      assert.equal(mock.groups.applicant().length, before);
    });
    await check('waits for completion, reads the reports and downloads the PDF', async () => {
      assert.ok(group, 'no group was created');
      for (const applicant of group.applicants) {
        mock.applicants.start(applicant);
        mock.applicants.complete(applicant, 'finished');
      }
      const reports = await call(`${url}/reports?group=${group.id}`, { method: 'POST' });
      assert.equal(reports.status, 'completed');
      assert.equal(reports.individualReports, 2);
      assert.equal(typeof reports.householdIncome, 'number');
      assert.equal(reports.pdfHeader, '%PDF-');
      assert.ok(Number(reports.pdfBytes) > 100);
    });
    const events = async () => {
      const received: unknown = await fetch(`${url}/events`).then((response) => response.json());
      assert.ok(Array.isArray(received));
      return received.filter(isRecord);
    };
    await check('receives the signed deliveries through webhookHandler (Web Crypto)', async () => {
      const codes = (
        await eventually(events, (received) =>
          received.some((event) => event.code === 'VERIFICATION_COMPLETED'),
        )
      ).map((event) => event.code);
      assert.ok(codes.includes('VERIFICATION_STARTED'), `events: ${codes.join(', ')}`);
      assert.ok(codes.includes('VERIFICATION_COMPLETED'), `events: ${codes.join(', ')}`);
    });
    await check('answers 400 to a forged delivery without handling it, 204 to a genuine one', async () => {
      const deliver = (verificationId: string, secret: string) => {
        const body = JSON.stringify({ code: 'VERIFICATION_STARTED', verification_id: verificationId });
        return fetch(`${url}/webhooks`, {
          method: 'POST',
          body,
          headers: { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, secret) },
        });
      };
      const forged = await deliver('forged', `${env.SECRET_KEY}x`);
      assert.equal(forged.status, 400);
      assert.deepEqual(await forged.json(), { error: 'bad_signature' });
      assert.equal((await deliver('genuine', env.SECRET_KEY)).status, 204);
      const ids = (await events()).map((event) => event.verification_id);
      assert.ok(ids.includes('genuine'));
      assert.ok(!ids.includes('forged'));
    });
  } catch (error) {
    failed++;
    console.log(`  FAIL starting ${name}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await host?.stop();
    await mock.close();
  }
  console.log(`${name}: ${passed} passed, ${failed} failed`);
  return [passed, failed];
}

if (!existsSync(join(REPO, 'dist/edge.js'))) {
  console.error('dist/edge.js is missing: run `npm run build` first (the edge runs load the built package).');
  process.exit(1);
}
mkdirSync(join(REPO, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(REPO, '.tmp/edge-'));
try {
  const results = [
    await scenario(
      `workerd ${readFileSync(join(REPO, 'node_modules/workerd/package.json'), 'utf8').match(/"version": "([^"]+)"/)?.[1]}`,
      (env) => startWorkerd(env, dir),
    ),
    await scenario('edge-runtime (Vercel Edge)', startEdgeRuntime),
  ];
  const failed = results.reduce((sum, [, count]) => sum + count, 0);
  const passed = results.reduce((sum, [count]) => sum + count, 0);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
