import type {
  PreparedEInvoice,
  Profile,
  Standard,
  TaxExemption,
  VatCategory,
} from '../../../src/einvoice/model.js';
import { computeTotals, computeVatBreakdown } from '../../../src/einvoice/totals/compute.js';
import { Issues } from '../../../src/einvoice/validate/issues.js';
import { parseInvoice } from '../../../src/einvoice/validate/parse-invoice.js';
import { Fields } from '../../../src/einvoice/validate/reader.js';

// Interim: validateEInvoice is not written yet; parse + totals are the real modules.
const DEFAULTS: Partial<Record<VatCategory, TaxExemption>> = {
  AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' },
  K: { reason: 'Intra-community supply', code: 'VATEX-EU-IC' },
  G: { reason: 'Export outside the EU', code: 'VATEX-EU-G' },
  O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' },
};

export function prepareCase(
  standard: Standard,
  profile: Profile,
  invoice: Record<string, unknown>,
): PreparedEInvoice {
  const issues = new Issues();
  const parsed = parseInvoice(new Fields(invoice, 'e_invoice.invoice', issues));
  if (issues.count > 0) throw new Error(`invalid case: ${JSON.stringify(issues.list)}`);
  const inv = parsed.invoice;
  const used = new Set([...inv.lines, ...inv.allowances, ...inv.charges].map((x) => x.vat.category));
  for (const cat of used) {
    const ex = parsed.sentExemptions[cat] ?? DEFAULTS[cat];
    if (ex) inv.tax_exemptions[cat] = ex;
  }
  const vatBreakdown = computeVatBreakdown(inv.lines, inv.allowances, inv.charges, inv.tax_exemptions);
  const totals = computeTotals(
    inv.lines,
    inv.allowances,
    inv.charges,
    vatBreakdown,
    inv.prepaid_amount,
    inv.rounding_amount,
  );
  return {
    standard,
    profile,
    invoice: inv,
    totals,
    vatBreakdown,
    lines: inv.lines,
    docAllowances: inv.allowances,
    docCharges: inv.charges,
  };
}
