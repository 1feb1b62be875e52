import { sanitizeFilename } from '../../shared/filenames.js';
import type { PreparedEInvoice, Profile } from '../model.js';

/** XRechnung's XML download: `<invoice number>.xml`, sanitised like every filename (SPEC "E-invoices", Result). */
export function xmlFilename(prepared: PreparedEInvoice): string {
  return sanitizeFilename(prepared.invoice.number, '.xml');
}

/** Name of the XML embedded in the PDF: `xrechnung.xml` for ZUGFeRD's xrechnung profile, else `factur-x.xml`. */
export function embeddedXmlName(profile: Profile): 'factur-x.xml' | 'xrechnung.xml' {
  return profile === 'xrechnung' ? 'xrechnung.xml' : 'factur-x.xml';
}
