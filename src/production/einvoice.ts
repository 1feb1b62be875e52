import {
  buildKsef,
  embeddedXmlName,
  invoiceTemplateData,
  loadEInvoiceOutput,
  type PreparedEInvoice,
  validateEInvoice,
  XML_STANDARDS,
  xmlFilename,
} from '../einvoice/index.js';
import type { FinishingContribution } from '../finishing/index.js';

/**
 * What an `e_invoice` request produces (spec: E-invoices): XRechnung (and the extensions peppol,
 * en16931-ubl, en16931-cii) is the XML itself and nothing is rendered; Factur-X/ZUGFeRD is a readable PDF made PDF/A-3b with the same XML embedded. The XML and the
 * template data come from one prepared invoice, so the PDF and the XML show the same numbers.
 */
export interface EInvoicePlan {
  prepared: PreparedEInvoice;
  kind: 'xml' | 'pdf';
  xml: string;
  /** The downloadable XML's name (XRechnung) or the embedded attachment's name (PDF). */
  xmlFilename: string;
  /** The default file name: the invoice number. */
  defaultName: string;
}

/** Validates and builds the XML; throws invalid_request / invalid_e_invoice before anything is rendered or counted. */
export async function planEInvoice(input: unknown): Promise<EInvoicePlan> {
  const validation = validateEInvoice(input);
  if (!validation.ok) throw validation.error;
  const { buildCii, buildUbl } = await loadEInvoiceOutput();
  const prepared = validation.value;
  const defaultName = prepared.invoice.number;
  const syntax = XML_STANDARDS[prepared.standard];
  if (syntax) {
    const xml =
      syntax === 'ksef'
        ? buildKsef(prepared)
        : syntax === 'ubl'
          ? buildUbl(prepared)
          : buildCii(prepared, prepared.profile);
    return { prepared, kind: 'xml', xml, xmlFilename: xmlFilename(prepared), defaultName };
  }
  return {
    prepared,
    kind: 'pdf',
    xml: buildCii(prepared, prepared.profile),
    xmlFilename: embeddedXmlName(prepared.profile),
    defaultName,
  };
}

/** The data templates receive for an e-invoice (seller, customer, invoice, items, totals, …). */
export function eInvoiceData(plan: EInvoicePlan): Record<string, unknown> {
  return invoiceTemplateData(plan.prepared);
}

/**
 * What a Factur-X/ZUGFeRD invoice adds to the document's finishing (src/finishing): PDF/A-3b and the XML
 * as an associated file, after any test watermark (which uses an embedded font).
 */
export async function eInvoiceFinishing(
  plan: EInvoicePlan,
  builtInTemplate: boolean,
): Promise<FinishingContribution> {
  const { prepared } = plan;
  const { profile } = prepared;
  // KSeF FA(3) is XML only (planEInvoice never makes it a PDF).
  if (profile === 'fa3') throw new Error('A KSeF FA(3) invoice has no PDF to finish.');
  const { facturXFinishing } = await loadEInvoiceOutput();
  const contribution = facturXFinishing(plan.xml, {
    profile,
    attachmentName: plan.xmlFilename === 'xrechnung.xml' ? 'xrechnung.xml' : 'factur-x.xml',
    title: `Invoice ${prepared.invoice.number}`,
    author: prepared.invoice.seller.name,
    invoiceNumber: prepared.invoice.number,
  });
  // Quire's own template is written accessible (headings, <html lang>): it is tagged and PDF/UA-identified.
  return { ...contribution, accessible: builtInTemplate };
}

/** `{standard, profile, xml_filename}` as responses, records and events carry it. */
export interface EInvoiceSummary {
  standard: string;
  profile: string;
  xml_filename: string;
}

export function eInvoiceSummary(plan: EInvoicePlan): EInvoiceSummary {
  return { standard: plan.prepared.standard, profile: plan.prepared.profile, xml_filename: plan.xmlFilename };
}
