import { MAX_PAGES, MAX_PDF_BYTES, WATERMARK_TEXT } from '../render/index.js';
import { AppError } from '../shared/errors.js';
import {
  inspectMergeSource,
  type MergeInput,
  type MergeRequest,
  mergedPageCount,
  type PlannedSource,
  type ResolvedMerge,
} from './merge.js';

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
 * read with a test key is document_not_found; the team's own, stored, succeeded documents of
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

/** A source found and read (stored documents looked up), not yet checked by qpdf. */
export interface LookedUpSource {
  field: string;
  bytes: Buffer;
  /** The stored document it came from (null: an upload). */
  stored: StoredPdf | null;
}

export interface LookedUpMerge {
  prepend: LookedUpSource[];
  append: LookedUpSource[];
  scope: MergeScope;
}

/**
 * The first half of reading the sources, quick and on the database only: stored documents looked up under
 * the rules above (their sizes summed before any file is read) and read. A wrong id costs no qpdf run.
 */
export async function lookUpMerge(
  port: StoredPdfPort,
  plan: MergeRequest,
  scope: MergeScope,
): Promise<LookedUpMerge> {
  const found = new Map<PlannedSource, StoredPdf>();
  let bytes = 0;
  for (const source of [...plan.prepend, ...plan.append]) {
    const stored = 'bytes' in source ? null : await findSource(port, scope, source);
    if (stored) found.set(source, stored);
    bytes += 'bytes' in source ? source.bytes.length : (stored?.bytes ?? 0);
    if (bytes > MAX_PDF_BYTES)
      throw tooLarge(`The PDFs to merge are over ${MAX_PDF_BYTES / 1024 / 1024} MB together.`, source.field);
  }
  const read = async (source: PlannedSource): Promise<LookedUpSource> => {
    if ('bytes' in source) return { field: source.field, bytes: source.bytes, stored: null };
    const stored = found.get(source) as StoredPdf;
    const file = await stored.read();
    if (!file) throw notStored(source.field);
    return { field: source.field, bytes: file, stored };
  };
  const readAll = async (list: PlannedSource[]) => {
    const out: LookedUpSource[] = [];
    for (const source of list) out.push(await read(source));
    return out;
  };
  return { prepend: await readAll(plan.prepend), append: await readAll(plan.append), scope };
}

/**
 * The second half: every file's pages counted and its encryption or damage refused by qpdf, one source
 * at a time (one request's merge never takes every core). Production runs it beside the render.
 */
export async function inspectMerge(looked: LookedUpMerge): Promise<ResolvedMerge> {
  let pages = 0;
  const inspect = async (source: LookedUpSource): Promise<MergeInput> => {
    const count = await inspectMergeSource(source.bytes, source.field);
    pages += count;
    // At least one rendered page joins them.
    if (pages + 1 > MAX_PAGES)
      throw tooLarge(
        `The merged PDF would have more than ${MAX_PAGES} pages (the sources up to "${source.field}" have ${pages}).`,
        source.field,
      );
    // A test document's own pages already carry the mark.
    const marked = looked.scope.watermark && !source.stored?.test;
    return { field: source.field, bytes: source.bytes, pages: count, marked };
  };
  const prepend: MergeInput[] = [];
  for (const source of looked.prepend) prepend.push(await inspect(source));
  const append: MergeInput[] = [];
  for (const source of looked.append) append.push(await inspect(source));
  return { prepend, append, markText: WATERMARK_TEXT };
}

/** The merged document's pages (docs/pdf-output.md "Merging": the page limit applies to the merged document). */
export function mergedPages(rendered: number, merge: ResolvedMerge | undefined): number {
  if (!merge) return rendered;
  const pages = rendered + mergedPageCount(merge);
  if (pages > MAX_PAGES)
    throw new AppError(
      'document_too_large',
      `The merged PDF has more than ${MAX_PAGES} pages (${rendered} rendered and ${pages - rendered} merged).`,
    );
  return pages;
}

/** The merged document's size, checked once it exists (spec: Limits, 40 MB per PDF). */
export function assertMergedSize(pdf: Buffer): void {
  if (pdf.length > MAX_PDF_BYTES)
    throw new AppError('document_too_large', `The merged PDF is over ${MAX_PDF_BYTES / 1024 / 1024} MB.`);
}

/**
 * The qpdf checks of a document's sources, run beside its render (docs/pdf-output.md "Merging": they cost a process
 * each, which would otherwise add to every merged document's latency). A failure aborts the render and
 * is the request's answer; `failed` tells production that the error is the request's input, not the render.
 */
export class MergeInspection {
  readonly #controller = new AbortController();
  readonly #done: Promise<ResolvedMerge>;
  #failed = false;

  constructor(looked: LookedUpMerge) {
    this.#done = inspectMerge(looked);
    this.#done.catch(() => {
      this.#failed = true;
      this.#controller.abort();
    });
  }

  /** Aborted when a source is refused. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get failed(): boolean {
    return this.#failed;
  }

  done(): Promise<ResolvedMerge> {
    return this.#done;
  }

  /**
   * `work` (the render) with the checks beside it; both must succeed. The source's refusal wins over the
   * render's own error (a render aborted for it).
   */
  async alongside<T>(work: (signal: AbortSignal) => Promise<T>): Promise<{ value: T; merge: ResolvedMerge }> {
    try {
      const value = await work(this.signal);
      return { value, merge: await this.#done };
    } catch (err) {
      if (!this.#failed) throw err;
      return this.#done.then(() => {
        throw err;
      });
    }
  }
}
