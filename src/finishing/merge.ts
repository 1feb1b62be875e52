import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PDFDocument } from '@cantoo/pdf-lib';
import { AppError } from '../shared/errors.js';
import { overLimits, SUBPROCESS_MEMORY_BYTES, underMemoryLimit } from '../shared/memory-limit.js';
import type { MergeSourceOption } from './schema.js';

const run = promisify(execFile);

/**
 * Budgets of qpdf over a PDF a client sent (README "Merging"): wall-clock time and address space of the
 * subprocess. qpdf reads the page tree without decoding content streams, so a few MB take milliseconds;
 * the limits stop a hostile file (deep object nesting, a compressed object stream that inflates without
 * end) at the cost of its sender's request only — the server's own thread never parses it.
 */
export const QPDF_LIMITS = {
  inspectMs: 10_000,
  mergeMs: 30_000,
  memoryBytes: SUBPROCESS_MEMORY_BYTES,
} as const;
/** qpdf's JSON of a page is ~200 bytes: this fits far more pages than the limit allows. */
const INSPECT_OUTPUT_BYTES = 16 * 1024 * 1024;

/** One source of `prepend`/`append`, read and checked: its bytes and page count. */
export interface MergeInput {
  /** The request field that named it, e.g. `append[1].pdf_base64`. */
  field: string;
  bytes: Buffer;
  pages: number;
  /** The test-document mark is drawn on its pages (an upload in a test document; README "Merging"). */
  marked: boolean;
}

/** The sources of one document, resolved before it is rendered (production does the lookups). */
export interface ResolvedMerge {
  prepend: MergeInput[];
  append: MergeInput[];
  /** The mark's text (the renderer's test-document text), drawn on the `marked` sources' pages. */
  markText: string;
}

/** One source as the request names it: a stored document, or the file (decoded, not yet read). */
export type PlannedSource = { field: string; documentId: string } | { field: string; bytes: Buffer };

/** A request's `prepend` and `append`, kept in the plan until production resolves them. */
export interface MergeRequest {
  prepend: PlannedSource[];
  append: PlannedSource[];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `prepend`/`append` of a request: ids as given, files decoded (their base64 checked). */
export function planMerge(
  prepend: MergeSourceOption[] | undefined,
  append: MergeSourceOption[] | undefined,
): MergeRequest | null {
  if (!prepend?.length && !append?.length) return null;
  const planned = (where: 'prepend' | 'append') =>
    (where === 'prepend' ? prepend : append)?.map((source, i): PlannedSource => {
      if ('document_id' in source)
        return { field: `${where}[${i}].document_id`, documentId: source.document_id };
      const field = `${where}[${i}].pdf_base64`;
      const text = source.pdf_base64.replace(/\s+/g, '');
      if (!BASE64.test(text) || text.length % 4 === 1)
        throw refuse(field, `"${field}" is not base64: send the PDF's bytes base64-encoded.`);
      return { field, bytes: Buffer.from(text, 'base64') };
    }) ?? [];
  return { prepend: planned('prepend'), append: planned('append') };
}

/** Pages of the merged document that come from sources, by where they go. */
export function mergedPageCount(merge: ResolvedMerge): number {
  return [...merge.prepend, ...merge.append].reduce((n, s) => n + s.pages, 0);
}

function refuse(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field });
}

/**
 * qpdf under the budget: the memory limit of src/shared/memory-limit.ts (prlimit's address-space cap).
 * The merge itself runs without it: every source already passed the inspection under the cap, and the
 * extra process start is on the latency of every merged document.
 */
async function qpdf(args: string[], timeoutMs: number, options: { maxBuffer?: number; capped: boolean }) {
  const maxBuffer = options.maxBuffer ?? 1024 * 1024;
  const command = options.capped ? underMemoryLimit('qpdf', args) : { file: 'qpdf', args };
  return run(command.file, command.args, { timeout: timeoutMs, maxBuffer, encoding: 'utf8' });
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-merge-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface QpdfInfo {
  pages?: unknown[];
  encrypt?: { encrypted?: boolean };
}

/**
 * Reads one source's page count with qpdf (a subprocess under QPDF_LIMITS), refusing what cannot be
 * merged: a file qpdf cannot read, an encrypted one (merging would drop its protection, or needs a
 * password Quire does not take), or one without pages. `field` names the source in the refusal.
 */
export async function inspectMergeSource(bytes: Buffer, field: string): Promise<number> {
  if (bytes.subarray(0, 1024).indexOf('%PDF-') < 0)
    throw refuse(field, `"${field}" is not a PDF (it does not start with %PDF-): send the PDF file itself.`);
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'in.pdf');
    await writeFile(input, bytes, { mode: 0o600 });
    let info: QpdfInfo;
    try {
      const { stdout } = await qpdf(
        ['--json=2', '--json-key=encrypt', '--json-key=pages', '--warning-exit-0', input],
        QPDF_LIMITS.inspectMs,
        { maxBuffer: INSPECT_OUTPUT_BYTES, capped: true },
      );
      info = JSON.parse(stdout) as QpdfInfo;
    } catch (err) {
      throw inspectionFailure(err, field);
    }
    if (info.encrypt?.encrypted === true)
      throw refuse(
        field,
        `"${field}" is an encrypted PDF: send it without a password or permissions (e.g. \`qpdf --decrypt\`).`,
      );
    const pages = info.pages?.length ?? 0;
    if (pages === 0) throw refuse(field, `"${field}" has no pages.`);
    return pages;
  });
}

function inspectionFailure(err: unknown, field: string): AppError {
  const e = err as { killed?: boolean; stderr?: unknown; code?: unknown };
  if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
    return new AppError('document_too_large', `"${field}" has far more than 50 pages.`, { field });
  if (e.killed === true || (typeof e.stderr === 'string' && e.stderr.includes('bad_alloc')))
    return refuse(field, `${overLimits(`Reading "${field}"`, QPDF_LIMITS.inspectMs)}: send a simpler PDF.`);
  // qpdf says "invalid password" for a file that needs a user password to open.
  if (typeof e.stderr === 'string' && e.stderr.includes('invalid password'))
    return refuse(
      field,
      `"${field}" is an encrypted PDF that needs a password to open: send it decrypted (e.g. \`qpdf --decrypt --password=… in.pdf out.pdf\`).`,
    );
  return refuse(
    field,
    `"${field}" is a damaged PDF that cannot be read: open and save it again in a PDF tool, or send another file.`,
  );
}

/**
 * The rendered PDF with the sources' pages before and after it, merged by qpdf. The rendered file is
 * qpdf's primary input, so its document-level parts (Info, outline, tags, language) stay those of the
 * merged file; the sources contribute their pages (with their annotations and resources).
 */
export async function mergePdfs(rendered: Buffer, merge: ResolvedMerge): Promise<Buffer> {
  return inTempDir(async (dir) => {
    const main = path.join(dir, 'main.pdf');
    await writeFile(main, rendered, { mode: 0o600 });
    const write = async (source: MergeInput, i: number) => {
      const file = path.join(dir, `source-${i}.pdf`);
      await writeFile(file, source.bytes, { mode: 0o600 });
      return file;
    };
    const before = await Promise.all(merge.prepend.map(write));
    const after = await Promise.all(merge.append.map((s, i) => write(s, merge.prepend.length + i)));
    const output = path.join(dir, 'out.pdf');
    try {
      // Streams are copied as they are: by default qpdf re-encodes every stream whose filters it can
      // undo, and a 6 KB source whose content stream is Flate over Flate of 3 GB of zeros kept it
      // inflating for 80 s (its memory stays flat: qpdf streams, but nothing caps the work).
      await qpdf(
        [
          '--warning-exit-0',
          '--stream-data=preserve',
          main,
          '--pages',
          ...before,
          main,
          ...after,
          '--',
          output,
        ],
        QPDF_LIMITS.mergeMs,
        { capped: false },
      );
    } catch {
      // Each source was read by inspectMergeSource; a failure here is the merge's, not a field's.
      throw new AppError('render_failed', 'The PDFs could not be merged (qpdf failed).');
    }
    return readFile(output);
  });
}

/** Indexes of the merged document's pages that come from `marked` sources. */
export function markedPages(merge: ResolvedMerge, total: number): number[] {
  const out: number[] = [];
  let at = 0;
  for (const source of merge.prepend) {
    if (source.marked) for (let p = 0; p < source.pages; p++) out.push(at + p);
    at += source.pages;
  }
  at = total - merge.append.reduce((n, s) => n + s.pages, 0);
  for (const source of merge.append) {
    if (source.marked) for (let p = 0; p < source.pages; p++) out.push(at + p);
    at += source.pages;
  }
  return out;
}

/** The test-document mark on the merged pages that need it (Chromium drew it on the rendered ones). */
export async function markMergedPages(
  doc: PDFDocument,
  merge: ResolvedMerge,
  draw: (doc: PDFDocument, pages: number[], text: string) => Promise<void>,
): Promise<void> {
  const pages = markedPages(merge, doc.getPageCount());
  if (pages.length > 0) await draw(doc, pages, merge.markText);
}
