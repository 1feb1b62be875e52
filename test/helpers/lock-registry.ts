import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import semver from 'semver';
import type { Lock, LockEntry } from '../../scripts/production-lock.mjs';

/** A package version as the registry describes it (the manifest npm resolves from). */
type Manifest = Record<string, unknown> & { name: string; version: string };

/**
 * Gives the npm cache `into` the locked tarballs the user's npm cache holds (hard links, else copies): npm finds
 * a tarball by its integrity there and skips the download. The registry still answers for any it lacks.
 */
export function seedNpmCache(into: string, lock: Lock): void {
  const cache = userNpmCache();
  for (const entry of Object.values(lock.packages)) {
    if (!entry.integrity) continue;
    const from = cachedContentPath(cache, entry.integrity);
    if (!existsSync(from)) continue;
    const to = cachedContentPath(into, entry.integrity);
    mkdirSync(path.dirname(to), { recursive: true });
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
    }
  }
}

function userNpmCache(): string {
  return execFileSync('npm', ['config', 'get', 'cache']).toString().trim();
}

export interface LockRegistry {
  /** http://127.0.0.1:PORT/ — for npm's --registry. */
  url: string;
  /** Tarballs asked for that the npm cache does not hold (the test reports them). */
  missing: string[];
  close(): Promise<void>;
}

/** The package name of a lock key: `node_modules/a/node_modules/@s/b` → `@s/b`. */
function nameOf(key: string): string {
  return key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/** Where npm's cache (cacache) keeps the content with this integrity: content-v2/<algorithm>/<hex in 2/2/rest>. */
function cachedContentPath(cache: string, integrity: string): string {
  const [algorithm, base64] = integrity.split(' ')[0]?.split('-') ?? [];
  const hex = Buffer.from(base64 ?? '', 'base64').toString('hex');
  return path.join(
    cache,
    '_cacache',
    'content-v2',
    algorithm ?? '',
    hex.slice(0, 2),
    hex.slice(2, 4),
    hex.slice(4),
  );
}

/**
 * The manifest of one locked package: its package.json as installed in the checkout (dependencies, bin, install
 * scripts, os/cpu), or, for a platform package not installed here, the lock's own description (os/cpu/libc, which
 * is all npm needs to skip it).
 */
function manifestOf(root: string, key: string, entry: LockEntry, tarball: string): Manifest {
  const installed = path.join(root, key, 'package.json');
  const own = existsSync(installed)
    ? (JSON.parse(readFileSync(installed, 'utf8')) as Manifest)
    : { ...entry };
  return { ...own, name: nameOf(key), version: entry.version, dist: { tarball, integrity: entry.integrity } };
}

/**
 * A loopback npm registry that knows exactly the packages of `lock` (the production part of package-lock.json,
 * scripts/production-lock.mjs) and serves their tarballs from the local npm cache, where `npm ci` left them
 * (npm checks each against the lock's integrity). `npm install --registry <url>` then resolves every dependency
 * range as from registry.npmjs.org, to the locked version this checkout was tested with, without the internet.
 */
export async function startLockRegistry(root: string, lock: Lock): Promise<LockRegistry> {
  const cache = userNpmCache();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const packuments = new Map<string, { name: string; versions: Record<string, Manifest> }>();
  const tarballs = new Map<string, string>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || !entry.integrity) continue;
    const name = nameOf(key);
    const tarball = `${url}-/${encodeURIComponent(name)}-${entry.version}.tgz`;
    tarballs.set(new URL(tarball).pathname, entry.integrity);
    const packument = packuments.get(name) ?? { name, versions: {} };
    packument.versions[entry.version] = manifestOf(root, key, entry, tarball);
    packuments.set(name, packument);
  }
  const missing: string[] = [];
  server.on('request', (req, res) => {
    const pathname = new URL(req.url ?? '/', url).pathname;
    const integrity = tarballs.get(pathname);
    if (integrity) {
      const file = cachedContentPath(cache, integrity);
      if (!existsSync(file)) {
        missing.push(pathname);
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
      return;
    }
    const packument = packuments.get(decodeURIComponent(pathname.slice(1)));
    if (!packument) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const latest = semver.rsort(Object.keys(packument.versions))[0];
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...packument, 'dist-tags': { latest } }));
  });
  return {
    url,
    missing,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
