#!/usr/bin/env node
// Records each test file's wall time from the last run (.tmp/test-timings/<pass>.json) in
// scripts/test-durations.json, which scripts/run-tests.mjs uses to start the longest files first on a machine
// that has not run the suite yet (CI's fresh clone). Files the last run did not cover keep their recorded
// time; files that no longer exist are dropped. Run it after a whole `npm test` that passed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './test-plan.mjs';

const target = path.join(root, 'scripts', 'test-durations.json');
const recorded = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : {};
const out = {};
for (const pass of ['sqlite', 'postgres']) {
  const times = { ...(recorded[pass] ?? {}) };
  const report = path.join(root, '.tmp', 'test-timings', `${pass}.json`);
  const files = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).files : [];
  for (const f of files) if (f.repoFile && !f.failed) times[f.repoFile] = Math.round(f.ms / 100) * 100;
  const kept = Object.keys(times)
    .filter((file) => existsSync(path.join(root, file)))
    .sort();
  out[pass] = Object.fromEntries(kept.map((file) => [file, times[file]]));
  console.log(`${pass}: ${kept.length} files (${files.length} from the last run)`);
}
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
