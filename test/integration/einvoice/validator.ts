import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** tools/einvoice-validate/validate's `--json` report of one file (see its README). */
export interface ValidatorReport {
  file: string;
  type: 'xml' | 'pdf';
  status: 'PASS' | 'FAIL';
  errors: number;
  warnings: number;
  xml?: { syntax: string; profile: string; guidelineId: string; invoiceNumber?: string };
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

/** Runs the validator once for many files (one JVM: the schematron compile dominates). */
export function validateFiles(files: string[]): Promise<Map<string, ValidatorReport>> {
  return new Promise((resolve, reject) => {
    execFile(
      VALIDATOR,
      ['--json', '--warnings', ...files],
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
