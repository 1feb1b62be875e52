#!/usr/bin/env node
// Records in package-lock.json the optional platform packages (native binaries for other systems, e.g.
// `@biomejs/cli-darwin-arm64`, `@oxc-parser/binding-win32-x64-msvc`) that `npm install` left out.
//
// Why: the registry mirror used here carries only some platforms' binaries; `npm install` silently drops an
// optional dependency it cannot fetch, and `npm ci` then refuses the lock ("Missing: … from lock file").
// npm needs only each package's version and os/cpu/libc to skip it on a foreign platform, and those follow
// from the package name, so they are written here without an integrity hash (npm fetches and checks such a
// package only on its own platform, from the public registry).
//
// Usage: node scripts/lock-platform-optionals.mjs          add the missing entries (run after npm install)
//        node scripts/lock-platform-optionals.mjs --check  exit 1 when entries are missing (run by lint)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = path.join(root, 'package-lock.json');

const OS = new Set([
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
]);
const CPU = new Set([
  'arm',
  'arm64',
  'ia32',
  'loong64',
  'mips64el',
  'ppc64',
  'riscv64',
  's390x',
  'wasm32',
  'x64',
]);
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

/** os/cpu/libc of a platform package, read from its name (`…-linux-arm64-musl`); null when it names none. */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.has(t));
  const cpu = tokens.find((t) => CPU.has(t));
  if (!os || !cpu) return null;
  const libc = os === 'linux' ? tokens.map((t) => LIBC[t]).find(Boolean) : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

/** Lock entries missing for the optional dependencies of every locked package, or a list of problems. */
function missingEntries(lock) {
  const entries = {};
  const problems = [];
  for (const [key, pkg] of Object.entries(lock.packages)) {
    for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
      if (lock.packages[`node_modules/${dep}`] || lock.packages[`${key}/node_modules/${dep}`]) continue;
      const platform = platformOf(dep);
      if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
        problems.push(`${dep}@${spec} (optional dependency of ${key}) is not a pinned platform package`);
        continue;
      }
      // Keys in the order npm writes them, so that a later npm install leaves the entries untouched.
      entries[`node_modules/${dep}`] = {
        version: spec,
        cpu: platform.cpu,
        ...(pkg.dev ? { dev: true } : {}),
        ...(platform.libc ? { libc: platform.libc } : {}),
        ...(pkg.license ? { license: pkg.license } : {}),
        optional: true,
        os: platform.os,
        ...(pkg.engines ? { engines: pkg.engines } : {}),
      };
    }
  }
  return { entries, problems };
}

/** The lock's packages in npm's own order (root first, then by path), so a later npm install changes nothing. */
function sortPackages(packages) {
  const keys = Object.keys(packages).sort((a, b) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'),
  );
  return Object.fromEntries(keys.map((k) => [k, packages[k]]));
}

const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const { entries, problems } = missingEntries(lock);
const names = Object.keys(entries);
for (const problem of problems) console.error(`lock-platform-optionals: ${problem}`);
if (process.argv.includes('--check')) {
  if (names.length > 0) {
    console.error(`package-lock.json lacks ${names.length} optional platform packages (npm ci would fail):`);
    for (const name of names) console.error(`  ${name}`);
    console.error('Run: node scripts/lock-platform-optionals.mjs');
  }
  process.exit(names.length > 0 || problems.length > 0 ? 1 : 0);
}
if (names.length > 0) {
  lock.packages = sortPackages({ ...lock.packages, ...entries });
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`lock-platform-optionals: added ${names.length} entries`);
process.exit(problems.length > 0 ? 1 : 0);
