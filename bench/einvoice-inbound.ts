/**
 * Received e-invoice validation (README "Received e-invoices"): `node --import tsx
 * bench/einvoice-inbound.ts`. In process, as POST /v1/e-invoices/validate runs it (the e-invoice worker
 * pool: XSD + official schematron rules from compiled SEF): the first validation after start (a fresh pool:
 * worker start, loading and preparing the rules), p50/p95 after warm-up, and the CPU of each validation
 * (median and p95 of the per-file figures), for typical invoices: UBL (Peppol BIS 3.0.21, CEN + OpenPeppol
 * rules), CII (Factur-X 1.09.2 EN 16931, CEN + Factur-X rules) and XRechnung UBL (CEN + KoSIT rules).
 * Targets: CPU ≤ 150 ms per typical XML at the median, first ≤ 2 s. QUIRE_BENCH_QUICK=1 takes 5 runs instead
 * of 30. Prints Markdown and the rule sets each case ran.
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
  [
    'UBL, XRechnung 3.0 (kosit_01.01a-INVOICE_ubl.xml)',
    'tools/einvoice-validate/samples/xml/kosit_01.01a-INVOICE_ubl.xml',
  ],
] as const;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Wall-clock and CPU of one validation. The CPU is the whole process's (main thread, pool worker,
 * libxml2): the figure a loaded machine inflates least. Runs are sequential, so nothing else of the
 * bench's runs in between.
 */
async function timed(work: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await work();
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const rows: string[] = [];
const ruleSets: string[] = [];
for (const [label, file] of CASES) {
  const bytes = readFileSync(file);
  const pool = new ReceivedEInvoices({ threads: 1 });
  const first = await timed(() => pool.validate(BENCH_TEAM, bytes));
  const runs: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timed(() => pool.validate(BENCH_TEAM, bytes)));
  const report = await pool.validate(BENCH_TEAM, bytes);
  await pool.close();
  const wall = runs.map((r) => r.wallMs).sort((a, b) => a - b);
  const cpu = runs.map((r) => r.cpuMs).sort((a, b) => a - b);
  rows.push(
    `| ${label} | ${ms(first.wallMs)} | ${ms(percentile(wall, 50))} | ${ms(percentile(wall, 95))} | ${ms(percentile(cpu, 50))} | ${ms(percentile(cpu, 95))} |`,
  );
  ruleSets.push(`- ${label}: ${report.rules.map((r) => `${r.name} ${r.version}`).join(', ')}`);
}
console.log(
  `| Received e-invoice (validate, in process) | first after start | p50 (${RUNS} runs) | p95 | CPU per validation, median | CPU p95 |`,
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
console.log('');
console.log('Rule sets applied:');
for (const line of ruleSets) console.log(line);
