import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applicantGroupListResponseSchema,
  applicantGroupReportsSchema,
  applicantGroupSchema,
  reportDetailSchema,
} from '../../src/schemas/index.js';
import { startMockBin } from '../../src/testing/bin-main.js';
import { DEFAULT_CLIENT_ID, DEFAULT_SECRET_KEY } from '../../src/testing/server/api.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { applicantGroupBody, call, expectOk, login } from './helpers.js';

// Bundled once, as the package build bundles the bin: a plain `node` start of it is quick.
let bin: string;
beforeAll(async () => {
  bin = await bundleForNode('src/testing/bin.ts', 'mock-bin');
});
afterAll(() => {
  if (bin) removeBundle(bin);
});

/** Runs the bin's work in-process: same arguments, output lines and environment as the bin. */
async function startInProcess(args: string[], env: Record<string, string> = {}, elapsedMs?: () => number) {
  let stdout = '';
  let stderr = '';
  const mock = await startMockBin(args, {
    ...(elapsedMs === undefined ? {} : { elapsedMs }),
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
    env,
  });
  const url = /export VERIFICATION_BASE_URL=(\S+)/.exec(stdout)?.[1] ?? '';
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      await mock?.close();
      return 0;
    },
  };
}

// JSON over plain fetch, as a suite in any language would call the bin.
async function http(method: string, url: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  return response;
}

describe('applicant-verification-mock bin', () => {
  it('prints URL, credentials and export lines, serves the API, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, '--port', '0', '--seed', '3', '--page-size', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let output = '';
    child.stdout.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('VERIFICATION_SECRET_KEY=')) resolve();
      });
      child.on('exit', () => reject(new Error(`bin exited early: ${output}`)));
    });
    const url = /export VERIFICATION_BASE_URL=(\S+)/.exec(output)?.[1] ?? '';
    const clientId = /export VERIFICATION_CLIENT_ID=(\S+)/.exec(output)?.[1] ?? '';
    const secretKey = /export VERIFICATION_SECRET_KEY=(\S+)/.exec(output)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output).toContain(`listening on ${url}`);

    const token = await login({ url, clientId, secretKey });
    for (let i = 0; i < 2; i++) {
      await call(url, 'POST', '/api/v1/applicant_groups', { token, body: applicantGroupBody() });
    }
    const page = expectOk(
      await call(url, 'GET', '/api/v1/applicant_groups', { token }),
      applicantGroupListResponseSchema,
    );
    expect([page.applicant_groups.length, page.total_count]).toEqual([1, 2]);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('started by npm, stops when npm goes: `npx applicant-verification-mock &` then `kill $!`', async () => {
    // npm's wrapper (npm, then `sh -c`) passes no signal on: killed, it leaves the bin to init.
    // Here a shell stands in for it, as npm sets `npm_command` for what it starts.
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${bin}" --port 0 & echo "pid $!"; wait`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_command: 'exec' },
    });
    let output = '';
    shell.stdout.setEncoding('utf8');
    const closed = new Promise<void>((resolve) => shell.stdout.on('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      shell.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('VERIFICATION_SECRET_KEY=')) resolve();
      });
      shell.on('exit', () => reject(new Error(`the shell exited early: ${output}`)));
    });
    const pid = Number(/^pid (\d+)$/m.exec(output)?.[1]);
    const url = /export VERIFICATION_BASE_URL=(\S+)/.exec(output)?.[1] ?? '';
    expect((await fetch(`${url}/__mock/groups`)).status).toBe(200);
    try {
      shell.kill('SIGKILL');
      // The bin's output ends when the bin does: it noticed and closed. (A bin that never
      // notices fails here rather than at the test's timeout, so the finally below cleans up.)
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the bin outlived npm by 10 s')), 10_000);
      });
      await Promise.race([closed, stuck]).finally(() => clearTimeout(timer));
      expect(output).toContain('npm, which started the mock, is gone: closing the mock');
      await expect(fetch(`${url}/__mock/groups`)).rejects.toThrow();
    } finally {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone: the case this test expects.
      }
    }
  });

  it('rejects a bad option with the usage message', async () => {
    const out: string[] = [];
    const run = startMockBin(['--port', 'abc'], {
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      env: {},
    });
    await expect(run).rejects.toThrow(
      /--port must be an integer >= 0, got "abc"\nUsage: applicant-verification-mock/,
    );
    expect(out).toEqual([]);
  });

  it('--now sets where the ticking clock starts (ISO or epoch ms); without it the real time; a bad value is refused', async () => {
    // The bin's elapsed time stands still here: the readings are exact.
    const still = () => 0;
    for (const [value, expected] of [
      ['2026-03-01T09:00:00Z', Date.UTC(2026, 2, 1, 9)],
      [String(Date.UTC(2025, 5, 1)), Date.UTC(2025, 5, 1)],
    ] as const) {
      const run = await startInProcess(['--port', '0', '--now', value], {}, still);
      try {
        const answer = await fetch(`${run.url}/__mock/clock`);
        expect(((await answer.json()) as { now: number }).now).toBe(expected);
        expect(run.stdout()).toContain(`clock:       ticking from ${new Date(expected).toISOString()}`);
      } finally {
        await run.stop();
      }
    }
    const before = Date.now();
    const unpinned = await startInProcess(['--port', '0'], {}, still);
    try {
      const { now } = (await (await fetch(`${unpinned.url}/__mock/clock`)).json()) as { now: number };
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
    } finally {
      await unpinned.stop();
    }
    await expect(
      startMockBin(['--now', 'yesterday'], { out: () => {}, err: () => {}, env: {} }),
    ).rejects.toThrow(/--now must be an ISO date-time or epoch milliseconds, got "yesterday"/);
  });

  it('ticks with its elapsed time; advance shifts it and it ticks on; reset undoes the shifts; --frozen holds it still', async () => {
    let elapsed = 1_000;
    const start = Date.UTC(2026, 2, 1, 9);
    const clockOf = async (url: string) =>
      ((await (await fetch(`${url}/__mock/clock`)).json()) as { now: number }).now;
    const ticking = await startInProcess(['--port', '0', '--now', String(start)], {}, () => elapsed);
    const frozen = await startInProcess(
      ['--port', '0', '--now', String(start), '--frozen'],
      {},
      () => elapsed,
    );
    try {
      expect(frozen.stdout()).toContain(`clock:       frozen at ${new Date(start).toISOString()}`);
      elapsed += 6 * 60_000 + 0.75;
      // Whole milliseconds: the fraction of the elapsed time is dropped.
      expect(await clockOf(ticking.url)).toBe(start + 6 * 60_000);
      expect(await clockOf(frozen.url)).toBe(start);

      const advanced = await fetch(`${ticking.url}/__mock/clock/advance`, {
        method: 'POST',
        body: JSON.stringify({ ms: 60_000 }),
      });
      expect(((await advanced.json()) as { now: number }).now).toBe(start + 7 * 60_000);
      elapsed += 1_000;
      expect(await clockOf(ticking.url)).toBe(start + 7 * 60_000 + 1_000);

      const reset = await fetch(`${ticking.url}/__mock/reset`, { method: 'POST' });
      expect(((await reset.json()) as { now: number }).now).toBe(start + 6 * 60_000 + 1_000);
      await fetch(`${frozen.url}/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 5 }) });
      expect(await clockOf(frozen.url)).toBe(start + 5);
    } finally {
      await ticking.stop();
      await frozen.stop();
    }
  });

  it('walks a group from invitation to a downloaded PDF with fetch calls to the API and /__mock/ only', async () => {
    const mock = await startInProcess(['--port', '0']);
    try {
      expect(mock.stdout()).toContain(`control API: ${mock.url}/__mock`);
      const auth = await http('POST', `${mock.url}/api/v1/tenants/auth`, {
        body: { client_id: 'mock-client-id', secret_key: 'mock-secret-key' },
      });
      const token = (auth.headers.get('authorization') ?? '').replace(/^Bearer /, '');
      const group = applicantGroupSchema.parse(
        await (
          await http('POST', `${mock.url}/api/v1/applicant_groups`, { token, body: applicantGroupBody() })
        ).json(),
      );
      const outbox = (await (await http('GET', `${mock.url}/__mock/outbox`)).json()) as { to: string }[];
      expect(outbox.map((entry) => entry.to)).toEqual([
        'ada@example.com',
        '+14155550123',
        'charles@example.com',
      ]);
      for (const applicant of group.applicants) {
        const started = await http('POST', `${mock.url}/__mock/applicants/${applicant.id}/start`);
        expect(await started.json()).toMatchObject({ status: 'in_progress' });
        const completed = await http('POST', `${mock.url}/__mock/applicants/${applicant.id}/complete`, {
          body: { reason: 'finished' },
        });
        expect(await completed.json()).toMatchObject({ status: 'completed', reasonCompleted: 'finished' });
      }
      const reports = applicantGroupReportsSchema.parse(
        await (
          await http('GET', `${mock.url}/api/v1/applicant_groups/${group.id}/reports`, { token })
        ).json(),
      );
      const detail = reportDetailSchema.parse(
        await (
          await http('GET', `${mock.url}/api/v1/reports/${reports.household_reports[0]?.id}`, { token })
        ).json(),
      );
      const pdf = await fetch(detail.pdf_url);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');

      // Two hours later the link has expired; a reset forgets everything.
      await http('POST', `${mock.url}/__mock/clock/advance`, { body: { ms: 2 * 60 * 60 * 1000 + 1 } });
      expect((await fetch(detail.pdf_url)).status).toBe(403);
      expect((await http('POST', `${mock.url}/__mock/reset`)).status).toBe(200);
      expect(await (await http('GET', `${mock.url}/__mock/outbox`)).json()).toEqual([]);
    } finally {
      expect(await mock.stop()).toBe(0);
    }
  });

  it('warns on a non-loopback host, naming the default credentials and how to set others', async () => {
    const mock = await startInProcess(['--port', '0', '--host', '0.0.0.0']);
    try {
      const warning = mock.stderr();
      expect(warning).toContain('Warning: the mock listens on 0.0.0.0');
      expect(warning).toContain('client id "mock-client-id"');
      expect(warning).toContain('secret key "mock-secret-key"');
      expect(warning).toContain('--client-id and --secret-key');
      expect(warning).toContain('VERIFICATION_MOCK_SECRET_KEY');
    } finally {
      await mock.stop();
    }
    const quiet = await startInProcess(['--port', '0']);
    await quiet.stop();
    expect(quiet.stderr()).toBe('');
  });

  it('prints the console beside the API and serves it on loopback; elsewhere only with --console', async () => {
    const local = await startInProcess(['--port', '0']);
    try {
      expect(local.stdout()).toContain(`  console:     ${local.url}/__mock/console\n`);
      expect((await fetch(`${local.url}/__mock/console`)).status).toBe(200);
    } finally {
      await local.stop();
    }
    const quiet = await startInProcess(['--port', '0', '--no-console']);
    try {
      expect(quiet.stdout()).toContain('  console:     off (--no-console)');
      expect((await fetch(`${quiet.url}/__mock/console`)).status).toBe(404);
    } finally {
      await quiet.stop();
    }
    const wide = await startInProcess(['--port', '0', '--host', '0.0.0.0']);
    try {
      expect(wide.stdout()).toContain('  console:     off on 0.0.0.0 (--console serves it)');
      expect((await fetch(`${wide.url}/__mock/console`)).status).toBe(404);
    } finally {
      await wide.stop();
    }
    const asked = await startInProcess(['--port', '0', '--host', '0.0.0.0', '--console']);
    try {
      expect(asked.stdout()).toContain(`  console:     ${asked.url}/__mock/console\n`);
      expect(asked.stderr()).toContain(
        `and its console (${asked.url}/__mock/console, --console) need no token`,
      );
      expect((await fetch(`${asked.url}/__mock/console`)).status).toBe(200);
    } finally {
      await asked.stop();
    }
    await expect(startInProcess(['--console', '--no-console'])).rejects.toThrow(
      '--console cannot be combined with --no-console',
    );
  });

  it('takes credentials from the options or the environment, and does not echo a chosen secret', async () => {
    const mock = await startInProcess(['--port', '0', '--client-id', 'team-client'], {
      VERIFICATION_MOCK_SECRET_KEY: 'team-chosen-key',
    });
    try {
      expect(mock.stdout()).toContain('export VERIFICATION_CLIENT_ID=team-client');
      expect(mock.stdout()).not.toContain('team-chosen-key');
      const token = await login({ url: mock.url, clientId: 'team-client', secretKey: 'team-chosen-key' });
      expect(token.length).toBeGreaterThan(20);
    } finally {
      await mock.stop();
    }
  });

  it('--api-rent-unit cents reads applicant-group monthly_rent in cents; a bad unit is refused', async () => {
    const mock = await startInProcess(['--port', '0', '--api-rent-unit', 'cents']);
    try {
      expect(mock.stdout()).toContain('rent unit:   cents');
      const token = await login({
        url: mock.url,
        clientId: DEFAULT_CLIENT_ID,
        secretKey: DEFAULT_SECRET_KEY,
      });
      const answer = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
        token,
        body: applicantGroupBody({ monthly_rent: 250_000 }),
      });
      expect(answer.status, answer.text).toBe(200);
      expect((answer.json as { monthly_rent_cents: number }).monthly_rent_cents).toBe(250_000);
    } finally {
      await mock.stop();
    }
    await expect(startInProcess(['--port', '0', '--api-rent-unit', 'euros'])).rejects.toThrow(
      /--api-rent-unit must be dollars or cents/,
    );
  });

  it('--strict holds requests to openapi.json (405 with Allow, 400 naming an unknown key); without it the mock is tolerant', async () => {
    for (const strict of [true, false]) {
      const mock = await startInProcess(['--port', '0', ...(strict ? ['--strict'] : [])]);
      try {
        expect(mock.stdout().includes('strict:      requests are held to openapi.json')).toBe(strict);
        const token = await login({
          url: mock.url,
          clientId: DEFAULT_CLIENT_ID,
          secretKey: DEFAULT_SECRET_KEY,
        });
        const wrongMethod = await call(mock.url, 'PATCH', '/api/v1/screening_groups', { token });
        expect(wrongMethod.status).toBe(strict ? 405 : 404);
        expect(wrongMethod.headers.allow).toBe(strict ? 'GET, POST' : undefined);
        const typo = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
          token,
          body: applicantGroupBody({ correlationId: 'x' }),
        });
        expect(typo.status).toBe(strict ? 400 : 200);
        if (strict) expect(typo.text).toContain('did you mean correlation_id?');
      } finally {
        await mock.stop();
      }
    }
  });
});
