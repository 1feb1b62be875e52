import type { Decimal } from 'decimal.js';
import {
  type DocAllowanceCharge,
  eInvoiceLabel,
  type Line,
  type LineAllowanceCharge,
  type PreparedEInvoice,
  TOTAL_FIELDS,
  type Vat,
  type VatBreakdownEntry,
} from '../model.js';
import { invoiceView, partyView, periodView, type View } from './data-parties.js';
import {
  formatAmount,
  formatDate,
  formatDecimal,
  formatIban,
  type NumberStyle,
  numberStyleFor,
} from './format.js';
import { meansLabel, unitLabel, vatCategoryLabel } from './labels.js';

/**
 * The data the built-in template (and a caller's `template_id`/`html`) receives for an e-invoice
 * (SPEC "E-invoices": seller, customer, invoice, payment, items with net_amount, totals, vat_breakdown,
 * doc_allowances, doc_charges, e_invoice). Every amount is given raw (`"1234.50"`, the XML's value)
 * and as `<name>_formatted`; both come from the prepared totals, the XML's single source.
 */
export function invoiceTemplateData(prepared: PreparedEInvoice): Record<string, unknown> {
  const inv = prepared.invoice;
  const style = numberStyleFor(inv.seller.address.country_code);
  return {
    seller: partyView(inv.seller),
    customer: partyView(inv.buyer),
    invoice: invoiceView(inv, style),
    payment: paymentView(prepared, style),
    items: prepared.lines.map((line) => itemView(line, style)),
    totals: totalsView(prepared, style),
    vat_breakdown: prepared.vatBreakdown.map((v) => vatView(v, style)),
    doc_allowances: prepared.docAllowances.map((a) => docAcView(a, style)),
    doc_charges: prepared.docCharges.map((c) => docAcView(c, style)),
    e_invoice: {
      standard: prepared.standard,
      profile: prepared.profile,
      label: eInvoiceLabel(prepared.standard, prepared.profile),
    },
  };
}

function money(name: string, value: Decimal, style: NumberStyle): View {
  return { [name]: value.toFixed(2), [`${name}_formatted`]: formatAmount(value, style) };
}

function optDecimal(name: string, value: Decimal | undefined, style: NumberStyle, minFrac: number): View {
  return {
    [name]: value ? value.toFixed() : null,
    [`${name}_formatted`]: value ? formatDecimal(value, style, minFrac, 6) : null,
  };
}

function vatOf(vat: Vat, style: NumberStyle): View {
  const rate = vat.rate === null ? null : formatDecimal(vat.rate, style, 0, 6);
  const label = rate === null ? vat.category : `${rate} %${vat.category === 'S' ? '' : ` ${vat.category}`}`;
  return { category: vat.category, rate: vat.rate === null ? null : vat.rate.toFixed(), label };
}

function acView(ac: LineAllowanceCharge, style: NumberStyle): View {
  return {
    ...money('amount', ac.amount, style),
    ...optDecimal('percent', ac.percent, style, 0),
    ...(ac.base_amount
      ? money('base_amount', ac.base_amount, style)
      : { base_amount: null, base_amount_formatted: null }),
    reason: ac.reason ?? null,
    reason_code: ac.reason_code ?? null,
  };
}

function docAcView(ac: DocAllowanceCharge, style: NumberStyle): View {
  return { ...acView(ac, style), vat: vatOf(ac.vat, style) };
}

function itemView(line: Line, style: NumberStyle): View {
  const baseQty = line.price_base_quantity.eq(1) ? undefined : line.price_base_quantity;
  return {
    id: line.id,
    name: line.name,
    description: line.description ?? null,
    note: line.note ?? null,
    quantity: line.quantity.toFixed(),
    quantity_formatted: formatDecimal(line.quantity, style, 0, 6),
    unit_code: line.unit_code,
    unit_label: unitLabel(line.unit_code),
    unit_price: line.unit_price.toFixed(),
    unit_price_formatted: formatDecimal(line.unit_price, style, 2, 6),
    ...optDecimal('price_base_quantity', baseQty, style, 0),
    vat: vatOf(line.vat, style),
    ...money('gross_amount', line.gross_amount, style),
    ...money('net_amount', line.net_amount, style),
    allowances: line.allowances.map((a) => acView(a, style)),
    charges: line.charges.map((c) => acView(c, style)),
    seller_item_id: line.seller_item_id ?? null,
    buyer_item_id: line.buyer_item_id ?? null,
    standard_item_id: line.standard_item_id ?? null,
    standard_item_scheme: line.standard_item_scheme ?? null,
    order_line_reference: line.order_line_reference ?? null,
    period: periodView(line.period, style),
  };
}

function totalsView(p: PreparedEInvoice, style: NumberStyle): View {
  const t = p.totals;
  const view: View = {
    currency: p.invoice.currency,
    has_allowances: p.docAllowances.length > 0,
    has_charges: p.docCharges.length > 0,
    has_prepaid: !t.prepaid.isZero(),
    has_rounding: !t.rounding.isZero(),
  };
  for (const field of TOTAL_FIELDS) Object.assign(view, money(field, t[field], style));
  return view;
}

function vatView(v: VatBreakdownEntry, style: NumberStyle): View {
  return {
    ...vatOf({ category: v.category, rate: v.rate }, style),
    category_label: vatCategoryLabel(v.category),
    rate_label: v.rate === null ? '–' : `${formatDecimal(v.rate, style, 0, 6)} %`,
    ...money('taxable_amount', v.taxable_amount, style),
    ...money('tax_amount', v.tax_amount, style),
    exemption_reason: v.exemption_reason ?? null,
    exemption_code: v.exemption_code ?? null,
  };
}

function paymentView(p: PreparedEInvoice, style: NumberStyle): View {
  const pay = p.invoice.payment;
  return {
    present: pay !== undefined,
    means_code: pay?.means_code ?? null,
    means_label: pay ? meansLabel(pay.means_code) : null,
    means_text: pay?.means_text ?? null,
    iban: pay?.iban ?? null,
    iban_formatted: formatIban(pay?.iban),
    bic: pay?.bic ?? null,
    account_name: pay?.account_name ?? null,
    reference: pay?.reference ?? null,
    terms: pay?.terms ?? null,
    due_date: pay?.due_date ?? null,
    due_date_formatted: formatDate(pay?.due_date, style),
    mandate_reference: pay?.mandate_reference ?? null,
    creditor_id: pay?.creditor_id ?? null,
    debited_iban: pay?.debited_iban ?? null,
    debited_iban_formatted: formatIban(pay?.debited_iban),
    ...money('due_amount', p.totals.due_payable, style),
  };
}
