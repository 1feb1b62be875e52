#!/usr/bin/env node
// Idempotent, non-interactive set-up that `npm start`, `npm test` and `npm run bench` run first:
//   1. `npm ci` when node_modules is missing or was installed from another package.json/package-lock.json
//      (better-sqlite3's binary from tools/prebuilds/ when it matches, rather than a compile of SQLite);
//   2. the Debian packages Quire needs (deploy/debian-packages.txt: Chromium, fonts, poppler-utils, qpdf) when absent — installed with
//      apt-get as root or with passwordless sudo, else a clear message naming them;
//   3. with --test (what `npm test` passes): the e-invoice validator's one-time set-up
//      (tools/einvoice-validate/validate --setup: its Debian packages — Java, Saxon — and its Java helper);
//   4. the server bundle (scripts/bundle.mjs → dist/server/) when any source file is newer than the last one;
//   5. the official e-invoice rules as SaxonJS SEF (scripts/compile-einvoice-rules.mjs) when stale: the
//      shipped compiled copies (tools/einvoice-validate/sef/) unpacked where they match, in about a second.
//      With --test or --rules (`npm test`, `npm run bench`) any other stale one is compiled too; without
//      (`npm start`) the server compiles those itself in the background once it listens
//      (src/cli/einvoice-rules.ts): compiling no first PDF needs (issue 54); the checks that need a rule set
//      still compiling answer 503 service_busy with Retry-After;
//   6. the dashboard's Vite build (web/ → dist/dashboard/) when any of its sources is newer than the last one.
// Plain Node (no dependencies), so it runs before anything is installed. QUIRE_SKIP_BOOTSTRAP=1 skips it.
// `--list-debian-packages` prints step 2's list (deploy/debian-packages.txt, shared with the Dockerfile) and exits.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchingShippedPrebuilds } from './sqlite-prebuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** deploy/debian-packages.txt: the one list the Dockerfile's runtime stage installs too (one a line, `#` comments). */
const DEBIAN_PACKAGES = readFileSync(path.join(root, 'deploy', 'debian-packages.txt'), 'utf8')
  .split('\n')
  .map((line) => line.replace(/#.*/, '').trim())
  .filter(Boolean);

const log = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

/** package.json `engines` (^20.19.0 || >=22.13.0): the oldest releases every locked package accepts. */
function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const supported = (major === 20 && minor >= 19) || (major === 22 && minor >= 13) || major > 22;
  if (!supported) {
    log(`Node ${process.versions.node} is not supported: Quire needs Node 20.19+ or 22.13+ (or newer).`);
    process.exit(1);
  }
}

/** npm's own lifecycle scripts for the root package, which `npm ci` runs: the only scripts an install reads. */
const INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
];

/**
 * What of package.json an install depends on: all of it but the scripts it never runs, so that editing
 * `npm test`'s script does not cost a two-minute `npm ci`.
 */
function installInputs(pkg) {
  const scripts = Object.entries(pkg.scripts ?? {}).filter(([name]) => INSTALL_SCRIPTS.includes(name));
  return { ...pkg, scripts: Object.fromEntries(scripts) };
}

function ensureNodeModules() {
  const stamp = path.join(root, 'node_modules', '.quire-lock-hash');
  const want = createHash('sha256')
    .update(JSON.stringify(installInputs(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')))))
    .update(readFileSync(path.join(root, 'package-lock.json')))
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return 'up to date';
  // `npm ci` installs exactly the lock (and fails when package.json and the lock disagree), so every machine
  // gets the same tree. The lock records the optional platform binaries the registry mirror lacks
  // (scripts/lock-platform-optionals.mjs), which `npm ci` needs to accept it.
  log('npm packages: installing package-lock.json with npm ci (a few minutes on a fresh machine)…');
  const env = { ...process.env, npm_config_yes: 'true' };
  // better-sqlite3's binary from tools/prebuilds/ when it is the locked version's for this Node, instead of
  // compiling SQLite (about 80 s of one core): scripts/sqlite-prebuild.mjs says why it ships.
  const prebuilds = matchingShippedPrebuilds();
  if (prebuilds) env.npm_config_better_sqlite3_local_prebuilds = prebuilds;
  if (run('npm', ['ci', '--no-audit', '--no-fund'], { env }) !== 0) {
    log('npm ci failed.');
    process.exit(1);
  }
  writeFileSync(stamp, want);
  return 'installed';
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
    return 'skipped (not Debian)';
  }
  const missing = missingDebianPackages();
  if (missing.length === 0) return 'all installed';
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
  return `installed ${missing.length}`;
}

/**
 * The validator installs its own Debian packages when missing and compiles its Java helper once into a
 * cache; `--setup` does only that and is quick once done. It calls plain `sudo` when not root: without
 * root or passwordless sudo it runs in a new session (no controlling terminal), so sudo fails instead of
 * prompting and the captured output says what to install.
 */
function ensureEInvoiceValidator() {
  const validator = path.join(root, 'tools', 'einvoice-validate', 'validate');
  const result = spawnSync(validator, ['--setup'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: aptRunner() === null,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', EINVOICE_QUIET_SETUP: '1' },
  });
  if (result.status === 0) return 'ready';
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  log('e-invoice validator set-up failed (tools/einvoice-validate/README.md lists what it needs).');
  process.exit(1);
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
    statSync(path.join(root, 'scripts', 'bundle.mjs')).mtimeMs,
  );
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) return 'up to date';
  if (run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')]) !== 0) {
    log('build failed.');
    process.exit(1);
  }
  writeFileSync(stamp, new Date().toISOString());
  return 'built (esbuild)';
}

/**
 * The dashboard SPA (web/), served at /app/. Its sources, the generated API types it imports and the lock
 * decide whether the last build is still current; Vite empties dist/dashboard/, so the stamp is written after.
 */
function ensureWebBuild() {
  const stamp = path.join(root, 'dist', 'dashboard', '.build-stamp');
  const sources = Math.max(
    newestMtime(path.join(root, 'web')),
    statSync(path.join(root, 'clients', 'typescript', 'src', 'schema.d.ts')).mtimeMs,
    statSync(path.join(root, 'package-lock.json')).mtimeMs,
  );
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) return 'up to date';
  if (
    run(process.execPath, [
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      path.join('web', 'vite.config.ts'),
    ]) !== 0
  ) {
    log('dashboard build failed.');
    process.exit(1);
  }
  writeFileSync(stamp, new Date().toISOString());
  return 'built (vite)';
}

/** The official e-invoice rules compiled to SEF (scripts/compile-einvoice-rules.mjs; skips fresh ones). */
function ensureEInvoiceRules() {
  const script = path.join(root, 'scripts', 'compile-einvoice-rules.mjs');
  if (run(process.execPath, [script, '--check'], { stdio: 'ignore' }) === 0) return 'up to date';
  const compileAll = process.argv.includes('--test') || process.argv.includes('--rules');
  if (run(process.execPath, [script, ...(compileAll ? [] : ['--shipped-only'])]) !== 0) {
    log('compiling the e-invoice rules failed.');
    process.exit(1);
  }
  return compileAll ? 'made' : 'shipped ones unpacked (the server compiles any other)';
}

const seconds = (sinceMs) => `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;

/**
 * One line per step with what it found or did and how long it took, so a first run that spends minutes in
 * `npm ci` or apt-get says so instead of looking stuck. Each step returns a short outcome.
 */
function step(number, total, label, ensure) {
  const started = Date.now();
  log(`${number}/${total} ${label}…`);
  const outcome = ensure();
  log(`${number}/${total} ${label}: ${outcome} (${seconds(started)})`);
}

if (process.argv.includes('--list-debian-packages')) {
  // What step 2 installs, one a line (test/unit/debian-packages.test.ts compares it with the Dockerfile's).
  process.stdout.write(`${DEBIAN_PACKAGES.join('\n')}\n`);
} else if (process.env.QUIRE_SKIP_BOOTSTRAP !== '1') {
  const started = Date.now();
  checkNode();
  const steps = [
    ['npm packages', ensureNodeModules],
    [
      'Debian packages (deploy/debian-packages.txt: Chromium, fonts, poppler-utils, qpdf)',
      ensureDebianPackages,
    ],
    ...(process.argv.includes('--test') ? [['e-invoice validator', ensureEInvoiceValidator]] : []),
    ['server bundle', ensureBuild],
    // The tests check with every rule set from their first file on, and a bench's servers must not compile
    // beside what they measure: compiled before them, two at a time.
    ['e-invoice rules (SEF)', ensureEInvoiceRules],
    ['dashboard', ensureWebBuild],
  ];
  for (const [i, [label, ensure]] of steps.entries()) step(i + 1, steps.length, label, ensure);
  log(`done in ${seconds(started)}`);
}
