import {
  type FinishingOptions,
  inspectMergeSource,
  type MergeInput,
  type MergeRequest,
  type PlannedSource,
  planFinishing,
  type ResolvedMerge,
} from '../finishing/index.js';
import { MAX_PAGES, MAX_PDF_BYTES, WATERMARK_TEXT } from '../render/index.js';
import { AppError } from '../shared/errors.js';

/** A stored document as merging sees it (the documents capability's row and blob). */
export interface StoredPdf {
  status: string;
  test: boolean;
  contentType: string;
  /** Bytes of the file as recorded (null while not finished). */
  bytes: number | null;
  /** The stored file, or null once it is gone (retention, or never stored). */
  read(): Promise<Buffer | null>;
}

/** The team's documents by id, for `prepend`/`append` `{ document_id }` (any mode; the rules are here). */
export interface StoredPdfPort {
  find(teamId: string, id: string): Promise<StoredPdf | null>;
}

export interface MergeScope {
  teamId: string;
  /** The document being made is a test document: it may merge test documents only. */
  test: boolean;
  /** The document carries the test mark (test documents, previews): merged pages get it too. */
  watermark: boolean;
}

/**
 * The stored document a `{ document_id }` names, under the rules of GET /pdf/<id> (spec: a live document
 * read with a test key is document_not_found; issue 27: the team's own, stored, succeeded documents of
 * the same mode).
 */
async function findSource(
  port: StoredPdfPort,
  scope: MergeScope,
  source: { field: string; documentId: string },
): Promise<StoredPdf> {
  const { field } = source;
  const found = await port.find(scope.teamId, source.documentId);
  // A test document sees test documents only, as a test key does: a live one is not there for it.
  if (!found || (scope.test && !found.test))
    throw new AppError(
      'document_not_found',
      scope.test
        ? `"${field}": there is no test document with this id in your workspace (a test document can merge test documents only).`
        : `"${field}": there is no document with this id in your workspace.`,
      { field },
    );
  if (!scope.test && found.test)
    throw refuse(
      field,
      `"${field}" is a test document: a live document can merge live documents only (test pages carry the test mark).`,
    );
  if (found.status !== 'succeeded')
    throw refuse(
      field,
      `"${field}" is ${found.status}: only a succeeded document can be merged (wait for its pdf.created event).`,
    );
  if (found.contentType !== 'application/pdf')
    throw refuse(field, `"${field}" is an XRechnung XML, not a PDF: it cannot be merged.`);
  return found;
}

function refuse(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field });
}

function notStored(field: string): AppError {
  return new AppError(
    'file_expired',
    `"${field}" is no longer stored (its retention ended, or it was never stored): merge a stored document, or send the file as "pdf_base64".`,
    { field },
  );
}

function tooLarge(message: string, field: string): AppError {
  return new AppError('document_too_large', message, { field });
}

/**
 * Reads and checks the sources of a document before it is rendered: stored documents looked up (their
 * sizes summed before any file is read), every file's pages counted and its encryption or damage
 * refused by qpdf. Sources are read one at a time: one request's merge never takes every core.
 */
export async function resolveMerge(
  port: StoredPdfPort,
  plan: MergeRequest,
  scope: MergeScope,
): Promise<ResolvedMerge> {
  const all = [...plan.prepend, ...plan.append];
  const found = new Map<PlannedSource, StoredPdf>();
  let bytes = 0;
  for (const source of all) {
    if ('bytes' in source) {
      bytes += source.bytes.length;
      continue;
    }
    const stored = await findSource(port, scope, source);
    found.set(source, stored);
    bytes += stored.bytes ?? 0;
    if (bytes > MAX_PDF_BYTES)
      throw tooLarge(`The PDFs to merge are over ${MAX_PDF_BYTES / 1024 / 1024} MB together.`, source.field);
  }
  let pages = 0;
  const inputs = new Map<PlannedSource, MergeInput>();
  for (const source of all) {
    const stored = found.get(source);
    const file = 'bytes' in source ? source.bytes : await stored?.read();
    if (!file) throw notStored(source.field);
    const count = await inspectMergeSource(file, source.field);
    pages += count;
    // At least one rendered page joins them.
    if (pages + 1 > MAX_PAGES)
      throw tooLarge(
        `The merged PDF would have more than ${MAX_PAGES} pages (the sources up to "${source.field}" have ${pages}).`,
        source.field,
      );
    // A test document's own pages already carry the mark.
    const marked = scope.watermark && !stored?.test;
    inputs.set(source, { field: source.field, bytes: file, pages: count, marked });
  }
  const resolved = (list: PlannedSource[]) => list.map((s) => inputs.get(s) as MergeInput);
  return { prepend: resolved(plan.prepend), append: resolved(plan.append), markText: WATERMARK_TEXT };
}

/**
 * The sources of a request that will be queued (async POST /pdf, a batch), checked now so a wrong id or
 * file is refused at once; the job reads them again when it renders.
 */
export async function checkMergeSources(
  port: StoredPdfPort,
  options: FinishingOptions,
  scope: MergeScope,
): Promise<void> {
  const plan = planFinishing(options).merge;
  if (plan) await resolveMerge(port, plan, scope);
}

/** The merged document's size, checked once it exists (spec: Limits, 40 MB per PDF). */
export function assertMergedSize(pdf: Buffer): void {
  if (pdf.length > MAX_PDF_BYTES)
    throw new AppError('document_too_large', `The merged PDF is over ${MAX_PDF_BYTES / 1024 / 1024} MB.`);
}
