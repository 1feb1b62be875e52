/**
 * Where the CPU of one invoice goes, Quire against raw Chromium (issue 54):
 * `node --import tsx bench/overhead.ts` (after `node scripts/bundle.mjs`). Not a section of
 * `npm run bench`: a probe for profiling work. It alternates rounds of the bench invoice at c=1 and c=2
 * on one `quire serve` and one raw playwright-core Chromium, and splits each side's CPU per invoice by
 * process: the Node process (Quire's server, its main thread and its other threads; for raw, this bench
 * process, which drives playwright) and Chromium's processes by type (browser, renderer, GPU, utility).
 * Quire's process trees are left out of raw's figures (they are children of this process).
 * QUIRE_BENCH_NODE_ARGS passes Node options to the server (`--cpu-prof --cpu-prof-dir=DIR`);
 * QUIRE_OVERHEAD_ROUNDS and QUIRE_OVERHEAD_N size the run. QUIRE_OVERHEAD_BASE=DIR adds a third side,
 * `quire serve` of another checkout (with its own bundle), in the same alternating rounds: a before/after
 * comparison that a shared machine's load reaches alike; QUIRE_OVERHEAD_BASE_NODE_ARGS gives that side its
 * own Node options (with QUIRE_OVERHEAD_BASE=., two sets of options on the same code).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/config.js';
import { postPdf, type QuireProcess, RawChromium, startQuire } from './contenders.js';
import { type RenderOnce, throughput } from './measure.js';
import { processTree } from './proc.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (name: string) => readFileSync(path.join(root, 'bench', 'fixtures', name), 'utf8');
const invoiceLiquid = read('invoice.liquid.html');
const invoiceData = JSON.parse(read('invoice.data.json')) as Record<string, unknown>;
const invoiceHtml = read('invoice.html');
const rounds = Number(process.env.QUIRE_OVERHEAD_ROUNDS ?? 4);
const perRound = Number(process.env.QUIRE_OVERHEAD_N ?? 20);

/** CPU ms of a process tree by kind: `node` (the root) and Chromium's processes by their --type. */
function cpuByKind(rootPid: number, exclude: Set<number>): Record<string, number> {
  const out: Record<string, number> = {};
  const skipped = new Set<number>();
  for (const proc of processTree(rootPid)) {
    if (exclude.has(proc.pid) || exclude.has(proc.ppid) || skipped.has(proc.ppid)) {
      skipped.add(proc.pid);
      continue;
    }
    const kind = proc.pid === rootPid ? 'node' : chromiumKind(proc.pid);
    out[kind] = (out[kind] ?? 0) + proc.cpuMs;
  }
  return out;
}

/** CPU ms of one process's main thread and of its other threads (Liquid workers, libuv, V8's helpers). */
function threadCpu(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main thread' : 'other threads';
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

function chromiumKind(pid: number): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    const type = /--type=([a-z-]+)/.exec(cmd)?.[1];
    if (type === 'utility') return /--utility-sub-type=[a-z.]*network/i.test(cmd) ? 'network' : 'utility';
    return type ?? (cmd.includes('chrom') ? 'browser' : 'other');
  } catch {
    return 'gone';
  }
}

function diff(after: Record<string, number>, before: Record<string, number>, n: number) {
  const out: Record<string, number> = {};
  for (const key of new Set([...Object.keys(after), ...Object.keys(before)]))
    out[key] = ((after[key] ?? 0) - (before[key] ?? 0)) / n;
  return out;
}

function add(into: Record<string, number>, from: Record<string, number>) {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

function prefixed(prefix: string, values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [prefix + k, v]));
}

/** `once` n times at `concurrency` (measure.ts's loop), keeping each call's time. */
async function run(once: RenderOnce, n: number, concurrency: number) {
  const times: number[] = [];
  const timed = async () => {
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  };
  const perSecond = await throughput(timed, n, concurrency);
  return { times, seconds: n / perSecond };
}

/** The base side, with QUIRE_OVERHEAD_BASE_NODE_ARGS as its Node options when set (a V8 flag's effect). */
async function startBase(dir: string): Promise<QuireProcess> {
  const own = process.env.QUIRE_OVERHEAD_BASE_NODE_ARGS;
  const shared = process.env.QUIRE_BENCH_NODE_ARGS;
  if (own !== undefined) process.env.QUIRE_BENCH_NODE_ARGS = own;
  try {
    return await startQuire(dir);
  } finally {
    if (shared === undefined) delete process.env.QUIRE_BENCH_NODE_ARGS;
    else process.env.QUIRE_BENCH_NODE_ARGS = shared;
  }
}

const quire = await startQuire(root);
const baseRoot = process.env.QUIRE_OVERHEAD_BASE;
const base = baseRoot ? await startBase(path.resolve(baseRoot)) : null;
const raw = await RawChromium.start(loadConfig({}).chromiumPath, 4);
const quireSide = (q: QuireProcess) => {
  const pid = q.child.pid ?? 0;
  return {
    once: () => postPdf(q, { html: invoiceLiquid, data: invoiceData }),
    cpu: () => ({ ...cpuByKind(pid, new Set()), ...prefixed('node: ', threadCpu(pid)) }),
  };
};
const notQuire = new Set([quire.child.pid ?? 0, base?.child.pid ?? 0]);
const sides: Record<string, { once: () => Promise<unknown>; cpu: () => Record<string, number> }> = {
  raw: { once: () => raw.render(invoiceHtml), cpu: () => cpuByKind(process.pid, notQuire) },
  ...(base ? { base: quireSide(base) } : {}),
  quire: quireSide(quire),
};
const names = Object.keys(sides);
for (const side of Object.values(sides)) for (let i = 0; i < 8; i++) await side.once();
// Quire makes its other pool pages 3 s after the first: let that settle before measuring.
await new Promise((resolve) => setTimeout(resolve, 4000));

interface SideStats {
  cpu: Record<string, number>;
  times: number[];
  seconds: number;
}

for (const c of [1, 2]) {
  const stats = new Map<string, SideStats>(names.map((n) => [n, { cpu: {}, times: [], seconds: 0 }]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, side] of Object.entries(sides)) {
      const stat = stats.get(name);
      if (!stat) continue;
      const before = side.cpu();
      const result = await run(side.once, perRound, c);
      add(stat.cpu, diff(side.cpu(), before, perRound * rounds));
      stat.times.push(...result.times);
      stat.seconds += result.seconds;
    }
  }
  console.log(`\n## c=${c}: ${rounds} rounds × ${perRound} invoices, alternating`);
  console.log('| side | p50 ms | docs/s | CPU ms/doc total | by process |');
  console.log('|---|---|---|---|---|');
  for (const [name, stat] of stats) {
    const sorted = stat.times.sort((a, b) => a - b);
    const p50 = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
    const total = Object.entries(stat.cpu)
      .filter(([k]) => !k.startsWith('node: '))
      .reduce((sum, [, v]) => sum + v, 0);
    const parts = Object.entries(stat.cpu)
      .filter(([, v]) => Math.abs(v) >= 0.05)
      .sort((x, y) => y[1] - x[1])
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ');
    const rate = (perRound * rounds) / stat.seconds;
    console.log(`| ${name} | ${p50.toFixed(0)} | ${rate.toFixed(2)} | ${total.toFixed(1)} | ${parts} |`);
  }
}
await raw.close();
await quire.close();
await base?.close();
