import type { Decimal } from 'decimal.js';
import type {
  DocAllowanceCharge,
  InvoiceTotals,
  Line,
  TaxExemption,
  Vat,
  VatBreakdownEntry,
  VatCategory,
} from '../model.js';
import { roundCents, sum, ZERO } from './money.js';

/** Grouping key of a VAT breakdown entry: category and rate (decimal.js prints 19.0 as 19). */
export function vatKey(vat: Vat): string {
  return `${vat.category}|${vat.rate === null ? '' : vat.rate.toString()}`;
}

interface Group {
  vat: Vat;
  taxable: Decimal;
}

/**
 * VAT breakdown (BG-23): one entry per category and rate, taxable amount = line net amounts
 * − document allowances + document charges of that group (BR-S-08 …), tax computed ONCE on it and
 * rounded half away from zero (SPEC "Totals", BR-CO-17). Entries in order of first use.
 */
export function computeVatBreakdown(
  lines: readonly Line[],
  allowances: readonly DocAllowanceCharge[],
  charges: readonly DocAllowanceCharge[],
  exemptions: Partial<Record<VatCategory, TaxExemption>>,
): VatBreakdownEntry[] {
  const groups = new Map<string, Group>();
  const add = (vat: Vat, amount: Decimal) => {
    const key = vatKey(vat);
    const group = groups.get(key) ?? { vat, taxable: ZERO };
    group.taxable = group.taxable.plus(amount);
    groups.set(key, group);
  };
  for (const line of lines) add(line.vat, line.net_amount);
  for (const a of allowances) add(a.vat, a.amount.negated());
  for (const c of charges) add(c.vat, c.amount);
  return [...groups.values()].map((g) => breakdownEntry(g, exemptions[g.vat.category]));
}

function breakdownEntry(group: Group, exemption: TaxExemption | undefined): VatBreakdownEntry {
  const { category, rate } = group.vat;
  const entry: VatBreakdownEntry = {
    category,
    rate,
    taxable_amount: roundCents(group.taxable),
    tax_amount: rate === null ? ZERO : roundCents(group.taxable.times(rate).dividedBy(100)),
  };
  if (exemption?.reason !== undefined) entry.exemption_reason = exemption.reason;
  if (exemption?.code !== undefined) entry.exemption_code = exemption.code;
  return entry;
}

/** Document totals (BG-22) following BR-CO-10 … BR-CO-16. */
export function computeTotals(
  lines: readonly Line[],
  allowances: readonly DocAllowanceCharge[],
  charges: readonly DocAllowanceCharge[],
  breakdown: readonly VatBreakdownEntry[],
  prepaid: Decimal,
  rounding: Decimal,
): InvoiceTotals {
  const lineTotal = sum(lines.map((l) => l.net_amount));
  const allowanceTotal = sum(allowances.map((a) => a.amount));
  const chargeTotal = sum(charges.map((c) => c.amount));
  const taxBasis = lineTotal.minus(allowanceTotal).plus(chargeTotal);
  const taxTotal = sum(breakdown.map((b) => b.tax_amount));
  const grand = taxBasis.plus(taxTotal);
  return {
    line_total: lineTotal,
    allowance_total: allowanceTotal,
    charge_total: chargeTotal,
    tax_basis_total: taxBasis,
    tax_total: taxTotal,
    grand_total: grand,
    prepaid,
    rounding,
    due_payable: grand.minus(prepaid).plus(rounding),
  };
}
