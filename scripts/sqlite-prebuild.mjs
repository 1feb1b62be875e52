#!/usr/bin/env node
// better-sqlite3's native binary as prebuild-install looks for it in a folder of local prebuilds
// (npm_config_better_sqlite3_local_prebuilds). Its install script tries prebuild-install, which downloads from
// GitHub, and else compiles SQLite with node-gyp: about 82 s of one core on the slower machine kind, most of a
// fresh clone's `npm ci`. This machine reaches only the npm registry, so the repository ships the binary that
// compile makes (tools/prebuilds/, README there), and the bootstrap points npm ci at it when it matches the
// locked version, this Node's ABI and platform; anything else compiles as before.
// `node scripts/sqlite-prebuild.mjs --ship` (npm run prebuilds:ship) packs the installed binary into
// tools/prebuilds/ after an upgrade of better-sqlite3; test/unit/sqlite-prebuild.test.ts fails until then.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHIPPED_PREBUILDS = path.join(root, 'tools', 'prebuilds');

/** The version of better-sqlite3 that package-lock.json installs. */
export function lockedVersion(repository = root) {
  const lock = JSON.parse(readFileSync(path.join(repository, 'package-lock.json'), 'utf8'));
  return lock.packages['node_modules/better-sqlite3'].version;
}

/** The file name prebuild-install looks for: this Node's ABI, platform and processor (glibc Linux has no libc tag). */
export function prebuildName(version) {
  return `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
}

/** tools/prebuilds/ when it holds the binary for the locked version on this Node, else undefined. */
export function matchingShippedPrebuilds() {
  return existsSync(path.join(SHIPPED_PREBUILDS, prebuildName(lockedVersion())))
    ? SHIPPED_PREBUILDS
    : undefined;
}

/**
 * Packs `repository`'s installed binary (node_modules/better-sqlite3/build/Release/better_sqlite3.node) into
 * `into` under prebuild-install's name; the same bytes give the same tarball (no dates, owners or gzip name).
 */
export function packPrebuild(into, repository = root) {
  const pkg = path.join(repository, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8'));
  const file = path.join(into, prebuildName(version));
  mkdirSync(into, { recursive: true });
  const tar = ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner'];
  execFileSync(
    'sh',
    ['-c', 'tar -c "$@" -C "$PKG" build/Release/better_sqlite3.node | gzip -n -9 > "$OUT"', 'pack', ...tar],
    { env: { ...process.env, PKG: pkg, OUT: file } },
  );
  return file;
}

function ship() {
  const file = packPrebuild(SHIPPED_PREBUILDS);
  // One binary per ABI and platform: an older version of the same name is dropped.
  const keep = path.basename(file);
  const sameTarget = `-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  for (const other of readdirSync(SHIPPED_PREBUILDS))
    if (other !== keep && other.endsWith(sameTarget)) rmSync(path.join(SHIPPED_PREBUILDS, other));
  process.stdout.write(`shipped ${path.relative(root, file)}\n`);
}

const invokedPath = process.argv[1] ? realpathSync(process.argv[1]) : '';
if (invokedPath === realpathSync(fileURLToPath(import.meta.url)) && process.argv.includes('--ship')) ship();
