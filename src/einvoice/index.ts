// Extension: Poland's KSeF FA(3), read and written (light: no PDF library behind it).
export { readKsef } from './ksef/read.js';
export { buildKsef, FA3_NAMESPACE } from './ksef/write.js';
export * from './model.js';
export { BUILT_IN_INVOICE_TEMPLATE } from './template/built-in-template.js';
export { invoiceTemplateData } from './template/data.js';
export { validateEInvoice } from './validate/validate.js';
// Extensions: France's EXTENDED-CTC-FR and Croatia's HR-CIUS identifiers and codes (light: no writer behind them).
export { EXTENDED_CTC_FR_ID } from './xml/cii-profile.js';
export { embeddedXmlName, xmlFilename } from './xml/filenames.js';
export { FR_BILLING_MODES, splitUblNote } from './xml/fr-ctc.js';
export { HR_CIUS_ID } from './xml/hr-cius.js';

type Output = typeof import('./xml/cii.js') &
  typeof import('./xml/ubl.js') &
  typeof import('./pdfa/facturx-pdf.js');
let output: Promise<Pick<Output, 'buildCii' | 'buildUbl' | 'facturXFinishing'>> | undefined;

/**
 * The XML builders and the Factur-X finishing contribution, loaded on the first e-invoice: pdf-lib (with xmlbuilder2, which
 * the writers used then) was a tenth of the server's start-up, paid by every install whether it sends
 * e-invoices or not.
 */
export function loadEInvoiceOutput(): Promise<Pick<Output, 'buildCii' | 'buildUbl' | 'facturXFinishing'>> {
  output ??= Promise.all([
    import('./xml/cii.js'),
    import('./xml/ubl.js'),
    import('./pdfa/facturx-pdf.js'),
  ]).then(([cii, ubl, pdfa]) => ({
    buildCii: cii.buildCii,
    buildUbl: ubl.buildUbl,
    facturXFinishing: pdfa.facturXFinishing,
  }));
  return output;
}
