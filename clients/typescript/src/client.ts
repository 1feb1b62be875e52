import { randomUUID } from 'node:crypto';
import type { Client } from 'openapi-fetch';
import { type PdfFile, readPdfFile } from './binary.js';
import { Core, type QuireClientOptions, unwrap } from './core.js';
import { errorFrom } from './errors.js';
import { Account } from './resources/account.js';
import { Batches } from './resources/batches.js';
import { BrandAssets } from './resources/brand-assets.js';
import { Certificates } from './resources/certificates.js';
import { Documents, type PollOptions } from './resources/documents.js';
import { EInvoices } from './resources/e-invoices.js';
import { Keys } from './resources/keys.js';
import { Members } from './resources/members.js';
import { PdfTools } from './resources/pdf-tools.js';
import { Spreadsheets } from './resources/spreadsheets.js';
import { Templates } from './resources/templates.js';
import { Webhooks } from './resources/webhooks.js';
import type { paths } from './schema.js';
import type { Document, DocumentResult, PdfRequest, QueuedDocument } from './types.js';

/** A new `Idempotency-Key`: retries and replays with it render and count only once. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

type PdfBody = Omit<PdfRequest, 'response' | 'async'>;

export interface RequestOptions {
  /** Default: a new key per call, so the client's own retries never render twice. */
  idempotencyKey?: string;
}

/**
 * The Quire client. Every method throws QuireError on an error answer; lists are async iterables that page
 * through everything. `api` is the typed openapi-fetch client underneath, for what has no method yet.
 *
 *   const quire = new Quire({ baseUrl: 'https://pdf.example.com', apiKey: process.env.QUIRE_API_KEY! });
 *   const template = await quire.templates.create({ name: 'Invoice', html: '<h1>{{ number }}</h1>' });
 *   const file = await quire.pdf({ template_id: template.id, data: { number: '1001' } });
 */
export class Quire {
  readonly api: Client<paths>;
  readonly documents: Documents;
  readonly templates: Templates;
  readonly batches: Batches;
  readonly spreadsheets: Spreadsheets;
  readonly webhooks: Webhooks;
  readonly brandAssets: BrandAssets;
  readonly keys: Keys;
  readonly members: Members;
  readonly account: Account;
  readonly certificates: Certificates;
  readonly eInvoices: EInvoices;
  readonly #core: Core;

  constructor(options: QuireClientOptions) {
    const core = new Core(options);
    this.#core = core;
    this.api = core.api;
    this.documents = new Documents(core);
    this.templates = new Templates(core);
    this.batches = new Batches(core);
    this.spreadsheets = new Spreadsheets(core);
    this.webhooks = new Webhooks(core);
    this.brandAssets = new BrandAssets(core);
    this.keys = new Keys(core);
    this.members = new Members(core);
    this.account = new Account(core);
    this.certificates = new Certificates(core);
    this.eInvoices = new EInvoices(core);
    const tools = new PdfTools(core);
    this.pdf = Object.assign((body: PdfBody, options: RequestOptions = {}) => this.#pdf(body, options), {
      inspect: tools.inspect.bind(tools),
      transform: tools.transform.bind(tools),
      transformUrl: tools.transformUrl.bind(tools),
      split: tools.split.bind(tools),
    });
  }

  /**
   * POST /pdf answered with the file (PDF, or XML for XRechnung); `quire.pdf.inspect`, `.transform` and
   * `.split` are the PDF tools (extension) over PDFs the team already has.
   */
  readonly pdf: ((body: PdfBody, options?: RequestOptions) => Promise<PdfFile>) &
    Pick<PdfTools, 'inspect' | 'transform' | 'transformUrl' | 'split'>;

  async #pdf(body: PdfBody, options: RequestOptions = {}): Promise<PdfFile> {
    const { data, error, response } = await this.api.POST('/pdf', {
      body: { ...body, response: 'binary' },
      params: { header: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } },
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || !response.ok) throw errorFrom(response, error);
    return readPdfFile(response, data as unknown as ArrayBuffer); // parseAs: arrayBuffer
  }

  /** POST /pdf with `response: url`: the Document with a signed download link. */
  async pdfUrl(body: PdfBody, options: RequestOptions = {}): Promise<DocumentResult> {
    return (await unwrap(
      this.api.POST('/pdf', {
        body: { ...body, response: 'url' },
        params: { header: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } },
      }),
    )) as DocumentResult;
  }

  /** POST /pdf with `async: true`: queued; see `documents.waitFor`. */
  async pdfAsync(body: PdfBody, options: RequestOptions = {}): Promise<QueuedDocument> {
    return (await unwrap(
      this.api.POST('/pdf', {
        body: { ...body, async: true },
        params: { header: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } },
      }),
    )) as QueuedDocument;
  }

  /** GET /pdf/{id} (same as `documents.retrieve`). */
  document(id: string): Promise<Document> {
    return this.documents.retrieve(id);
  }

  /** Same as `documents.waitFor`. */
  waitForDocument(id: string, options: PollOptions = {}): Promise<Document> {
    return this.documents.waitFor(id, options);
  }

  /** Downloads a signed link (document `url`, batch `zip.url`, thumbnails): no key is sent. */
  download(url: string): Promise<Uint8Array> {
    return this.#core.download(url);
  }
}

/** The name the client had before its resource methods; kept so that existing code still compiles. */
export class QuireClient extends Quire {}
