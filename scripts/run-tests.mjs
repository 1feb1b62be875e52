#!/usr/bin/env node
// Runs the test suite with node's own test runner through tsx (CI reads its summary lines).
// Usage: node scripts/run-tests.mjs [unit|integration] [extra path filters...]
// `integration` includes the visual regression tests (test/visual: real Chromium, like the integration tests).
// Node 20's --test does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

const concurrency = process.env.QUIRE_TEST_CONCURRENCY ?? '2';
const args = [
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-reporter=spec',
  ...files,
];
const result = spawnSync(process.execPath, args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test', QUIRE_LOG_LEVEL: process.env.QUIRE_LOG_LEVEL ?? 'silent' },
});
process.exit(result.status ?? 1);
