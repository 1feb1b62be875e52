import { randomUUID } from 'node:crypto';
import { type PdfFile, readPdfFile } from '../binary.js';
import { unwrap } from '../core.js';
import { errorFrom } from '../errors.js';
import type {
  DocumentResult,
  PdfInspection,
  PdfInspectRequest,
  PdfSplitRequest,
  PdfTransformRequest,
} from '../types.js';
import { Resource } from './resource.js';

type TransformBody = Omit<PdfTransformRequest, 'response'>;

/** The PDF tools (extension) over PDFs a team already has: `quire.pdf.inspect`, `.transform`, `.split`. */
export class PdfTools extends Resource {
  /** POST /pdf/inspect: pages, sizes, metadata, attachments, form fields, signatures, fonts (and text). */
  async inspect(body: PdfInspectRequest): Promise<PdfInspection> {
    return unwrap(this.core.api.POST('/pdf/inspect', { body }));
  }

  /** POST /pdf/transform: the steps in order; the result is a document, answered with the file. */
  async transform(body: TransformBody, options: { idempotencyKey?: string } = {}): Promise<PdfFile> {
    const { data, error, response } = await this.core.api.POST('/pdf/transform', {
      body: { ...body, response: 'binary' },
      params: { header: { 'idempotency-key': options.idempotencyKey ?? randomUUID() } },
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || !response.ok) throw errorFrom(response, error);
    return readPdfFile(response, data as unknown as ArrayBuffer); // parseAs: arrayBuffer
  }

  /** POST /pdf/transform with `response: url`: the Document with a signed download link. */
  async transformUrl(
    body: TransformBody,
    options: { idempotencyKey?: string } = {},
  ): Promise<DocumentResult> {
    return (await unwrap(
      this.core.api.POST('/pdf/transform', {
        body: { ...body, response: 'url' },
        params: { header: { 'idempotency-key': options.idempotencyKey ?? randomUUID() } },
      }),
    )) as unknown as DocumentResult;
  }

  /** POST /pdf/split: a ZIP of `{name}-{n}.pdf`, one per range (or per `every` pages). */
  async split(body: PdfSplitRequest): Promise<Uint8Array> {
    const { data, error, response } = await this.core.api.POST('/pdf/split', {
      body,
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || !response.ok) throw errorFrom(response, error);
    return new Uint8Array(data as unknown as ArrayBuffer);
  }
}
