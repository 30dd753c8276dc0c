import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applicantGroupListResponseSchema } from '../../src/schemas/index.js';
import { applicantGroupBody, call, expectOk, login } from './helpers.js';

const bin = fileURLToPath(new URL('../../src/testing/bin.ts', import.meta.url));

describe('applicant-verification-mock bin', () => {
  it('prints URL, credentials and export lines, serves the API, and exits 0 on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', bin, '--port', '0', '--seed', '3', '--page-size', '1'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
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

  it('rejects a bad option with a usage message and exit code 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, '--port', 'abc'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('--port must be an integer');
  });
});
