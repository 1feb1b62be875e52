import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** tools/einvoice-validate/validate's `--json` report of one file (see its README). */
export interface ValidatorReport {
  file: string;
  type: 'xml' | 'pdf';
  status: 'PASS' | 'FAIL';
  errors: number;
  warnings: number;
  xml?: {
    syntax: string;
    profile: string;
    guidelineId: string;
    invoiceNumber?: string;
    /** What ran: the XSD and each schematron by name (e.g. `PEPPOL-EN16931-UBL`). */
    checks?: { type: string; name: string }[];
  };
  xmp?: { pdfaid?: string; fxConformanceLevel?: string; fxDocumentFileName?: string; fxVersion?: string };
  pdf?: { attachments?: { name: string; AFRelationship: string; mime: string; inCatalogAF: boolean }[] };
  findings: {
    source: string;
    severity: string;
    id?: string;
    ref?: string;
    text: string;
    location?: string;
  }[];
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The official-rules validator kept in the repository; `QUIRE_EINVOICE_VALIDATE` overrides it. */
export const VALIDATOR =
  process.env.QUIRE_EINVOICE_VALIDATE ?? path.join(repoRoot, 'tools', 'einvoice-validate', 'validate');

/**
 * The official validator's reports as snapshots, committed under test/fixtures/einvoice-validator-reports/ by
 * the validator's version (a digest of the validator, its helpers and its rule artefacts) and the file's
 * SHA-256: the same bytes validate the same way, and the JVM run is the slow part of the e-invoice tests. Bytes
 * not seen before (a changed generator) are validated and their report written there, to be committed with the change.
 * A PDF is keyed by its bytes with the trailer's file identifier blanked (see `cacheKeyBytes`).
 * QUIRE_TEST_VALIDATOR_CACHE=0 always runs the validator.
 * The repository's own folder, also when the tests run from the compiled mirror (scripts/compile-tests.mjs),
 * whose test/ folder is deleted after the run.
 */
const CACHE_ROOT = path.join(
  path.dirname(realpathSync(path.join(repoRoot, 'package.json'))),
  'test',
  'fixtures',
  'einvoice-validator-reports',
);
let versionDigest: string | undefined;

function digestTree(hash: ReturnType<typeof createHash>, dir: string, base: string): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) digestTree(hash, full, base);
    else hash.update(path.relative(base, full)).update(readFileSync(full));
  }
}

function validatorVersion(): string {
  if (versionDigest === undefined) {
    // The validator's content, not its path: the tests may run from a mirror of the repository elsewhere.
    const hash = createHash('sha256').update(readFileSync(VALIDATOR));
    const dir = path.dirname(VALIDATOR);
    for (const sub of ['lib', 'artefacts']) {
      if (existsSync(path.join(dir, sub))) digestTree(hash, path.join(dir, sub), dir);
    }
    versionDigest = hash.digest('hex').slice(0, 16);
  }
  return versionDigest;
}

/** The trailer's `/ID [<a> <b>]` of a PDF Quire finished (pdf-lib writes it this way, 16 bytes each). */
const FILE_ID = /\/ID \[ <[0-9a-f]{32}> <[0-9a-f]{32}> \]/g;
/** A tagged PDF's structure element ids (`/ID (node00000409)`, and `/Headers` naming them). */
const NODE_ID = /\(node\d{8}\)/g;

/**
 * The bytes a report is keyed by. Two renders of the same invoice differ in two kinds of identifier only:
 * the random file identifier pdf-lib's convertToPDFA writes, and the structure element ids Chromium numbers
 * from its DOM node counter, which depends on what the browser rendered before. The checks read that they
 * are there, not their values; blanking the values (same length, so every offset stays) lets the same file
 * hit the cache, while any other change still misses and runs the validator.
 */
function cacheKeyBytes(file: string): Buffer {
  const bytes = readFileSync(file);
  if (!file.toLowerCase().endsWith('.pdf')) return bytes;
  const text = bytes.toString('latin1');
  const blanked = text
    .replace(FILE_ID, `/ID [ <${'0'.repeat(32)}> <${'0'.repeat(32)}> ]`)
    .replace(NODE_ID, '(node00000000)');
  return Buffer.from(blanked, 'latin1');
}

function cachePath(file: string, profile: string | undefined): string {
  const digest = createHash('sha256').update(cacheKeyBytes(file)).digest('hex');
  return path.join(CACHE_ROOT, validatorVersion(), `${digest}${profile ? `.${profile}` : ''}.json`);
}

/**
 * Validates many files: cached reports for bytes seen before, one validator run for the rest. A PDF's report
 * is kept only when the caller says its PDFs are `reproducible` (a fixed creation date, or a sample file):
 * one a server made now carries today's date, so its report would never be read again (they piled up
 * untracked, one per run).
 */
export async function validateFiles(
  files: string[],
  { reproducible = false, profile }: { reproducible?: boolean; profile?: string } = {},
): Promise<Map<string, ValidatorReport>> {
  if (process.env.QUIRE_TEST_VALIDATOR_CACHE === '0') return runValidator(files, profile);
  const reports = new Map<string, ValidatorReport>();
  const missing = new Map<string, string>();
  for (const file of files) {
    const cached = cachePath(file, profile);
    if (existsSync(cached)) reports.set(file, { ...JSON.parse(readFileSync(cached, 'utf8')), file });
    else missing.set(file, cached);
  }
  if (missing.size === 0) return reports;
  const fresh = await runValidator([...missing.keys()], profile);
  for (const [file, report] of fresh) {
    reports.set(file, report);
    const cached = missing.get(file);
    if (!cached || (!reproducible && file.toLowerCase().endsWith('.pdf'))) continue;
    mkdirSync(path.dirname(cached), { recursive: true });
    // Renamed into place: another test process may read it at the same moment.
    const partial = `${cached}.${process.pid}`;
    // Without the file's path: a snapshot names no machine's folders (the caller's path is added on reading).
    const { file: _path, ...snapshot } = report;
    writeFileSync(partial, JSON.stringify(snapshot));
    renameSync(partial, cached);
  }
  return reports;
}

/** Runs the validator once for many files (one JVM: the schematron compile dominates); `profile` is its --profile. */
function runValidator(files: string[], profile?: string): Promise<Map<string, ValidatorReport>> {
  return new Promise((resolve, reject) => {
    execFile(
      VALIDATOR,
      ['--json', '--warnings', ...(profile ? ['--profile', profile] : []), ...files],
      { maxBuffer: 64 * 1024 * 1024, timeout: 150_000 },
      (err, stdout, stderr) => {
        // Exit code 1 means "at least one FAIL": the report still comes on stdout.
        if (err && (err as { code?: unknown }).code !== 1) {
          reject(new Error(`validator failed: ${err.message}\n${stderr}`));
          return;
        }
        try {
          const parsed = JSON.parse(stdout) as { reports: ValidatorReport[] };
          resolve(new Map(parsed.reports.map((r) => [r.file, r])));
        } catch (parseErr) {
          reject(
            new Error(
              `validator output is not JSON: ${String(parseErr)}\n${stderr}\n${stdout.slice(0, 2000)}`,
            ),
          );
        }
      },
    );
  });
}

/** Errors, plus Factur-X "marked as not used" reports: a profile must emit only the elements it allows. */
export function problems(report: ValidatorReport): string[] {
  return report.findings
    .filter((f) => f.severity === 'error' || /not used in the given context/.test(f.text))
    .map((f) => `[${f.source}] ${f.id ?? ''} ${f.text.trim()} @ ${f.location ?? ''}`);
}
