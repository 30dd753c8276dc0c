/**
 * Hostile input over real loopback: oversized request bodies get 413 without the mock buffering
 * them, and the process's memory stays flat while a client pushes a large upload.
 */
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, MAX_BODY_BYTES, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, call, login } from './helpers.js';

// A body of `total` bytes produced chunk by chunk, so the client side holds one chunk at a time.
function zeros(total: number, chunk = 64 * 1024): Readable {
  let sent = 0;
  const block = Buffer.alloc(chunk, 0x20);
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(chunk, total - sent);
      sent += size;
      this.push(size === chunk ? block : block.subarray(0, size));
    },
  });
}

describe('mock request body limit', () => {
  let mock: MockServer;
  let token: string;
  beforeEach(async () => {
    mock = await createMockServer();
    token = await login(mock);
  });
  afterEach(async () => {
    await mock.close();
  });

  it('answers 413 to a 2 MB body (declared length), creating nothing, and keeps serving', async () => {
    expect(MAX_BODY_BYTES).toBe(1024 * 1024);
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const response = await request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.statusCode).toBe(413);
    expect(await response.body.json()).toMatchObject({ error: 'payload_too_large' });
    expect(mock.groups.applicant()).toEqual([]);
    const ok = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
      token,
      body: applicantGroupBody(),
    });
    expect(ok.status).toBe(200);
  });

  it('answers 413 to a 2 MB chunked body (no declared length) once the count passes 1 MiB', async () => {
    const response = await request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: zeros(2 * 1024 * 1024),
    });
    expect(response.statusCode).toBe(413);
    await response.body.dump();
    expect(mock.groups.applicant()).toEqual([]);
  });

  it('keeps RSS flat while a client streams 256 MB at it', async () => {
    const total = 256 * 1024 * 1024;
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    // The mock answers 413 after 1 MiB and drops the connection once the client keeps sending
    // well past it: either outcome is fine; what matters is that nothing was held.
    const outcome = await request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: zeros(total),
    }).then(
      async (response) => {
        await response.body.dump();
        return response.statusCode;
      },
      () => 'connection closed',
    );
    expect([413, 'connection closed']).toContain(outcome);
    const grown = process.memoryUsage().rss - before;
    // Buffering the upload would add at least its 256 MB.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    expect(mock.groups.applicant()).toEqual([]);
    const ok = await call(mock.url, 'POST', '/api/v1/applicant_groups', {
      token,
      body: applicantGroupBody(),
    });
    expect(ok.status).toBe(200);
  });
});
