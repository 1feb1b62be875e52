import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentRow } from '../documents/index.js';
import { MAX_PDF_BYTES } from '../render/index.js';
import { AppError } from '../shared/errors.js';
import { overLimits } from '../shared/memory-limit.js';
import { fileIn, inTempDir, runTool, type ToolBudget, ToolFailed } from './tools.js';

/** `source`: a stored document of the caller's team and mode, or the file itself. */
export type SourceOption = { document_id: string } | { pdf_base64: string };

/** Where a `{document_id}` source is read (the documents capability). */
export interface SourceDocuments {
  findForTeam(teamId: string, id: string): Promise<DocumentRow | null>;
  readStoredFile(row: DocumentRow): Promise<Buffer | null>;
}

export interface SourceScope {
  teamId: string;
  /** A test key reads test documents only, a live key live ones (as GET /pdf/{id} and `append` do). */
  test: boolean;
  documents: SourceDocuments;
  /** How long qpdf may take over the file (config pdfToolTimeoutMs). */
  budget: ToolBudget;
}

/** The caller's PDF, read and checked by qpdf: ready for the other tools and for pdf-lib. */
export interface OpenedSource {
  /** The file as sent or stored. */
  original: Buffer;
  /** The file without its encryption (the original when it had none); pdf-lib reads `plainCopy` of it. */
  bytes: Buffer;
  pages: number;
  encrypted: boolean;
  /** The name its results take: the document's file name, else "document". */
  name: string;
  /** The field that names the file in a refusal. */
  field: string;
  /** A stored test document already carries the test mark. */
  marked: boolean;
  /** How long each tool may take over it (the scope's). */
  budget: ToolBudget;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function refuse(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field });
}

/** The source's bytes: a stored document under the rules of `append`, or the decoded upload. */
async function readSource(
  source: SourceOption,
  scope: SourceScope,
): Promise<{ bytes: Buffer; name: string; field: string; marked: boolean }> {
  if ('pdf_base64' in source) {
    const field = 'source.pdf_base64';
    const text = source.pdf_base64.replace(/\s+/g, '');
    if (!BASE64.test(text) || text.length % 4 === 1)
      throw refuse(field, `"${field}" is not base64: send the PDF's bytes base64-encoded.`);
    return { bytes: Buffer.from(text, 'base64'), name: 'document', field, marked: false };
  }
  const field = 'source.document_id';
  const row = await scope.documents.findForTeam(scope.teamId, source.document_id);
  if (!row || Boolean(row.test) !== scope.test)
    throw new AppError(
      'document_not_found',
      `"${field}": there is no ${scope.test ? 'test ' : ''}document with this id in your workspace (a ${scope.test ? 'test' : 'live'} key reads ${scope.test ? 'test' : 'live'} documents only).`,
      { field },
    );
  if (row.status !== 'succeeded')
    throw refuse(
      field,
      `"${field}" is ${row.status}: only a succeeded document can be read (wait for its pdf.created event).`,
    );
  if (row.content_type !== 'application/pdf')
    throw refuse(field, `"${field}" is an XRechnung XML, not a PDF.`);
  const bytes = await scope.documents.readStoredFile(row);
  if (!bytes)
    throw new AppError(
      'file_expired',
      `"${field}" is no longer stored (its retention ended, or it was never stored): send the file as "pdf_base64".`,
      { field },
    );
  return { bytes, name: path.parse(row.filename).name || 'document', field, marked: Boolean(row.test) };
}

interface QpdfSummary {
  pages?: unknown[];
  encrypt?: { encrypted?: boolean };
}

/**
 * The source read and checked: qpdf (under the scope's budget and TOOL_LIMITS) counts its pages and opens its encryption with
 * `password` (given to qpdf in a 0600 file, never on its command line). An encrypted file comes back
 * decrypted in `bytes`; a missing or wrong password names the `password` field.
 */
export async function openSource(
  source: SourceOption,
  password: string | undefined,
  scope: SourceScope,
): Promise<OpenedSource> {
  const read = await readSource(source, scope);
  const { field } = read;
  if (read.bytes.length > MAX_PDF_BYTES)
    throw new AppError('document_too_large', `"${field}" is over ${MAX_PDF_BYTES / 1024 / 1024} MB.`, {
      field,
    });
  if (read.bytes.subarray(0, 1024).indexOf('%PDF-') < 0)
    throw refuse(field, `"${field}" is not a PDF (it does not start with %PDF-): send the PDF file itself.`);
  return inTempDir(async (dir) => {
    const input = await fileIn(dir, 'in.pdf', read.bytes);
    const passwordArgs =
      password === undefined ? [] : [`--password-file=${await fileIn(dir, 'pw', password)}`];
    const { budget } = scope;
    const failure = { field, passwordSent: password !== undefined, budget };
    const summary = await qpdfSummary(input, passwordArgs, failure);
    const encrypted = summary.encrypt?.encrypted === true;
    const pages = summary.pages?.length ?? 0;
    if (pages === 0) throw refuse(field, `"${field}" has no pages.`);
    if (encrypted && password === undefined)
      throw refuse(
        'password',
        `"${field}" is an encrypted PDF: send its password in "password" (the user or the owner password).`,
      );
    const bytes = encrypted
      ? await qpdfRewrite(dir, input, ['--decrypt', ...passwordArgs], failure)
      : read.bytes;
    return {
      original: read.bytes,
      bytes,
      pages,
      encrypted,
      name: read.name,
      field,
      marked: read.marked,
      budget,
    };
  });
}

/** What a refusal of the source names: its field, whether a password came with it, the budget it ran under. */
interface FailureContext {
  field: string;
  passwordSent: boolean;
  budget: ToolBudget;
}

async function qpdfSummary(
  input: string,
  passwordArgs: string[],
  failure: FailureContext,
): Promise<QpdfSummary> {
  try {
    const args = [
      '--json=2',
      '--json-key=encrypt',
      '--json-key=pages',
      '--warning-exit-0',
      ...passwordArgs,
      input,
    ];
    return JSON.parse(await runTool('qpdf', args, { timeMs: failure.budget.readMs })) as QpdfSummary;
  } catch (err) {
    throw sourceFailure(err, failure);
  }
}

/** The file at `input` written again by qpdf with `args` (under the write budget, streams kept as they are). */
async function qpdfRewrite(
  dir: string,
  input: string,
  args: string[],
  failure: FailureContext,
): Promise<Buffer> {
  const output = path.join(dir, 'rewritten.pdf');
  try {
    await runTool('qpdf', [...args, '--stream-data=preserve', '--warning-exit-0', input, output], {
      timeMs: failure.budget.writeMs,
    });
  } catch (err) {
    throw sourceFailure(err, failure, failure.budget.writeMs);
  }
  return readFile(output);
}

/**
 * The source as pdf-lib may read it: written again by qpdf in its own process, its objects written plainly
 * (`--object-streams=disable`, only those its pages reach). pdf-lib inflates every object stream and
 * cross-reference stream whole while it loads a file, on the server's thread and outside its heap limit: a
 * 400 KB upload whose object stream inflates to 400 MB held pdf-lib for 4.8 s and grew the process by 600 MB.
 * Written plainly there is nothing to inflate. Only the transform needs it: inspect and split run qpdf and
 * poppler on the file itself.
 */
export async function plainCopy(source: OpenedSource): Promise<Buffer> {
  const { field, budget } = source;
  const plain = await inTempDir(async (dir) =>
    qpdfRewrite(dir, await fileIn(dir, 'in.pdf', source.bytes), ['--object-streams=disable'], {
      field,
      passwordSent: false,
      budget,
    }),
  );
  if (plain.length > MAX_PDF_BYTES)
    throw new AppError(
      'document_too_large',
      `"${field}" is over ${MAX_PDF_BYTES / 1024 / 1024} MB once its compressed object streams are written out: send a smaller PDF.`,
      { field },
    );
  return plain;
}

/**
 * qpdf's refusal of the source, said as the caller's to fix: its password, its size or its damage. `limitMs` is
 * the budget the failed run had (a read's unless said).
 */
export function sourceFailure(
  err: unknown,
  { field, passwordSent, budget }: FailureContext,
  limitMs = budget.readMs,
): unknown {
  if (!(err instanceof ToolFailed)) return err;
  const { stderr, overBudget } = err.failure;
  if (stderr.includes('invalid password'))
    return refuse(
      'password',
      passwordSent
        ? `"password" does not open "${field}": send its user or owner password.`
        : `"${field}" is an encrypted PDF that needs a password to open: send it in "password".`,
    );
  if (overBudget) return refuse(field, `${overLimits(`Reading "${field}"`, limitMs)}: send a simpler PDF.`);
  return refuse(
    field,
    `"${field}" is a damaged PDF that cannot be read: open and save it again in a PDF tool, or send another file.`,
  );
}
