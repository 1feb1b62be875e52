import { BUILT_IN_INVOICE_TEMPLATE } from '../einvoice/index.js';
import { type LocalResources, MAX_HTML_BYTES, type PageOptions } from '../render/index.js';
import { AppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { type EInvoicePlan, eInvoiceData } from './einvoice.js';
import type {
  BrandKit,
  BrandPort,
  DocumentRequest,
  LiquidPort,
  PageOptionsResolver,
  ResolvedTemplate,
  TemplatePort,
} from './ports.js';

export interface PrepareDeps {
  liquid: LiquidPort;
  templates: TemplatePort;
  pageOptions: PageOptionsResolver;
  /** merge_data semantics (spec: POST /pdf merge_data), owned by the templates capability. */
  mergeData: (data: Record<string, unknown>, merge: Record<string, unknown>) => Record<string, unknown>;
  /** The team's brand assets (Liquid `brand`, served to the renderer); absent: none. */
  brand?: BrandPort;
}

/** A request turned into final HTML and page options, before anything is rendered or recorded. */
export interface PreparedHtml {
  html: string;
  css: string | null;
  warnings: Warning[];
  template: ResolvedTemplate | null;
  page: PageOptions;
  filename: string;
  /** The team's brand-asset links, answered from storage during the render. */
  localResources: LocalResources | null;
  /** Extension: the page the renderer fetches instead of `html` (empty then). */
  sourceUrl: string | null;
}

/**
 * The data Liquid sees: merge_data applied, then the team's `brand` added. A `brand` key of the request's
 * own data (or merge_data) takes precedence: documents that already use that name render as before.
 */
function withMerge(
  deps: PrepareDeps,
  data: Record<string, unknown>,
  merge: Record<string, unknown> | undefined,
  brand: BrandKit | null,
) {
  const merged = merge === undefined ? data : deps.mergeData(data, merge);
  return brand && !Object.hasOwn(merged, 'brand') ? { ...merged, brand: brand.variable } : merged;
}

/**
 * Liquid → HTML with page options and filename, from raw html or a stored template
 * (spec: POST /pdf rules; template defaults: data = sample_data, mode print, filename = template name).
 */
export async function prepareHtml(
  deps: PrepareDeps,
  teamId: string,
  request: DocumentRequest,
  einv: EInvoicePlan | null,
): Promise<PreparedHtml> {
  if (request.source_url !== undefined) return fromSourceUrl(deps, request, request.source_url);
  const brand = (await deps.brand?.forTeam(teamId)) ?? null;
  const prepared =
    request.template_id !== undefined
      ? await fromTemplate(deps, teamId, request, request.template_id, einv, brand)
      : await fromHtml(deps, request, einv, brand);
  assertHtmlSize(prepared.html, prepared.css);
  return prepared;
}

/** Spec: Limits — the HTML after Liquid, with the CSS, is at most 5 MB (document_too_large). */
function assertHtmlSize(html: string, css: string | null | undefined): void {
  if (Buffer.byteLength(html) + Buffer.byteLength(css ?? '') > MAX_HTML_BYTES) {
    throw new AppError('document_too_large', 'The HTML after Liquid, with the CSS, is larger than 5 MB.');
  }
}

async function fromTemplate(
  deps: PrepareDeps,
  teamId: string,
  request: DocumentRequest,
  templateId: string,
  einv: EInvoicePlan | null,
  brand: BrandKit | null,
): Promise<PreparedHtml> {
  const template = await deps.templates.resolve(teamId, templateId, request.template_version);
  const page = deps.pageOptions(request, template.settings, 'print');
  // Spec: with e_invoice the template receives the invoice data; `data` only replaces it.
  const data = request.data ?? (einv ? eInvoiceData(einv) : (template.sampleData ?? {}));
  const rendered = await template.render(withMerge(deps, data, request.merge_data, brand));
  const filename = request.filename ?? einv?.defaultName ?? template.name;
  const localResources = brand?.resources ?? null;
  return { ...rendered, css: template.css, template, page, filename, localResources, sourceUrl: null };
}

async function fromHtml(
  deps: PrepareDeps,
  request: DocumentRequest,
  einv: EInvoicePlan | null,
  brand: BrandKit | null,
): Promise<PreparedHtml> {
  // Without html, an e-invoice renders the built-in invoice template (spec: POST /pdf rule 1).
  const source = request.html ?? (einv ? BUILT_IN_INVOICE_TEMPLATE : '');
  const page = deps.pageOptions(request, null, einv && request.html === undefined ? 'print' : 'fast');
  const data = request.data ?? (einv ? eInvoiceData(einv) : undefined);
  // Spec: html is a Liquid template only when data is present; without data it is used as is.
  const rendered =
    data !== undefined
      ? await deps.liquid.renderSource(source, withMerge(deps, data, request.merge_data, brand))
      : { html: source, warnings: [] };
  const filename = request.filename ?? einv?.defaultName ?? 'document';
  const localResources = brand?.resources ?? null;
  return {
    ...rendered,
    css: request.css ?? null,
    template: null,
    page,
    filename,
    localResources,
    sourceUrl: null,
  };
}

/** What a queued request's check learns without running Liquid: enough to write its queued record. */
export interface CheckedHtml {
  template: Pick<ResolvedTemplate, 'id' | 'name'> | null;
  /** The download name before sanitising (a source_url page's title replaces an empty one later). */
  filename: string;
}

/**
 * A request that will be queued, checked as prepareHtml would refuse it but without rendering Liquid (the
 * worker renders it once): the template exists (template_not_found), the page options are usable
 * (invalid_request), raw html sent with data parses within the spec's limits (template_render_error), and
 * raw html without data (used as is) is within the 5 MB (document_too_large).
 * A stored template was parsed when it was saved. Errors Liquid finds only while rendering (bad filter
 * input, the time and memory limits) and the size after Liquid fail the queued document, before rendering.
 */
export async function checkHtml(
  deps: PrepareDeps,
  teamId: string,
  request: DocumentRequest,
  einv: EInvoicePlan | null,
): Promise<CheckedHtml> {
  if (request.source_url !== undefined) {
    deps.pageOptions(request, null, 'fast');
    return { template: null, filename: request.filename ?? '' };
  }
  if (request.template_id !== undefined) {
    const template = await deps.templates.resolve(teamId, request.template_id, request.template_version);
    deps.pageOptions(request, template.settings, 'print');
    return { template, filename: request.filename ?? einv?.defaultName ?? template.name };
  }
  deps.pageOptions(request, null, einv && request.html === undefined ? 'print' : 'fast');
  const source = request.html ?? (einv ? BUILT_IN_INVOICE_TEMPLATE : '');
  const data = request.data ?? (einv ? eInvoiceData(einv) : undefined);
  // Without data the html is used as is: its size is known now.
  if (data === undefined) assertHtmlSize(source, request.css);
  else await deps.liquid.check(source);
  return { template: null, filename: request.filename ?? einv?.defaultName ?? 'document' };
}

/** Extension: a page fetched by the renderer; its title becomes the filename unless one was sent. */
function fromSourceUrl(deps: PrepareDeps, request: DocumentRequest, sourceUrl: string): PreparedHtml {
  return {
    html: '',
    css: null,
    warnings: [],
    template: null,
    page: deps.pageOptions(request, null, 'fast'),
    filename: request.filename ?? '',
    localResources: null,
    sourceUrl,
  };
}
