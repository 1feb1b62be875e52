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
