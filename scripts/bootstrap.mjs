#!/usr/bin/env node
// Idempotent set-up that `npm start`, `npm test` and `npm run bench` run first:
//   1. npm install when node_modules is missing or does not match package-lock.json;
//   2. the Debian packages Quire needs (Chromium, fonts, poppler-utils, qpdf) when absent — installed with
//      apt-get as root or with passwordless sudo, else a clear message naming them;
//   3. a TypeScript build when any source file is newer than the last build.
// Plain Node (no dependencies), so it runs before anything is installed. QUIRE_SKIP_BOOTSTRAP=1 skips it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEBIAN_PACKAGES = [
  'chromium',
  'fonts-liberation2',
  'fonts-dejavu-core',
  'fonts-noto-core',
  'fonts-noto-cjk',
  'fonts-noto-color-emoji',
  'poppler-utils',
  'qpdf',
  'icc-profiles-free',
];

const log = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 18)) {
    log(`Node ${process.versions.node} is too old: Quire needs Node 20.18 or newer.`);
    process.exit(1);
  }
}

function ensureNodeModules() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.quire-lock-hash');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  // `npm install` rather than `npm ci`: the lock omits optional platform binaries (e.g. Biome's for other
  // systems) that this registry mirror does not carry, which `npm ci` refuses; install still honours the lock.
  log('installing npm packages…');
  if (run('npm', ['install', '--no-audit', '--no-fund']) !== 0) {
    log('npm install failed.');
    process.exit(1);
  }
  writeFileSync(stamp, want);
}

function missingDebianPackages() {
  return DEBIAN_PACKAGES.filter((pkg) => {
    try {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a JS template
      const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], {
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString();
      return !status.includes('install ok installed');
    } catch {
      return true;
    }
  });
}

function aptRunner() {
  if (process.getuid?.() === 0) return [];
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo', '-n'] : null;
}

function apt(prefix, args) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (let attempt = 1; attempt <= 10; attempt++) {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    const status = run(cmd, rest, { env });
    if (status === 0) return true;
    // 100 is also apt's "could not get lock" while another apt runs: wait and retry.
    log(`apt-get ${args[0]} failed (exit ${status}); retrying in 6 s…`);
    spawnSync('sleep', ['6']);
  }
  return false;
}

function ensureDebianPackages() {
  if (!existsSync('/usr/bin/dpkg-query')) {
    log(
      'not a Debian system: install Chromium, poppler-utils and fonts yourself, and set QUIRE_CHROMIUM_PATH.',
    );
    return;
  }
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  const prefix = aptRunner();
  if (!prefix) {
    log(`missing Debian packages: ${missing.join(' ')}`);
    log(`install them with: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`);
    process.exit(1);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  if (
    !apt(prefix, ['update', '-qq']) ||
    !apt(prefix, ['install', '-y', '-qq', '--no-install-recommends', ...missing])
  ) {
    log('apt-get failed.');
    process.exit(1);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const info = statSync(full);
    newest = Math.max(newest, info.isDirectory() ? newestMtime(full) : info.mtimeMs);
  }
  return newest;
}

function ensureBuild() {
  const stamp = path.join(root, 'dist', '.build-stamp');
  const sources = Math.max(
    newestMtime(path.join(root, 'src')),
    statSync(path.join(root, 'package-lock.json')).mtimeMs,
  );
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) return;
  log('building (tsc)…');
  if (
    run(process.execPath, [
      path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
    ]) !== 0
  ) {
    log('build failed.');
    process.exit(1);
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.env.QUIRE_SKIP_BOOTSTRAP !== '1') {
  checkNode();
  ensureNodeModules();
  ensureDebianPackages();
  ensureBuild();
}
