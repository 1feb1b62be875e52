import type { CDPSession } from 'playwright-core';
import { AppError } from '../shared/errors.js';
import type { PrintToPdfParams } from './paper.js';
import type { WatermarkParams } from './watermark.js';

/** Spec "Limits": pages per PDF / PDF size. */
export const MAX_PAGES = 50;
export const MAX_PDF_BYTES = 40 * 1024 * 1024;
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Prints the loaded document through CDP with bounded cost (spec rule 2 of POST /pdf):
 * - only pages 1–51 are laid out into the PDF, so a 10,000-page document costs 51 pages and still
 *   proves it has more than 50;
 * - the PDF comes back as a stream read under the 40 MB cap, never buffered unbounded.
 * Tags (a structure tree) and the outline (bookmarks from headings) only when the job asks for them
 * (finishing options `tagged`/`outline`/`pdf_ua`): a tagged PDF is larger and slower to print
 * (research/perf-anchors.md; docs/pdf-output.md "Finishing options" has the measured cost).
 */
export async function printToPdf(
  cdp: CDPSession,
  params: PrintToPdfParams | (PrintToPdfParams & WatermarkParams),
  structure: { tagged?: boolean; outline?: boolean } = {},
): Promise<Buffer> {
  const { stream } = await cdp.send('Page.printToPDF', {
    ...params,
    pageRanges: `1-${MAX_PAGES + 1}`,
    transferMode: 'ReturnAsStream',
    generateTaggedPDF: structure.tagged === true,
    generateDocumentOutline: structure.outline === true,
  });
  if (!stream) throw new Error('Chromium returned no PDF stream');
  try {
    return await readCapped(cdp, stream);
  } finally {
    // Not awaited: nothing depends on it, and the render's answer need not wait a round trip for it.
    cdp.send('IO.close', { handle: stream }).catch(() => undefined);
  }
}

const PDF_END = Buffer.from('%%EOF');

/**
 * A read shorter than asked that ends the file (`%%EOF`, then at most a line break) was the last one:
 * Chromium answers `eof` only to one more read, a round trip per document saved. Skia writes
 * one revision, so an earlier `%%EOF` inside the file does not occur.
 */
function endsPdf(chunk: Buffer): boolean {
  if (chunk.length >= READ_CHUNK_BYTES) return false;
  let end = chunk.length;
  while (end > 0 && (chunk[end - 1] === 0x0a || chunk[end - 1] === 0x0d)) end--;
  return end >= PDF_END.length && chunk.subarray(end - PDF_END.length, end).equals(PDF_END);
}

async function readCapped(cdp: CDPSession, handle: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { data, base64Encoded, eof } = await cdp.send('IO.read', { handle, size: READ_CHUNK_BYTES });
    const chunk = Buffer.from(data, base64Encoded ? 'base64' : 'latin1');
    size += chunk.length;
    if (size > MAX_PDF_BYTES) throw tooLarge('The PDF is over 40 MB.');
    chunks.push(chunk);
    if (eof || endsPdf(chunk)) return Buffer.concat(chunks, size);
  }
}

export function tooLarge(message: string): AppError {
  return new AppError('document_too_large', message);
}

// A page object's dictionary; `/Type /Pages` (tree nodes) is excluded by the lookahead.
const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/g;

/**
 * Counts the page objects of a Chromium PDF without parsing it (Skia writes page dictionaries
 * uncompressed; content streams are compressed, so their bytes do not produce false matches).
 */
export function countPdfPages(pdf: Buffer): number {
  return pdf.toString('latin1').match(PAGE_OBJECT)?.length ?? 0;
}
