import type { DocAllowanceCharge, PreparedEInvoice } from '../model.js';
import { paymentGroups } from './payment-groups.js';
import { ublAllowanceCharge, ublTaxCategory } from './ubl-lines.js';
import { amount, child, leaf, type Node } from './xml-text.js';

/**
 * BG-16 payment instructions in PaymentMeansType order: code (BT-81, text BT-82 as @name), due date
 * (credit notes only: BT-9 has no header element there), PaymentID (BT-83), PayeeFinancialAccount
 * (BG-17), PaymentMandate (BG-19).
 */
export function ublPaymentMeans(root: Node, p: PreparedEInvoice, creditNote: boolean): void {
  const pay = p.invoice.payment;
  if (!pay) return;
  const m = child(root, 'cac:PaymentMeans');
  leaf(m, 'cbc:PaymentMeansCode', pay.means_code, pay.means_text ? { name: pay.means_text } : undefined);
  if (creditNote) leaf(m, 'cbc:PaymentDueDate', pay.due_date);
  leaf(m, 'cbc:PaymentID', pay.reference);
  const groups = paymentGroups(pay);
  if (groups.creditTransfer && pay.iban) {
    const acc = child(m, 'cac:PayeeFinancialAccount');
    leaf(acc, 'cbc:ID', pay.iban);
    leaf(acc, 'cbc:Name', pay.account_name);
    if (pay.bic) leaf(child(acc, 'cac:FinancialInstitutionBranch'), 'cbc:ID', pay.bic);
  }
  if (groups.directDebit) {
    const mandate = child(m, 'cac:PaymentMandate');
    leaf(mandate, 'cbc:ID', pay.mandate_reference);
    if (pay.debited_iban) leaf(child(mandate, 'cac:PayerFinancialAccount'), 'cbc:ID', pay.debited_iban);
  }
}

export function ublPaymentTerms(root: Node, p: PreparedEInvoice): void {
  const terms = p.invoice.payment?.terms;
  if (terms) leaf(child(root, 'cac:PaymentTerms'), 'cbc:Note', terms);
}

/** BG-20/BG-21 with their VAT category (BT-95/96, BT-102/103). */
export function ublDocAllowanceCharge(
  root: Node,
  ac: DocAllowanceCharge,
  charge: boolean,
  currency: string,
): void {
  const a = ublAllowanceCharge(root, ac, charge, currency);
  ublTaxCategory(a, 'cac:TaxCategory', ac.vat, false);
}

/** BT-110 and the BG-23 breakdown; XRechnung states rate 0 for category O (BR-DE-14). */
export function ublTaxTotal(root: Node, p: PreparedEInvoice): void {
  const currency = p.invoice.currency;
  const t = child(root, 'cac:TaxTotal');
  leaf(t, 'cbc:TaxAmount', amount(p.totals.tax_total), { currencyID: currency });
  for (const v of p.vatBreakdown) {
    const sub = child(t, 'cac:TaxSubtotal');
    leaf(sub, 'cbc:TaxableAmount', amount(v.taxable_amount), { currencyID: currency });
    leaf(sub, 'cbc:TaxAmount', amount(v.tax_amount), { currencyID: currency });
    const exemption = { code: v.exemption_code, reason: v.exemption_reason };
    ublTaxCategory(sub, 'cac:TaxCategory', { category: v.category, rate: v.rate }, true, exemption);
  }
}

/** BG-22 in MonetaryTotalType order. */
export function ublMonetaryTotal(root: Node, p: PreparedEInvoice): void {
  const t = p.totals;
  const cur = { currencyID: p.invoice.currency };
  const m = child(root, 'cac:LegalMonetaryTotal');
  leaf(m, 'cbc:LineExtensionAmount', amount(t.line_total), cur);
  leaf(m, 'cbc:TaxExclusiveAmount', amount(t.tax_basis_total), cur);
  leaf(m, 'cbc:TaxInclusiveAmount', amount(t.grand_total), cur);
  if (p.docAllowances.length > 0) leaf(m, 'cbc:AllowanceTotalAmount', amount(t.allowance_total), cur);
  if (p.docCharges.length > 0) leaf(m, 'cbc:ChargeTotalAmount', amount(t.charge_total), cur);
  if (!t.prepaid.isZero()) leaf(m, 'cbc:PrepaidAmount', amount(t.prepaid), cur);
  if (!t.rounding.isZero()) leaf(m, 'cbc:PayableRoundingAmount', amount(t.rounding), cur);
  leaf(m, 'cbc:PayableAmount', amount(t.due_payable), cur);
}
