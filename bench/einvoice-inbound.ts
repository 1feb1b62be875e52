/**
 * Received e-invoice validation (README "Received e-invoices"): `node --import tsx
 * bench/einvoice-inbound.ts`. In process, as POST /v1/e-invoices/validate runs it (the e-invoice worker
 * pool: XSD + official schematron rules from compiled SEF): the first validation after start (a fresh pool:
 * worker start, loading and preparing the rules) and p50/p95 after warm-up, for a typical UBL (Peppol BIS 3.0,
 * CEN + OpenPeppol rules) and CII (Factur-X EN 16931, CEN + Factur-X rules) invoice. Targets: p50 ≤ 150 ms,
 * first ≤ 2 s. QUIRE_BENCH_QUICK=1 takes 5 runs instead of 30. Prints Markdown.
 */
import { readFileSync } from 'node:fs';
import { ReceivedEInvoices } from '../src/einvoice-inbound/index.js';

const RUNS = process.env.QUIRE_BENCH_QUICK === '1' ? 5 : 30;
/** Every file is checked for one team, as one client's requests are. */
const BENCH_TEAM = 'bench';
const CASES = [
  ['UBL, Peppol BIS 3.0 (base-example.xml)', 'tools/einvoice-validate/samples/peppol/base-example.xml'],
  [
    'CII, Factur-X EN 16931 (zf24_EN16931_Einfach.xml)',
    'tools/einvoice-validate/samples/xml/zf24_EN16931_Einfach.xml',
  ],
] as const;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const rows: string[] = [];
for (const [label, file] of CASES) {
  const bytes = readFileSync(file);
  const pool = new ReceivedEInvoices({ threads: 1 });
  const first = await timed(() => pool.validate(BENCH_TEAM, bytes));
  const times: number[] = [];
  // CPU of the whole process (main thread, pool worker, libxml2's thread): the figure a loaded machine cannot inflate.
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) times.push(await timed(() => pool.validate(BENCH_TEAM, bytes)));
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000 / RUNS;
  await pool.close();
  times.sort((a, b) => a - b);
  rows.push(
    `| ${label} | ${first.toFixed(0)} ms | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms | ${cpuMs.toFixed(0)} ms |`,
  );
}
console.log(
  `| Received e-invoice (validate, in process) | first after start | p50 (${RUNS} runs) | p95 | CPU per validation |`,
);
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
