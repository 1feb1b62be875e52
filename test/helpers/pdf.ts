import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTool } from './tool-host.js';

/**
 * The one place tests look inside a PDF: poppler (pdfinfo, pdftotext, pdffonts, pdftoppm) and qpdf run on a PDF
 * held in memory, the way an operator would inspect a file Quire made.
 */

const MAX_OUTPUT = 64 * 1024 * 1024;

/** Runs a tool on a PDF held in memory (written to a temp file for the call). */
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

/** A tool's stdout on the PDF (between `args` and `after`); rejects when the tool fails. */
function toolOutput(tool: string, args: string[], pdf: Buffer, after: string[] = []): Promise<string> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await runTool(tool, [...args, file, ...after], { maxBuffer: MAX_OUTPUT });
    return stdout;
  });
}

export interface PdfInfo {
  pages: number;
  /** Page 1 size in points. */
  width: number;
  height: number;
}

export async function pdfInfo(pdf: Buffer): Promise<PdfInfo> {
  const stdout = await toolOutput('pdfinfo', [], pdf);
  const pages = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]);
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
  return { pages, width: Number(size?.[1]), height: Number(size?.[2]) };
}

/** pdfinfo's "Key: value" lines (Title, Author, Creator, Producer, Pages…). */
export async function pdfInfoFields(pdf: Buffer): Promise<Record<string, string>> {
  const stdout = await toolOutput('pdfinfo', [], pdf);
  return Object.fromEntries(
    stdout.split('\n').flatMap((line) => {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      return m ? [[m[1] ?? '', m[2] ?? '']] : [];
    }),
  );
}

/** Page sizes in points as pdfinfo reads them, one per page. */
export async function pageSizes(pdf: Buffer): Promise<Array<{ width: number; height: number }>> {
  const stdout = await toolOutput('pdfinfo', ['-f', '1', '-l', '9999'], pdf);
  return [...stdout.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
  }));
}

/** Extracted text of one page (1-based) or of the whole document, layout kept. */
export function pdfText(pdf: Buffer, page?: number): Promise<string> {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  return toolOutput('pdftotext', [...range, '-layout'], pdf, ['-']);
}

/** Text in content-stream order (reads a rotated watermark as words). */
export function pdfRawText(pdf: Buffer): Promise<string> {
  return toolOutput('pdftotext', ['-raw'], pdf, ['-']);
}

export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word with its box in points (origin top-left) and its page (1-based), from `pdftotext -bbox`. */
export async function pdfWords(pdf: Buffer): Promise<Word[]> {
  const stdout = await toolOutput('pdftotext', ['-bbox'], pdf, ['-']);
  const result: Word[] = [];
  let page = 0;
  for (const line of stdout.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (m) {
      const [, xMin, yMin, xMax, yMax, text] = m;
      result.push({
        page,
        text: text ?? '',
        xMin: +(xMin ?? 0),
        yMin: +(yMin ?? 0),
        xMax: +(xMax ?? 0),
        yMax: +(yMax ?? 0),
      });
    }
  }
  return result;
}

/** Names of the fonts embedded in the PDF (pdffonts), subset prefixes (ABCDEF+) removed. */
export async function pdfFonts(pdf: Buffer): Promise<string[]> {
  const stdout = await toolOutput('pdffonts', [], pdf);
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, '') ?? '')
    .filter((name) => name !== '');
}

/** Each page rendered as raw RGB pixels (pdftoppm's PPM output, at a low resolution by default). */
export async function pagePixels(
  pdf: Buffer,
  dpi = 24,
): Promise<Array<{ width: number; height: number; rgb: Buffer }>> {
  const { pages } = await pdfInfo(pdf);
  return withPdfFile(pdf, async (file) => {
    const result = [];
    for (let p = 1; p <= pages; p++) {
      const { stdout } = await runTool(
        'pdftoppm',
        ['-r', String(dpi), '-f', String(p), '-l', String(p), file],
        {
          encoding: 'buffer',
          maxBuffer: MAX_OUTPUT,
        },
      );
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 40).toString('latin1'));
      assert.ok(header, 'pdftoppm did not write a PPM');
      const width = Number(header[1]);
      const height = Number(header[2]);
      result.push({ width, height, rgb: stdout.subarray(header[0].length) });
    }
    return result;
  });
}

/** Page 1 as a PNG file's bytes at `dpi` (72: one pixel per point). */
export function firstPagePng(pdf: Buffer, dpi = 72): Promise<Buffer> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await runTool('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', file], {
      encoding: 'buffer',
      maxBuffer: MAX_OUTPUT,
    });
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
      const { stdout } = await runTool(tool, [...args, file, ...after], { maxBuffer: MAX_OUTPUT });
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
