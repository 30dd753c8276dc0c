#!/usr/bin/env node
// The projects CI builds beside the repository (the packaging checks' consumers) install what
// package-lock.json pins, never what the registry calls newest today: an upstream release must not
// turn CI red (ioredis 6.1.0 did, through a consumer that installed `ioredis` without a version).
//
//   node .ci/lockfile-pins.mjs consumer DIR TARBALL [PEER ...] [--with DEV ...]
//     writes DIR/package.json's dependencies (the tarball, each PEER at the lockfile's version, and
//     each DEV, one of our devDependencies a check's project also needs, such as express for the
//     docs' snippets) and `overrides` pinning every package the lockfile resolves for them, nested
//     copies included;
//   node .ci/lockfile-pins.mjs check DIR
//     walks DIR/node_modules and fails on any package whose version the lockfile does not hold;
//   node .ci/lockfile-pins.mjs version NAME
//     prints the version the lockfile resolves for NAME at the top level.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
/** Lockfile entries by install path: "node_modules/a", "node_modules/a/node_modules/b", ... */
const entries = lock.packages;

function fail(message) {
  console.error(`lockfile-pins: ${message}`);
  process.exit(1);
}

/** The package name an install path holds: the part after its last `node_modules/`. */
function nameAt(path) {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/** Where Node's resolution finds `name` from the package installed at `from` ('' is the root). */
function resolveFrom(from, name) {
  for (let base = from; ; ) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (entries[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** Every install path reachable from the given top-level names through dependencies. */
function closure(names) {
  const seen = new Set();
  const queue = names.map((name) => {
    const path = resolveFrom('', name);
    if (!path) fail(`${name} is not in package-lock.json`);
    return path;
  });
  while (queue.length > 0) {
    const path = queue.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const entry = entries[path];
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const wanted = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((peer) => !optionalPeers[peer]?.optional),
    ];
    for (const dependency of wanted) {
      const found = resolveFrom(path, dependency);
      // An optional dependency for another platform is absent from the lockfile: nothing to pin.
      if (found) queue.push(found);
    }
  }
  return [...seen].sort();
}

/**
 * npm `overrides` for the install paths: a top-level package by name, a nested copy under the
 * packages it is nested in (`{ a: { ".": "1.0.0", b: "2.0.0" } }`), so every copy gets the
 * lockfile's version.
 */
function overridesFor(paths) {
  const overrides = {};
  for (const path of paths) {
    const chain = path.split('/node_modules/').map((part) => part.replace(/^node_modules\//, ''));
    let node = overrides;
    for (const [index, name] of chain.entries()) {
      const last = index === chain.length - 1;
      if (last) {
        if (typeof node[name] === 'object') node[name]['.'] = entries[path].version;
        else node[name] = entries[path].version;
      } else {
        if (typeof node[name] !== 'object') {
          const own =
            node[name] ??
            entries[`node_modules/${chain.slice(0, index + 1).join('/node_modules/')}`]?.version;
          node[name] = own ? { '.': own } : {};
        }
        node = node[name];
      }
    }
  }
  return overrides;
}

function consumer(dir, tarball, peers, devs = []) {
  const runtime = Object.keys(manifest.dependencies ?? {});
  const pinnedPeers = Object.fromEntries(
    peers.map((peer) => {
      if (!(peer in (manifest.peerDependencies ?? {})))
        fail(`${peer} is not a peer dependency of the package`);
      return [peer, entries[`node_modules/${peer}`]?.version ?? fail(`${peer} is not in package-lock.json`)];
    }),
  );
  for (const dev of devs) {
    if (!(dev in (manifest.devDependencies ?? {})))
      fail(`${dev} (--with) is not a devDependency of the repository`);
    pinnedPeers[dev] = entries[`node_modules/${dev}`]?.version ?? fail(`${dev} is not in package-lock.json`);
  }
  const file = join(dir, 'package.json');
  const project = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  project.dependencies = { [manifest.name]: `file:${resolve(tarball)}`, ...pinnedPeers };
  project.overrides = overridesFor(closure([...runtime, ...peers, ...devs]));
  writeFileSync(file, `${JSON.stringify(project, null, 2)}\n`);
  console.log(
    `${dir}: ${manifest.name} from the tarball; ${
      Object.entries(pinnedPeers)
        .map(([name, version]) => `${name}@${version}`)
        .join(', ') || 'no peers'
    }; ${Object.keys(project.overrides).length} packages pinned to package-lock.json`,
  );
}

/** name@version of every package installed under `modules`, nested copies included. */
function installed(modules, found = []) {
  if (!existsSync(modules)) return found;
  for (const item of readdirSync(modules)) {
    if (item.startsWith('.')) continue;
    if (item.startsWith('@')) {
      for (const scoped of readdirSync(join(modules, item))) visit(join(modules, item, scoped), found);
    } else visit(join(modules, item), found);
  }
  return found;
}
function visit(dir, found) {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return;
  const { name, version } = JSON.parse(readFileSync(file, 'utf8'));
  found.push({ name, version, dir });
  installed(join(dir, 'node_modules'), found);
}

function check(dir) {
  const versions = new Map();
  for (const [path, entry] of Object.entries(entries)) {
    if (!path) continue;
    const name = nameAt(path);
    versions.set(name, [...(versions.get(name) ?? []), entry.version]);
  }
  const packages = installed(join(dir, 'node_modules')).filter(({ name }) => name !== manifest.name);
  const differences = packages.filter(({ name, version }) => !versions.get(name)?.includes(version));
  for (const { name, version, dir: where } of differences) {
    const pinned = versions.get(name);
    console.error(
      `  ${name}@${version} (${where}): package-lock.json has ${pinned ? pinned.join(', ') : 'no such package'}`,
    );
  }
  if (differences.length > 0)
    fail(`${dir} installed ${differences.length} package(s) the lockfile does not pin`);
  console.log(`${dir}: ${packages.length} packages installed, each at a version package-lock.json pins`);
}

const [command, ...args] = process.argv.slice(2);
const withAt = args.indexOf('--with');
if (command === 'consumer' && args.length >= 2 && withAt !== 0 && withAt !== 1)
  consumer(
    args[0],
    args[1],
    args.slice(2, withAt === -1 ? undefined : withAt),
    withAt === -1 ? [] : args.slice(withAt + 1),
  );
else if (command === 'check' && args.length === 1) check(args[0]);
else if (command === 'version' && args.length === 1)
  console.log(entries[`node_modules/${args[0]}`]?.version ?? fail(`${args[0]} is not in package-lock.json`));
else fail('usage: consumer DIR TARBALL [PEER ...] [--with DEV ...] | check DIR | version NAME');
