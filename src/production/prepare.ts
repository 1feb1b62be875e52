import { BUILT_IN_INVOICE_TEMPLATE } from '../einvoice/index.js';
import { MAX_HTML_BYTES } from '../render/index.js';
import type { LocalResources, PageOptions } from '../render/types.js';
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
  if (Buffer.byteLength(prepared.html) + Buffer.byteLength(prepared.css ?? '') > MAX_HTML_BYTES) {
    throw new AppError('document_too_large', 'The HTML after Liquid, with the CSS, is larger than 5 MB.');
  }
  return prepared;
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
