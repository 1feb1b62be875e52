import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a poppler tool on a PDF held in memory. */
async function withPdfFile<T>(pdf: Buffer, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  try {
    return await fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfInfo {
  pages: number;
  /** Page 1 size in points. */
  width: number;
  height: number;
}

export function pdfInfo(pdf: Buffer): Promise<PdfInfo> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', [file]);
    const pages = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]);
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
    return { pages, width: Number(size?.[1]), height: Number(size?.[2]) };
  });
}

/** Extracted text of one page (1-based) or of the whole document. */
export function pdfText(pdf: Buffer, page?: number): Promise<string> {
  return withPdfFile(pdf, async (file) => {
    const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
    const { stdout } = await run('pdftotext', [...range, '-layout', file, '-']);
    return stdout;
  });
}

/** Runs a PDF tool on the file (between `args` and `after`); resolves its stdout even when it exits non-zero (with `code`). */
export function pdfTool(
  tool: string,
  args: string[],
  pdf: Buffer,
  after: string[] = [],
): Promise<{ stdout: string; code: number }> {
  return withPdfFile(pdf, async (file) => {
    try {
      const { stdout } = await run(tool, [...args, file, ...after], { maxBuffer: 32 * 1024 * 1024 });
      return { stdout, code: 0 };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; code?: number };
      return { stdout: `${e.stdout ?? ''}${e.stderr ?? ''}`, code: typeof e.code === 'number' ? e.code : 1 };
    }
  });
}

/** `qpdf --check`: exit 0 (or 3, warnings only) and "No syntax or stream encoding errors". */
export async function qpdfCheck(pdf: Buffer, password?: string): Promise<string> {
  const args = password === undefined ? ['--check'] : ['--check', `--password=${password}`];
  const { stdout, code } = await pdfTool('qpdf', args, pdf);
  if (code !== 0 || !/No syntax or stream encoding errors/.test(stdout))
    throw new Error(`qpdf --check failed (${code}): ${stdout.slice(0, 2000)}`);
  return stdout;
}

type PdfValue = Record<string, unknown>;

/** Every object of the file as qpdf's JSON (v2) shows it, with the catalog and trailer looked up. */
export interface PdfObjects {
  trailer: PdfValue;
  catalog: PdfValue;
  /** The dictionary of `N 0 R` (a stream's dictionary for a stream). */
  get(ref: unknown): PdfValue | undefined;
  all(): PdfValue[];
}

export async function pdfObjects(pdf: Buffer, password?: string): Promise<PdfObjects> {
  const args = ['--json', '--json-key=qpdf', ...(password === undefined ? [] : [`--password=${password}`])];
  const { stdout, code } = await pdfTool('qpdf', args, pdf);
  if (code !== 0 && code !== 3) throw new Error(`qpdf --json failed: ${stdout.slice(0, 500)}`);
  const objects = (JSON.parse(stdout).qpdf as PdfValue[])[1] as Record<
    string,
    { value?: PdfValue; stream?: { dict: PdfValue } }
  >;
  const dict = (key: string) => {
    const o = objects[key];
    return o?.value ?? o?.stream?.dict;
  };
  const trailer = dict('trailer') ?? {};
  const get = (ref: unknown) => (typeof ref === 'string' ? dict(`obj:${ref}`) : undefined);
  return {
    trailer,
    catalog: get(trailer['/Root']) ?? {},
    get,
    all: () =>
      Object.keys(objects)
        .map(dict)
        .filter((v): v is PdfValue => typeof v === 'object' && v !== null),
  };
}
