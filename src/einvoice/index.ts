export * from './model.js';
export { EInvoiceDoc } from './openapi-schema.js';
export { toFacturXPdf } from './pdfa/facturx-pdf.js';
export { BUILT_IN_INVOICE_TEMPLATE } from './template/built-in-template.js';
export { invoiceTemplateData } from './template/data.js';
export { validateEInvoice } from './validate/validate.js';
export { buildCii } from './xml/cii.js';
export { embeddedXmlName, xmlFilename } from './xml/filenames.js';
export { buildUbl } from './xml/ubl.js';
