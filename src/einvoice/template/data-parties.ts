import type { Address, Invoice, Party } from '../model.js';
import { formatDate, type NumberStyle } from './format.js';
import { typeLabel } from './labels.js';

/** Template values are JSON-like; absent optional fields are null so Liquid reports no missing variable. */
export type View = Record<string, unknown>;

const orNull = (v: string | undefined): string | null => v ?? null;

export function addressView(a: Address): View {
  const cityLine = [a.postal_code, a.city].filter(Boolean).join(' ');
  const lines = [a.line1, a.line2, a.line3, cityLine, a.subdivision, a.country_code].filter(
    (l): l is string => Boolean(l),
  );
  return {
    line1: orNull(a.line1),
    line2: orNull(a.line2),
    line3: orNull(a.line3),
    postal_code: orNull(a.postal_code),
    city: orNull(a.city),
    subdivision: orNull(a.subdivision),
    country_code: a.country_code,
    lines,
    one_line: lines.join(' · '),
  };
}

export function partyView(p: Party): View {
  const c = p.contact;
  return {
    name: p.name,
    trading_name: orNull(p.trading_name),
    address: addressView(p.address),
    vat_id: orNull(p.vat_id),
    tax_number: orNull(p.tax_number),
    id: orNull(p.id),
    id_scheme: orNull(p.id_scheme),
    legal_registration_id: orNull(p.legal_registration_id),
    legal_registration_scheme: orNull(p.legal_registration_scheme),
    electronic_address: p.electronic_address ? { ...p.electronic_address } : null,
    contact:
      c && (c.name || c.phone || c.email)
        ? { name: orNull(c.name), phone: orNull(c.phone), email: orNull(c.email) }
        : null,
    legal_info: orNull(p.legal_info),
  };
}

function periodView(period: { start?: string; end?: string } | undefined, style: NumberStyle): View | null {
  if (!period) return null;
  return {
    start: orNull(period.start),
    end: orNull(period.end),
    start_formatted: formatDate(period.start, style),
    end_formatted: formatDate(period.end, style),
  };
}

export { periodView };

/** The `invoice` object: header fields, references, dates, delivery and notes (SPEC "E-invoices"). */
export function invoiceView(inv: Invoice, style: NumberStyle): View {
  const prec = inv.preceding_invoice;
  return {
    number: inv.number,
    type_code: inv.type_code,
    type_label: typeLabel(inv.type_code),
    issue_date: inv.issue_date,
    issue_date_formatted: formatDate(inv.issue_date, style),
    currency: inv.currency,
    buyer_reference: orNull(inv.buyer_reference),
    purchase_order_reference: orNull(inv.purchase_order_reference),
    sales_order_reference: orNull(inv.sales_order_reference),
    contract_reference: orNull(inv.contract_reference),
    project_reference: orNull(inv.project_reference),
    preceding_invoice: prec
      ? {
          number: prec.number,
          issue_date: orNull(prec.issue_date),
          issue_date_formatted: formatDate(prec.issue_date, style),
        }
      : null,
    delivery_date: orNull(inv.delivery_date),
    delivery_date_formatted: formatDate(inv.delivery_date, style),
    billing_period: periodView(inv.billing_period, style),
    notes: [...inv.notes],
    delivery:
      inv.delivery && (inv.delivery.name || inv.delivery.address)
        ? {
            name: orNull(inv.delivery.name),
            address: inv.delivery.address ? addressView(inv.delivery.address) : null,
          }
        : null,
  };
}
