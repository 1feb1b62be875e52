import { unwrap } from '../core.js';
import type { Body, EInvoiceParse, EInvoiceValidation } from '../types.js';
import { Resource } from './resource.js';

/** Received e-invoices (extension): /e-invoices/validate and /e-invoices/parse. */
export class EInvoices extends Resource {
  /**
   * POST /e-invoices/validate: the official rules on a CII or UBL XML, or a Factur-X/ZUGFeRD PDF
   * (`content_base64`); `{ profile: 'peppol' }` checks against a profile other than the declared one.
   * A file that breaks rules is answered, not thrown: see `valid`, `errors` and `warnings`.
   */
  async validate(body: Body<'validateEInvoice'>): Promise<EInvoiceValidation> {
    return unwrap(this.core.api.POST('/e-invoices/validate', { body }));
  }

  /** POST /e-invoices/parse: the invoice read into Quire's e-invoice model, with its totals. */
  async parse(body: Body<'parseEInvoice'>): Promise<EInvoiceParse> {
    return unwrap(this.core.api.POST('/e-invoices/parse', { body }));
  }
}
