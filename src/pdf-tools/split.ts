import { zipSync } from 'fflate';
import { AppError } from '../shared/errors.js';
import { keepPages, selectPages } from './pages.js';
import type { OpenedSource } from './source.js';

/** At most this many parts: each is a qpdf run. */
const MAX_PARTS = 100;

/** One of `ranges` and `every`, checked before the source is read. */
export function checkSplitShape(request: { ranges?: string[]; every?: number }): void {
  if ((request.ranges === undefined) === (request.every === undefined))
    throw new AppError(
      'invalid_request',
      'Send either "ranges" (e.g. ["1", "2-3"]) or "every" (pages per part).',
      {
        field: request.ranges === undefined ? 'ranges' : 'every',
      },
    );
}

/** The parts' pages: the `ranges` as given, or runs of `every` pages. */
export function partsOf(pages: number, request: { ranges?: string[]; every?: number }): number[][] {
  checkSplitShape(request);
  if (request.ranges) return request.ranges.map((range, i) => selectPages(range, pages, `ranges[${i}]`));
  const every = request.every ?? 1;
  const count = Math.ceil(pages / every);
  if (count > MAX_PARTS)
    throw new AppError(
      'invalid_request',
      `"every": ${every} makes ${count} parts of this ${pages}-page PDF; at most ${MAX_PARTS}: send a larger number.`,
      { field: 'every' },
    );
  return Array.from({ length: count }, (_, i) =>
    Array.from({ length: Math.min(every, pages - i * every) }, (_, j) => i * every + j + 1),
  );
}

/** Each part as a PDF of its own (qpdf, one run per part). */
export async function splitParts(source: OpenedSource, parts: number[][]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const pages of parts) out.push(await keepPages(source.bytes, pages, source.budget));
  return out;
}

/** POST /v1/pdf/split: a ZIP of `{name}-{n}.pdf`, one PDF per part, stored as they are (PDFs are compressed). */
export async function splitPdf(source: OpenedSource, parts: number[][]): Promise<Buffer> {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const [i, pdf] of (await splitParts(source, parts)).entries())
    files[`${source.name}-${i + 1}.pdf`] = [pdf, { level: 0 }];
  return Buffer.from(zipSync(files));
}
