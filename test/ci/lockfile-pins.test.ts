import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `.ci/lockfile-pins.mjs`: what keeps the packaging checks' consumer projects on the lockfile's
 * versions, so an upstream release cannot turn CI red. Run as CI runs it, a Node process.
 */
const script = join(import.meta.dirname, '../../.ci/lockfile-pins.mjs');
const lock = JSON.parse(readFileSync(join(import.meta.dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string }>;
};
const pinned = (name: string): string => {
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry) throw new Error(`${name} is not in package-lock.json`);
  return entry.version;
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lockfile-pins-'));
  folders.push(dir);
  return dir;
}
function pins(...args: string[]) {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
/** Writes node_modules/<name>/package.json (nested under `under` when given). */
function install(dir: string, name: string, version: string, under = ''): void {
  const folder = join(dir, under, 'node_modules', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version }));
}

describe('.ci/lockfile-pins.mjs consumer: a project pinned to package-lock.json', () => {
  it('depends on the tarball and each peer at the lockfile version, and overrides every package they resolve', () => {
    const dir = project();
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    const run = pins('consumer', dir, '/tmp/sdk.tgz', 'ioredis', 'msw');
    expect(run.status).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(written.type).toBe('module');
    expect(written.dependencies).toEqual({
      'applicant-verification': 'file:/tmp/sdk.tgz',
      ioredis: pinned('ioredis'),
      msw: pinned('msw'),
    });
    // The runtime dependencies and what the peers pull in, at the lockfile's versions.
    expect(written.overrides.undici).toBe(pinned('undici'));
    expect(written.overrides.zod).toBe(pinned('zod'));
    expect(written.overrides['redis-errors']).toBe(pinned('redis-errors'));
    // Nothing only our own tooling uses.
    expect(written.overrides.typescript).toBeUndefined();
    expect(written.overrides.vitest).toBeUndefined();
  });

  it('pins a nested copy under the package it is nested in', () => {
    const nested = Object.keys(lock.packages).find(
      (path) =>
        path.startsWith('node_modules/@mswjs/interceptors/node_modules/') &&
        !path.slice(43).includes('/node_modules/'),
    );
    expect(nested).toBeDefined();
    const dir = project();
    expect(pins('consumer', dir, '/tmp/sdk.tgz', 'msw').status).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const name = (nested as string).slice('node_modules/@mswjs/interceptors/node_modules/'.length);
    expect(written.overrides['@mswjs/interceptors']).toMatchObject({
      '.': pinned('@mswjs/interceptors'),
      [name]: lock.packages[nested as string]?.version,
    });
  });

  it('adds a devDependency named after --with at the lockfile version, and refuses one the repository lacks', () => {
    const dir = project();
    const run = pins('consumer', dir, '/tmp/sdk.tgz', 'msw', '--with', 'express', '@types/express');
    expect(run.status).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(written.dependencies).toEqual({
      'applicant-verification': 'file:/tmp/sdk.tgz',
      msw: pinned('msw'),
      express: pinned('express'),
      '@types/express': pinned('@types/express'),
    });
    expect(written.overrides.express).toMatchObject({ '.': pinned('express') });
    expect(written.overrides['body-parser']).toBe(pinned('body-parser'));
    const refused = pins('consumer', project(), '/tmp/sdk.tgz', '--with', 'left-pad');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('left-pad (--with) is not a devDependency of the repository');
  });

  it('refuses a peer the package does not declare, before writing anything', () => {
    const dir = project();
    const run = pins('consumer', dir, '/tmp/sdk.tgz', 'express');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('express is not a peer dependency of the package');
  });
});

describe('.ci/lockfile-pins.mjs check: what a consumer installed, against package-lock.json', () => {
  it('passes when every installed package, nested copies included, is at a version the lockfile holds', () => {
    const dir = project();
    install(dir, 'applicant-verification', '0.0.0-tarball');
    install(dir, 'undici', pinned('undici'));
    install(dir, 'ioredis', pinned('ioredis'));
    install(dir, 'redis-errors', pinned('redis-errors'), 'node_modules/ioredis');
    const run = pins('check', dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('3 packages installed, each at a version package-lock.json pins');
  });

  it('fails on a newer release than the lockfile pins, naming the package, both versions and where', () => {
    const dir = project();
    install(dir, 'undici', pinned('undici'));
    install(dir, 'ioredis', '6.1.0');
    const run = pins('check', dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `ioredis@6.1.0 (${join(dir, 'node_modules', 'ioredis')}): package-lock.json has ${pinned('ioredis')}`,
    );
    expect(run.stderr).toContain('installed 1 package(s) the lockfile does not pin');
  });

  it('fails on a package the lockfile has never heard of', () => {
    const dir = project();
    install(dir, '@scope/not-in-the-lockfile', '1.0.0');
    const run = pins('check', dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('@scope/not-in-the-lockfile@1.0.0');
    expect(run.stderr).toContain('no such package');
  });
});
