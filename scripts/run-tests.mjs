#!/usr/bin/env node
// Runs the test suite with node's own test runner through tsx (CI reads its summary lines).
// Usage: node scripts/run-tests.mjs [unit|integration] [extra path filters...]
// `integration` includes the visual regression tests (test/visual: real Chromium, like the integration tests).
// Node 20's --test does not expand globs, so the files are listed by scripts/test-plan.mjs.
//
// The database switch: with QUIRE_TEST_DATABASE_URL set, every test that opens a database gets a fresh
// PostgreSQL database (test/helpers/database.ts). A whole run (no path filters, not `unit`) runs the files of
// the PostgreSQL pass (the explicit list in scripts/test-plan.mjs) a second time against PostgreSQL when it
// answers on 127.0.0.1:5432 — always in CI (CI=true), where an unreachable PostgreSQL fails the run. Set
// QUIRE_TEST_POSTGRES=0 to skip that pass.
//
// Both passes' test processes share one queue (scripts/test-scheduler.mjs): QUIRE_TEST_SLOTS at once (3 by
// default; one pass alone, QUIRE_TEST_CONCURRENCY, 2), at most QUIRE_TEST_POSTGRES_CONCURRENCY (2) on PostgreSQL,
// longest first. Each process's output is printed whole when it ends; the spec reporter's counts are summed and
// printed once at the end.
//
// A run gets one Chromium server (playwright's launchServer, with the arguments Quire launches Chromium
// with) whose endpoint goes to the tests as QUIRE_CHROMIUM_WS_ENDPOINT: test servers and renderers connect to
// it instead of launching a Chromium each (test/helpers/chromium.ts). When the dashboard's browser tests run, a
// second Chromium server (without the renderer's network lock-down) is their browser: each file connects and
// opens a context (QUIRE_TEST_BROWSER_WS_ENDPOINT, test/helpers/browser-server.ts). Set
// QUIRE_TEST_SHARED_CHROMIUM=0 to have each launch its own.
//
// Every pass writes each file's wall time to .tmp/test-timings/<pass>.json (sqlite, postgres) and ends with the count of tests
// and the slowest files; a file over FILE_BUDGET_MS is named as over budget.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileTests } from './compile-tests.mjs';
import { probeMs, speedClass } from './cpu-probe.mjs';
import { groupEntrySource, planProcesses } from './test-groups.mjs';
import {
  classify,
  integrationFiles,
  POSTGRES_PASS,
  root,
  SQLITE_ONLY,
  unclassifiedMessage,
  unitFiles,
} from './test-plan.mjs';
import { runScheduled } from './test-scheduler.mjs';

const FILE_BUDGET_MS = 60_000;
const SLOWEST_SHOWN = 15;
const PG_URL = 'postgres://127.0.0.1:5432/test';

const [kind, ...filters] = process.argv.slice(2);
const unit = unitFiles();
const integration = integrationFiles();
let files = kind === 'unit' ? unit : kind === 'integration' ? integration : [...unit, ...integration];
const pathFilters = kind && kind !== 'unit' && kind !== 'integration' ? [kind, ...filters] : filters;
if (pathFilters.length > 0) files = files.filter((f) => pathFilters.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const wholeRun = kind !== 'unit' && pathFilters.length === 0 && !process.env.QUIRE_TEST_DATABASE_URL;

const plan = classify(integration);
if (wholeRun && plan.unclassified.length > 0) {
  console.error(unclassifiedMessage(plan.unclassified));
  process.exit(1);
}

const timingsDir = path.join(root, '.tmp', 'test-timings');
// The tests run compiled (scripts/compile-tests.mjs) unless QUIRE_TEST_COMPILE=0 or the visual references are
// being rewritten (new reference files must land in the repository, not in the mirror).
const compiled =
  process.env.QUIRE_TEST_COMPILE === '0' || process.env.QUIRE_UPDATE_VISUAL ? null : compileTests();
process.on('exit', () => compiled?.remove());
/** The path a test file runs from, and the repository path it is reported under. */
const runnable = (file) => (compiled ? compiled.file(file) : file);
const reported = (file) =>
  compiled ? path.relative(compiled.root, file).replace(/\.js$/, '.ts') : path.relative(root, file);

let tsxLoader;

/** tsx's loader in this process (once), so that the repository's TypeScript modules can be imported. */
function registerTsx() {
  tsxLoader ??= import('tsx/esm/api').then(({ register }) => register());
  return tsxLoader;
}

/** The pass's shared Chromium server, or null for unit tests only or QUIRE_TEST_SHARED_CHROMIUM=0. */
async function startChromiumServer(list) {
  if (process.env.QUIRE_TEST_SHARED_CHROMIUM === '0' || list.every((f) => unit.includes(f))) return null;
  await registerTsx();
  // Literal specifiers: knip follows them to the exports they use.
  const { loadConfig } = await import('../src/config/config.ts');
  const { launchChromiumServer } = await import('../src/render/index.ts');
  return launchChromiumServer(
    loadConfig({ QUIRE_CHROMIUM_PATH: process.env.QUIRE_CHROMIUM_PATH }).chromiumPath,
  );
}

/** Files that open the dashboard in a browser (test/integration/dashboard/browser.ts). */
const BROWSER_TESTS = `${path.sep}test${path.sep}integration${path.sep}dashboard${path.sep}`;

/**
 * The run's browser for the browser tests, or null when none runs or QUIRE_TEST_SHARED_CHROMIUM=0: one Chromium
 * server (test/helpers/browser-server.ts) in which each dashboard test file opens a context of its own, instead
 * of launching and ending a Chromium per file. Not the renderers' shared Chromium: that one has no network.
 */
async function startBrowserTestServer(list) {
  if (process.env.QUIRE_TEST_SHARED_CHROMIUM === '0' || !list.some((f) => f.includes(BROWSER_TESTS)))
    return null;
  await registerTsx();
  const { launchBrowserTestServer } = await import('../test/helpers/browser-server.ts');
  return launchBrowserTestServer();
}

/** One test process's command line: node's runner on one entry, its spec output and its timings JSON. */
function processArgs(entry, timings) {
  return [
    // e.g. QUIRE_TEST_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to see where a file's CPU goes.
    ...(process.env.QUIRE_TEST_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(compiled ? [] : ['--import', 'tsx']),
    '--import',
    pathToFileURL(path.join(root, 'scripts', 'test-async-scope.mjs')).href,
    '--import',
    pathToFileURL(path.join(root, 'scripts', 'test-exit-guard.mjs')).href,
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(root, 'scripts', 'test-timings-reporter.mjs')}`,
    `--test-reporter-destination=${timings}`,
    entry,
  ];
}

/** The spec reporter's closing count lines (`ℹ tests 12`): summed over a run's processes and printed once. */
const SPEC_COUNT = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;
const specCounts = new Map();

/** A process's output without its count lines, which are added to the run's. */
function withoutCounts(text) {
  return text
    .split('\n')
    .filter((line) => {
      const count = SPEC_COUNT.exec(line);
      if (count && count[1] !== 'duration_ms')
        specCounts.set(count[1], (specCounts.get(count[1]) ?? 0) + Number(count[2]));
      return !count;
    })
    .join('\n');
}

/**
 * Runs the passes' test processes under one scheduler (scripts/test-scheduler.mjs): at most `slots` at once, at
 * most `limits[pass]` of a pass. Each process is node's runner on one entry (a test file or a group's entry
 * file); its output is printed whole when it ends, under a line naming it, so processes never interleave.
 * Returns the run's exit status.
 */
async function runPasses(passes, { slots, limits = {} }) {
  mkdirSync(timingsDir, { recursive: true });
  const jobDir = path.join(timingsDir, `processes-${process.pid}`);
  rmSync(jobDir, { recursive: true, force: true });
  mkdirSync(jobDir, { recursive: true });
  const jobs = [];
  for (const { pass, list, env } of passes) {
    const cpuDir = path.join(timingsDir, `${pass}-cpu-${process.pid}`);
    rmSync(cpuDir, { recursive: true, force: true });
    mkdirSync(cpuDir, { recursive: true });
    for (const { entry, cost } of processEntries(pass, list)) {
      const timings = path.join(jobDir, `${pass}-${jobs.length}.json`);
      jobs.push({ pass, entry, cost, timings, env: { ...env, QUIRE_TEST_CPU_DIR: cpuDir } });
    }
  }
  const started = Date.now();
  const chromium = await startChromiumServer(passes.flatMap((p) => p.list));
  const browser = await startBrowserTestServer(passes.flatMap((p) => p.list));
  const baseEnv = {
    ...process.env,
    NODE_ENV: 'test',
    QUIRE_LOG_LEVEL: process.env.QUIRE_LOG_LEVEL ?? 'silent',
    ...(chromium ? { QUIRE_CHROMIUM_WS_ENDPOINT: chromium.wsEndpoint() } : {}),
    ...(browser ? { QUIRE_TEST_BROWSER_WS_ENDPOINT: browser.wsEndpoint() } : {}),
  };
  const statuses = await runScheduled(jobs, {
    slots,
    limits,
    // Asynchronous: the Chromium server answers from this process's event loop while the tests run.
    start: (job) => runProcess(job, baseEnv, passes.length > 1),
  });
  const chromiumCpu = chromium ? processTreeCpuSeconds(chromium.process().pid) : 0;
  await chromium?.close();
  const browserCpu = browser ? processTreeCpuSeconds(browser.process().pid) : 0;
  await browser?.close();
  const wallMs = Date.now() - started;
  let status = 0;
  for (const { pass, list } of passes) {
    const passJobs = jobs.filter((job) => job.pass === pass);
    const timings = path.join(timingsDir, `${pass}-${process.pid}.json`);
    mergeTimings(
      passJobs.map((job) => job.timings),
      timings,
    );
    summarize(pass, timings, wallMs);
    summarizeCpu(pass, path.join(timingsDir, `${pass}-cpu-${process.pid}`));
    const unreported = unreportedFiles(list, timings);
    if (existsSync(timings)) keepTimings(timings, path.join(timingsDir, `${pass}.json`));
    if (unreported.length > 0) {
      console.log(`# ${pass}: FAILED: ${unreported.length} test file(s) reported no test at all:`);
      for (const file of unreported) console.log(`#   ${path.relative(root, file)}`);
      status ||= 1;
    }
    const failedProcesses = passJobs.filter((job) => statuses[jobs.indexOf(job)] !== 0);
    for (const job of failedProcesses) console.log(`# ${pass}: FAILED: ${describeProcess(job.entry)}`);
    if (failedProcesses.length > 0) status ||= 1;
  }
  if (chromium) console.log(`# CPU ${chromiumCpu.toFixed(0)} s in the run's shared Chromium`);
  if (browser) console.log(`# CPU ${browserCpu.toFixed(1)} s in the run's browser for the dashboard tests`);
  rmSync(jobDir, { recursive: true, force: true });
  for (const [name, value] of specCounts) console.log(`ℹ ${name} ${value}`);
  console.log(`ℹ duration_ms ${wallMs}`);
  return status;
}

/** Runs one test process; resolves with its exit status once its output is printed. */
function runProcess(job, baseEnv, namePass) {
  const started = Date.now();
  const child = spawn(process.execPath, processArgs(job.entry, job.timings), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...baseEnv, ...job.env },
  });
  const chunks = [];
  child.stdout.on('data', (chunk) => chunks.push(chunk));
  child.stderr.on('data', (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const status = code ?? 1;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `# ${namePass ? `${job.pass}: ` : ''}${describeProcess(job.entry)} (${seconds} s${status === 0 ? '' : `, exit ${status}`})`,
      );
      process.stdout.write(withoutCounts(Buffer.concat(chunks).toString('utf8')));
      resolve(status);
    });
  });
}

/** One pass's timings from its processes' (each written by scripts/test-timings-reporter.mjs). */
function mergeTimings(parts, to) {
  const merged = { tests: 0, passed: 0, failed: 0, skipped: 0, files: [] };
  for (const part of parts) {
    try {
      const report = JSON.parse(readFileSync(part, 'utf8'));
      for (const key of ['tests', 'passed', 'failed', 'skipped']) merged[key] += report[key];
      merged.files.push(...report.files);
    } catch {
      // A process that wrote nothing: its files are reported as unreported.
    }
  }
  writeFileSync(to, `${JSON.stringify(merged, null, 1)}\n`);
}

/**
 * The files of a pass that no test event names: a process that ended before (or without) running them. Node
 * counts tests that never ran as neither passed nor failed, so without this such a file would be lost in silence
 * (a group's process once ended mid-way that way).
 */
function unreportedFiles(list, timings) {
  let report;
  try {
    report = JSON.parse(readFileSync(timings, 'utf8'));
  } catch {
    return list;
  }
  const named = new Set(report.files.map((f) => reported(f.file)));
  return list.filter((file) => !named.has(path.relative(root, file)));
}

/**
 * Keeps a pass's timings under each file's repository path (the compiled mirror's paths die with the run),
 * merged into what earlier runs kept: a filtered run updates its own files' times and leaves the others'.
 */
function keepTimings(from, to) {
  try {
    const report = JSON.parse(readFileSync(from, 'utf8'));
    for (const f of report.files) f.repoFile = reported(f.file);
    let earlier = [];
    try {
      earlier = JSON.parse(readFileSync(to, 'utf8')).files ?? [];
    } catch {
      // Nothing kept yet.
    }
    const now = new Set(report.files.map((f) => f.repoFile));
    report.files.push(...earlier.filter((f) => f.repoFile && !f.group && !now.has(f.repoFile)));
    writeFileSync(to, `${JSON.stringify(report, null, 1)}\n`);
    rmSync(from, { force: true });
  } catch {
    renameSync(from, to);
  }
}

/** What a file with no recorded time is taken to cost when ordering (most files take a few seconds). */
const UNKNOWN_FILE_MS = 5_000;
const DURATIONS = path.join(root, 'scripts', 'test-durations.json');

/** A pass's recorded file times by repository path: the committed ones, then this machine's last run's. */
function knownDurations(pass) {
  const known = new Map();
  try {
    for (const [file, ms] of Object.entries(JSON.parse(readFileSync(DURATIONS, 'utf8'))[pass] ?? {})) {
      known.set(file, ms);
    }
  } catch {
    // No committed times: this machine's, or the given order.
  }
  try {
    const last = JSON.parse(readFileSync(path.join(timingsDir, `${pass}.json`), 'utf8'));
    for (const f of last.files) if (f.repoFile && !f.failed) known.set(f.repoFile, f.ms);
  } catch {
    // No earlier run here.
  }
  return known;
}

/**
 * What node's runner is given for a pass: a file per process, or the entry file of a group of small files that
 * share one (scripts/test-groups.mjs; only when the tests run compiled, QUIRE_TEST_GROUPS=0 turns it off), longest
 * first by recorded time (scripts/test-durations.json, `node scripts/record-test-durations.mjs` after a whole run,
 * overridden by this machine's last run): with two at a time, a long file that happens to start last runs on
 * alone at the end of the pass, while short ones fill the gaps whatever their order.
 */
/** Each group's entry file and the test files it runs (for the CPU report, which is per process). */
const groupMembers = new Map();

function processEntries(pass, list) {
  const known = knownDurations(pass);
  const cost = (file) => known.get(path.relative(root, file)) ?? UNKNOWN_FILE_MS;
  const processes =
    compiled && process.env.QUIRE_TEST_GROUPS !== '0'
      ? planProcesses(root, list, cost)
      : list.map((file) => [file]);
  const total = (members) => members.reduce((sum, file) => sum + cost(file), 0);
  const groupDir = compiled ? path.join(compiled.root, 'test', '.groups') : '';
  let groups = 0;
  const entries = processes.map((members) => {
    if (members.length === 1) return { entry: runnable(members[0]), cost: total(members) };
    groups += 1;
    mkdirSync(groupDir, { recursive: true });
    const entry = path.join(groupDir, `${pass}-${groups}.test.js`);
    groupMembers.set(entry, members);
    writeFileSync(entry, groupEntrySource(members.map((file) => pathToFileURL(runnable(file)).href)));
    return { entry, cost: total(members) };
  });
  if (groups > 0) {
    console.log(
      `# ${pass}: ${list.length} files in ${entries.length} processes (${groups} groups of small files share one, scripts/test-groups.mjs)`,
    );
  }
  return entries;
}

/** Tests run per pass, for the whole run's last line. */
const testsRun = new Map();

function summarize(pass, timings, wallMs) {
  let report;
  try {
    report = JSON.parse(readFileSync(timings, 'utf8'));
  } catch {
    console.log(`# ${pass}: no timings were written (${timings})`);
    return;
  }
  testsRun.set(pass, report.tests);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  // Per test file: a group's members are listed, its process is not.
  const slowest = report.files.filter((f) => !f.group).sort((a, b) => b.ms - a.ms);
  for (const group of report.files.filter((f) => f.group && f.failed)) {
    console.log(`# ${pass}: a group failed: ${describeProcess(group.file)}`);
  }
  console.log(
    `# ${pass}: ${report.tests} tests in ${report.files.filter((f) => !f.group).length} files (${report.passed} passed, ` +
      `${report.failed} failed, ${report.skipped} skipped), ${seconds(wallMs)} wall`,
  );
  console.log(`# ${pass}: the ${Math.min(SLOWEST_SHOWN, slowest.length)} slowest files:`);
  for (const f of slowest.slice(0, SLOWEST_SHOWN)) {
    console.log(`#   ${seconds(f.ms).padStart(8)}  ${reported(f.file)}${f.failed ? ' (failed)' : ''}`);
  }
  const over = slowest.filter((f) => f.ms > FILE_BUDGET_MS);
  for (const f of over) {
    console.log(`# over budget (${seconds(FILE_BUDGET_MS)}): ${reported(f.file)} took ${seconds(f.ms)}`);
  }
}

/** The machine's CPU ticks since boot from /proc/stat's first line: busy and idle (idle + iowait). */
function machineCpuTicks() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const ticks = fields.map(Number);
    const idle = ticks[3] + (ticks[4] ?? 0);
    return { busy: ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle, idle };
  } catch {
    return null;
  }
}

/** How busy every core of the machine was between two readings (whatever ran, the suite or not). */
function busyPercent(from, to) {
  if (!from || !to) return 'CPU use unknown';
  const busy = to.busy - from.busy;
  const all = busy + to.idle - from.idle;
  return `the machine's CPU ${all > 0 ? Math.round((100 * busy) / all) : 0} % busy`;
}

/** A test process as people read it: its file, or a group's member files. */
function describeProcess(file) {
  const members = groupMembers.get(file);
  if (!members) return reported(file);
  return `${members.length} files in one process: ${members.map((m) => path.relative(root, m)).join(', ')}`;
}

/** user+system CPU seconds of a process, its living descendants and the children they reaped (Linux). */
function processTreeCpuSeconds(rootPid) {
  const stats = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = fields.slice(11, 15).reduce((sum, t) => sum + Number(t), 0);
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks });
    } catch {
      // The process ended while the table was read.
    }
  }
  const inTree = (pid) => {
    for (let p = pid; p > 1; p = stats.get(p)?.ppid ?? 0) if (p === rootPid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, { ticks: t }] of stats) if (inTree(pid)) ticks += t;
  return ticks / 100;
}

/** The `count` test files that cost the most CPU over the passes' records (summarizeCpu), whatever their pass. */
function printCostliestFiles(passes, count) {
  const files = passes.flatMap((pass) => {
    try {
      const { files: list } = JSON.parse(readFileSync(path.join(timingsDir, `${pass}-cpu.json`), 'utf8'));
      return list.map((f) => ({ ...f, pass }));
    } catch {
      return [];
    }
  });
  if (files.length === 0) return;
  console.log(`# the ${Math.min(count, files.length)} test files that cost the most CPU in this run:`);
  for (const f of files.sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, count))
    console.log(`#   ${`${f.cpuSeconds.toFixed(1)} s`.padStart(8)}  ${f.pass}  ${describeProcess(f.file)}`);
}

/**
 * Prints where a pass's CPU went: each file's process with what it reaped (scripts/test-exit-guard.mjs), and the
 * shared Chromium. On two cores a run is as fast as its CPU total allows, so this, not wall time, says which
 * files to make cheaper.
 */
function summarizeCpu(pass, cpuDir) {
  // A process's record, and its tool host's (test/helpers/tool-host.mjs), under the same file: summed.
  const byFile = new Map();
  try {
    for (const name of readdirSync(cpuDir)) {
      const record = JSON.parse(readFileSync(path.join(cpuDir, name), 'utf8'));
      const seen = byFile.get(record.file);
      if (seen) seen.cpuSeconds += record.cpuSeconds;
      else byFile.set(record.file, record);
    }
  } catch {
    return;
  }
  const files = [...byFile.values()];
  rmSync(cpuDir, { recursive: true, force: true });
  if (files.length === 0) return;
  for (const f of files) f.repoFile = reported(f.file);
  writeFileSync(path.join(timingsDir, `${pass}-cpu.json`), `${JSON.stringify({ files }, null, 1)}\n`);
  const total = files.reduce((sum, f) => sum + f.cpuSeconds, 0);
  console.log(
    `# ${pass}: CPU ${total.toFixed(0)} s in the test files' processes; the ` +
      `${Math.min(SLOWEST_SHOWN, files.length)} costliest:`,
  );
  for (const f of files.sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, SLOWEST_SHOWN)) {
    console.log(`#   ${`${f.cpuSeconds.toFixed(1)} s`.padStart(8)}  ${describeProcess(f.file)}`);
  }
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

const firstPass = process.env.QUIRE_TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const onePass = [{ pass: firstPass, list: files, env: {} }];
const concurrency = Number(process.env.QUIRE_TEST_CONCURRENCY ?? '2');
if (!wholeRun || process.env.QUIRE_TEST_POSTGRES === '0') {
  process.exit(await runPasses(onePass, { slots: concurrency }));
}

if (!(await reachable('127.0.0.1', 5432))) {
  if (process.env.CI === 'true') {
    console.error('PostgreSQL is not reachable on 127.0.0.1:5432: CI runs the integration tests on it too.');
    process.exit(1);
  }
  console.log('# PostgreSQL pass skipped: nothing answers on 127.0.0.1:5432.');
  process.exit(await runPasses(onePass, { slots: concurrency }));
}
console.log(
  `# PostgreSQL pass (${PG_URL}): ${plan.postgres.length} integration files (scripts/test-plan.mjs):`,
);
for (const group of POSTGRES_PASS) console.log(`#   ${group.paths.join(', ')}: ${group.reason}`);
console.log('# SQLite only:');
for (const group of SQLITE_ONLY) console.log(`#   ${group.paths.join(', ')}: ${group.reason}`);
console.log('#   and the files that open no database (rendering, Liquid, e-invoice XML, SMTP, visual)');

const passes = [
  { pass: 'sqlite', list: files, env: {} },
  { pass: 'postgres', list: plan.postgres, env: { QUIRE_TEST_DATABASE_URL: PG_URL } },
];
// One scheduler for both passes (scripts/test-scheduler.mjs): QUIRE_TEST_SLOTS processes at once, of which at
// most QUIRE_TEST_POSTGRES_CONCURRENCY on PostgreSQL. QUIRE_TEST_LANES=1 runs the passes one after the other.
const slots = Number(process.env.QUIRE_TEST_SLOTS ?? '3');
const limits = { postgres: Number(process.env.QUIRE_TEST_POSTGRES_CONCURRENCY ?? '2') };
const probeAtStart = probeMs();
const started = Date.now();
const cpuAtStart = machineCpuTicks();
const status =
  process.env.QUIRE_TEST_LANES === '1'
    ? (await runPasses(passes.slice(0, 1), { slots: concurrency })) ||
      (await runPasses(passes.slice(1), { slots: limits.postgres }))
    : await runPasses(passes, { slots, limits });
console.log(
  `# whole run: ${[...testsRun.values()].reduce((a, b) => a + b, 0)} tests (SQLite and PostgreSQL passes), ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s wall, ${busyPercent(cpuAtStart, machineCpuTicks())}`,
);
printCostliestFiles(['sqlite', 'postgres'], 10);
console.log(
  `# machine: the CPU probe (scripts/cpu-probe.mjs) took ${probeAtStart.toFixed(0)} ms before the run: ` +
    `${speedClass(probeAtStart)} (docs/development.md "Machine speed")`,
);
process.exit(status);
