#!/usr/bin/env node
// Runs the test suite with node's own test runner through tsx (CI reads its summary lines).
// Usage: node scripts/run-tests.mjs [unit|integration] [extra path filters...]
// `integration` includes the visual regression tests (test/visual: real Chromium, like the integration tests).
// Node 20's --test does not expand globs, so the files are listed here.
//
// The database switch: with QUIRE_TEST_DATABASE_URL set, every test that opens a database gets a fresh
// PostgreSQL database (test/helpers/database.ts). A whole run (no path filters, not `unit`) runs the
// integration tests a second time against PostgreSQL when it answers on 127.0.0.1:5432 — always in CI
// (CI=true), where an unreachable PostgreSQL fails the run. Set QUIRE_TEST_POSTGRES=0 to skip that pass.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [kind, ...filters] = process.argv.slice(2);

function walk(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(walk(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const unit = [...walk(path.join(root, 'src')), ...walk(path.join(root, 'test', 'unit'))];
const integration = [
  ...walk(path.join(root, 'test', 'integration')),
  ...walk(path.join(root, 'test', 'visual')),
];
let files = kind === 'unit' ? unit : kind === 'integration' ? integration : [...unit, ...integration];
const pathFilters = kind && kind !== 'unit' && kind !== 'integration' ? [kind, ...filters] : filters;
if (pathFilters.length > 0) files = files.filter((f) => pathFilters.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

const PG_URL = 'postgres://127.0.0.1:5432/test';

/**
 * Left out of the PostgreSQL pass, each with its reason (shown on every run). Files that open no database at
 * all (Chromium, Liquid, e-invoice XML, SMTP, visual) are left out automatically: a second run would test the
 * same thing again.
 */
const PG_EXCLUDED = [
  {
    file: 'test/integration/foundation/cli.test.ts',
    reason: 'spawns `quire` CLI commands on their own SQLite data directory (QUIRE_DATA_DIR behaviour)',
  },
  {
    file: 'test/integration/foundation/data-dir.test.ts',
    reason: 'tests the SQLite data directory itself (file modes, locking)',
  },
  {
    file: 'test/integration/foundation/startup-race.test.ts',
    reason: 'tests the SQLite migration lock of processes started together on one data directory',
  },
  {
    file: 'test/integration/jobs/migration.test.ts',
    reason: 'upgrades an old SQLite file in place (a PostgreSQL install starts at the current schema)',
  },
  {
    file: 'test/integration/ops/backup.test.ts',
    reason: '`quire backup` copies the SQLite database (a PostgreSQL install is backed up with pg_dump)',
  },
  {
    file: 'test/integration/render/shutdown.test.ts',
    reason: 'spawns `quire serve` on SQLite to test signal handling; the database plays no part',
  },
];

/** Test sources that reach a database (the helpers that create one under the switch). */
const OPENS_DATABASE = /startTestServer|openTestDatabase|createTestDatabase|startHarness/;

function run(list, extraEnv) {
  const concurrency = process.env.QUIRE_TEST_CONCURRENCY ?? '2';
  const args = [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...list,
  ];
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      QUIRE_LOG_LEVEL: process.env.QUIRE_LOG_LEVEL ?? 'silent',
      ...extraEnv,
    },
  });
  return result.status ?? 1;
}

function reachable(host, port, timeoutMs = 2_000) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const status = run(files, {});
const wholeRun = kind !== 'unit' && pathFilters.length === 0 && !process.env.QUIRE_TEST_DATABASE_URL;
if (!wholeRun || process.env.QUIRE_TEST_POSTGRES === '0') process.exit(status);

if (!(await reachable('127.0.0.1', 5432))) {
  if (process.env.CI === 'true') {
    console.error('PostgreSQL is not reachable on 127.0.0.1:5432: CI runs the integration tests on it too.');
    process.exit(1);
  }
  console.log('# PostgreSQL pass skipped: nothing answers on 127.0.0.1:5432.');
  process.exit(status);
}
const excluded = new Set(PG_EXCLUDED.map((x) => path.join(root, x.file)));
const pgFiles = integration.filter((f) => !excluded.has(f) && OPENS_DATABASE.test(readFileSync(f, 'utf8')));
console.log(`# PostgreSQL pass (${PG_URL}): ${pgFiles.length} integration files. Left out:`);
for (const x of PG_EXCLUDED) console.log(`#   ${x.file}: ${x.reason}`);
console.log('#   files that open no database (rendering, Liquid, e-invoice XML, SMTP, visual)');
const pgStatus = run(pgFiles, { QUIRE_TEST_DATABASE_URL: PG_URL });
process.exit(status !== 0 ? status : pgStatus);
