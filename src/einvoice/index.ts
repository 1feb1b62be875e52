export { type FacturXPdfOptions, toFacturXPdf } from './pdfa/facturx-pdf.js';
export { BUILT_IN_INVOICE_TEMPLATE } from './template/built-in-template.js';
export { invoiceTemplateData } from './template/data.js';
export { buildCii } from './xml/cii.js';
export { defaultInvoicePdfFilename, embeddedXmlName, xmlFilename } from './xml/filenames.js';
export { buildUbl, CREDIT_NOTE_TYPE_CODES } from './xml/ubl.js';
