#!/usr/bin/env node
// Records each test file's wall time from the last whole run (.tmp/test-timings/<pass>.json) in
// scripts/test-durations.json, which scripts/run-tests.mjs uses to start the longest files first on a machine
// that has not run the suite yet (CI's fresh clone). Run it after a whole `npm test` that passed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './test-plan.mjs';

const out = {};
for (const pass of ['sqlite', 'postgres']) {
  const report = JSON.parse(readFileSync(path.join(root, '.tmp', 'test-timings', `${pass}.json`), 'utf8'));
  const files = report.files
    .filter((f) => f.repoFile && !f.failed)
    .map((f) => [f.repoFile, Math.round(f.ms / 100) * 100])
    .sort(([a], [b]) => (a < b ? -1 : 1));
  out[pass] = Object.fromEntries(files);
  console.log(`${pass}: ${files.length} files`);
}
writeFileSync(path.join(root, 'scripts', 'test-durations.json'), `${JSON.stringify(out, null, 2)}\n`);
