import { BUILT_IN_INVOICE_TEMPLATE } from '../einvoice/index.js';
import type { PageOptions } from '../render/types.js';
import { AppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { type EInvoicePlan, eInvoiceData } from './einvoice.js';
import type { LiquidPort, ResolvedTemplate, TemplatePort, TemplateSettings } from './ports.js';
import type { PdfRequest } from './schema.js';

/** Spec "Limits": HTML after Liquid, with CSS. */
const MAX_HTML_BYTES = 5 * 1024 * 1024;

export type PageOptionsResolver = (
  request: PdfRequest,
  template: TemplateSettings | null,
  fallbackMode: 'fast' | 'print',
) => PageOptions;

export interface PrepareDeps {
  liquid: LiquidPort;
  templates: TemplatePort | null;
  pageOptions: PageOptionsResolver;
  /** merge_data semantics (spec: POST /pdf merge_data), owned by the templates capability. */
  mergeData: (data: Record<string, unknown>, merge: Record<string, unknown>) => Record<string, unknown>;
}

/** A request turned into final HTML and page options, before anything is rendered or recorded. */
export interface PreparedHtml {
  html: string;
  css: string | null;
  warnings: Warning[];
  template: ResolvedTemplate | null;
  page: PageOptions;
  filename: string;
}

function withMerge(
  deps: PrepareDeps,
  data: Record<string, unknown>,
  merge: Record<string, unknown> | undefined,
) {
  return merge === undefined ? data : deps.mergeData(data, merge);
}

/**
 * Liquid → HTML with page options and filename, from raw html or a stored template
 * (spec: POST /pdf rules; template defaults: data = sample_data, mode print, filename = template name).
 */
export async function prepareHtml(
  deps: PrepareDeps,
  teamId: string,
  body: PdfRequest,
  einv: EInvoicePlan | null = null,
): Promise<PreparedHtml> {
  const prepared =
    body.template_id !== undefined
      ? await fromTemplate(deps, teamId, body, body.template_id, einv)
      : await fromHtml(deps, body, einv);
  if (Buffer.byteLength(prepared.html) + Buffer.byteLength(prepared.css ?? '') > MAX_HTML_BYTES) {
    throw new AppError('document_too_large', 'The HTML after Liquid, with the CSS, is larger than 5 MB.');
  }
  return prepared;
}

async function fromTemplate(
  deps: PrepareDeps,
  teamId: string,
  body: PdfRequest,
  templateId: string,
  einv: EInvoicePlan | null,
): Promise<PreparedHtml> {
  if (!deps.templates)
    throw new AppError('template_not_found', `No template ${templateId} in this workspace.`);
  const template = await deps.templates.resolve(teamId, templateId, body.template_version);
  const page = deps.pageOptions(body, template.settings, 'print');
  // Spec: with e_invoice the template receives the invoice data; `data` only replaces it.
  const data = body.data ?? (einv ? eInvoiceData(einv) : (template.sampleData ?? {}));
  const rendered = await template.render(withMerge(deps, data, body.merge_data));
  const filename = body.filename ?? einv?.defaultName ?? template.name;
  return { ...rendered, css: template.css, template, page, filename };
}

async function fromHtml(
  deps: PrepareDeps,
  body: PdfRequest,
  einv: EInvoicePlan | null,
): Promise<PreparedHtml> {
  // Without html, an e-invoice renders the built-in invoice template (spec: POST /pdf rule 1).
  const source = body.html ?? (einv ? BUILT_IN_INVOICE_TEMPLATE : '');
  const page = deps.pageOptions(body, null, einv && body.html === undefined ? 'print' : 'fast');
  const data = body.data ?? (einv ? eInvoiceData(einv) : undefined);
  // Spec: html is a Liquid template only when data is present; without data it is used as is.
  const rendered =
    data !== undefined
      ? await deps.liquid.renderSource(source, withMerge(deps, data, body.merge_data))
      : { html: source, warnings: [] };
  const filename = body.filename ?? einv?.defaultName ?? 'document';
  return { ...rendered, css: body.css ?? null, template: null, page, filename };
}
