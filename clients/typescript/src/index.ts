import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { type RetryOptions, retryingFetch } from './retry.js';
import type { components, paths } from './schema.js';

export { type RetryOptions, retryDelayMs, retryingFetch } from './retry.js';
export type { components, paths } from './schema.js';
export {
  SIGNATURE_HEADER,
  type VerifyOptions,
  verifyWebhookSignature,
  type WebhookVerdict,
} from './webhooks.js';

export type Schemas = components['schemas'];
export type PdfRequest = Schemas['PdfRequest'];
export type Document = Schemas['Document'];
export type DocumentResult = Schemas['DocumentResult'];
export type QueuedDocument = Schemas['QueuedDocument'];
export type ErrorBody = Schemas['Error'];

export interface QuireClientOptions {
  /** The service's base address, e.g. `https://pdf.example.com` (the client adds `/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Retry rules (spec: Errors); `false` sends every request once. */
  retry?: RetryOptions | false;
  /** Custom fetch (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** An error answer of the API, with the spec's error object. */
export class QuireError extends Error {
  readonly status: number;
  readonly code: string;
  readonly docsUrl: string;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | null;

  constructor(status: number, body: ErrorBody, requestId: string | null) {
    super(`${body.error.code}: ${body.error.message}`);
    this.name = 'QuireError';
    this.status = status;
    this.code = body.error.code;
    this.docsUrl = body.error.docs_url;
    this.details = body.error.details;
    this.requestId = requestId;
  }
}

/** The binary answer of POST /pdf with its headers read. */
export interface PdfFile {
  bytes: Uint8Array;
  contentType: string;
  documentId: string;
  /** null for an XRechnung XML. */
  pages: number | null;
  filename: string | null;
  warnings: unknown[];
  blockedResources: number;
}

/** A new `Idempotency-Key`: retries and replays with it render and count only once. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

type PdfBody = Omit<PdfRequest, 'response' | 'async'>;

export interface RequestOptions {
  /** Default: a new key per call, so the client's own retries never render twice. */
  idempotencyKey?: string;
}

export interface PollOptions {
  /** Wait between reads in ms (default 1000). */
  intervalMs?: number;
  /** Give up after this many ms (default 120000). */
  timeoutMs?: number;
}

/** The typed client: `api` is the generated openapi-fetch client; the methods are the common tasks. */
export class QuireClient {
  readonly api: Client<paths>;

  constructor(options: QuireClientOptions) {
    const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.api = createClient<paths>({
      baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/v1`,
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: options.retry === false ? base : retryingFetch(base, options.retry ?? {}),
    });
  }

  /** POST /pdf answered with the file (PDF, or XML for XRechnung). */
  async pdf(body: PdfBody, options: RequestOptions = {}): Promise<PdfFile> {
    const { data, error, response } = await this.api.POST('/pdf', {
      body: { ...body, response: 'binary' },
      params: { header: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } },
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || data === undefined) throw errorFrom(response, error);
    return readPdfFile(response, data as unknown as ArrayBuffer); // parseAs: arrayBuffer
  }

  /** POST /pdf with `response: url`: the Document with a signed download link. */
  async pdfUrl(body: PdfBody, options: RequestOptions = {}): Promise<DocumentResult> {
    const { data, error, response } = await this.api.POST('/pdf', {
      body: { ...body, response: 'url' },
      params: { header: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } },
    });
    if (error !== undefined || response.status !== 200 || !data) throw errorFrom(response, error);
    return data as DocumentResult;
  }

  /** POST /pdf with `async: true`: queued; see waitForDocument. */
  async pdfAsync(body: PdfBody, options: RequestOptions = {}): Promise<QueuedDocument> {
    const { data, error, response } = await this.api.POST('/pdf', {
      body: { ...body, async: true },
      params: { header: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } },
    });
    if (error !== undefined || response.status !== 202 || !data) throw errorFrom(response, error);
    return data as QueuedDocument;
  }

  /** GET /pdf/{id}. */
  async document(id: string): Promise<Document> {
    const { data, error, response } = await this.api.GET('/pdf/{id}', { params: { path: { id } } });
    if (error !== undefined || !data) throw errorFrom(response, error);
    return data;
  }

  /** Reads the document until it is no longer queued or processing (succeeded, failed or canceled). */
  async waitForDocument(id: string, options: PollOptions = {}): Promise<Document> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    for (;;) {
      const document = await this.document(id);
      if (document.status !== 'queued' && document.status !== 'processing') return document;
      if (Date.now() >= deadline) throw new Error(`Document ${id} is still ${document.status}.`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
    }
  }

  /** Downloads a signed link (document `url`, batch `zip.url`, thumbnails): no key is sent. */
  async download(url: string): Promise<Uint8Array> {
    const response = await fetch(url);
    if (!response.ok) throw errorFrom(response, await response.json().catch(() => null));
    return new Uint8Array(await response.arrayBuffer());
  }
}

function readPdfFile(response: Response, data: ArrayBuffer): PdfFile {
  const headers = response.headers;
  const pages = headers.get('x-pages');
  const disposition = headers.get('content-disposition') ?? '';
  return {
    bytes: new Uint8Array(data),
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    documentId: headers.get('x-document-id') ?? '',
    pages: pages === null ? null : Number(pages),
    filename: /filename="([^"]*)"/.exec(disposition)?.[1] ?? null,
    warnings: JSON.parse(headers.get('x-warnings') ?? '[]') as unknown[],
    blockedResources: Number(headers.get('x-blocked-resources') ?? 0),
  };
}

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string';
}

function errorFrom(response: Response, body: unknown): QuireError {
  const requestId = response.headers.get('x-request-id');
  if (isErrorBody(body)) return new QuireError(response.status, body, requestId);
  const fallback = {
    error: { code: 'unexpected_response', message: `HTTP ${response.status}`, docs_url: '' },
  };
  return new QuireError(response.status, fallback, requestId);
}
