import type { DocAllowanceCharge, PreparedEInvoice, VatBreakdownEntry } from '../model.js';
import { ciiCategoryTax, ciiPeriod, dateTime } from './cii-lines.js';
import { CiiLevel, type CiiProfileRules } from './cii-profile.js';
import { paymentGroups } from './payment-groups.js';
import { amount, child, date102, leaf, type Node, plain } from './xml-text.js';

/**
 * ApplicableHeaderTradeSettlement in HeaderTradeSettlementType order: CreditorReferenceID,
 * PaymentReference, InvoiceCurrencyCode, PaymentMeans*, ApplicableTradeTax*, BillingSpecifiedPeriod,
 * AllowanceCharge*, PaymentTerms, MonetarySummation, InvoiceReferencedDocument.
 */
export function ciiSettlement(parent: Node, p: PreparedEInvoice, rules: CiiProfileRules): void {
  const s = child(parent, 'ram:ApplicableHeaderTradeSettlement');
  const inv = p.invoice;
  const pay = inv.payment;
  const full = rules.level >= CiiLevel.BasicWl;
  if (full) {
    if (pay && paymentGroups(pay).directDebit) leaf(s, 'ram:CreditorReferenceID', pay.creditor_id);
    leaf(s, 'ram:PaymentReference', pay?.reference);
  }
  leaf(s, 'ram:InvoiceCurrencyCode', inv.currency);
  if (full) {
    paymentMeans(s, p, rules.level);
    for (const v of p.vatBreakdown) vatBreakdown(s, v, rules);
    if (inv.billing_period) ciiPeriod(s, inv.billing_period);
    for (const a of p.docAllowances) docAllowanceCharge(s, a, false);
    for (const c of p.docCharges) docAllowanceCharge(s, c, true);
    paymentTerms(s, p);
  }
  summation(s, p, rules.level);
  if (full && inv.preceding_invoice) {
    const ref = child(s, 'ram:InvoiceReferencedDocument');
    leaf(ref, 'ram:IssuerAssignedID', inv.preceding_invoice.number);
    const issued = inv.preceding_invoice.issue_date;
    if (issued) {
      const formatted = child(ref, 'ram:FormattedIssueDateTime');
      leaf(formatted, 'qdt:DateTimeString', date102(issued), { format: '102' });
    }
  }
}

/** BG-16: means code BT-81, text BT-82 (EN 16931+), debited account BT-91, payee account BG-17. */
function paymentMeans(s: Node, p: PreparedEInvoice, level: CiiLevel): void {
  const pay = p.invoice.payment;
  if (!pay) return;
  const m = child(s, 'ram:SpecifiedTradeSettlementPaymentMeans');
  leaf(m, 'ram:TypeCode', pay.means_code);
  if (level >= CiiLevel.Comfort) leaf(m, 'ram:Information', pay.means_text);
  const groups = paymentGroups(pay);
  if (groups.directDebit && pay.debited_iban) {
    leaf(child(m, 'ram:PayerPartyDebtorFinancialAccount'), 'ram:IBANID', pay.debited_iban);
  }
  if (groups.creditTransfer && pay.iban) {
    const acc = child(m, 'ram:PayeePartyCreditorFinancialAccount');
    leaf(acc, 'ram:IBANID', pay.iban);
    if (level >= CiiLevel.Comfort) leaf(acc, 'ram:AccountName', pay.account_name);
  }
  if (level >= CiiLevel.Comfort && groups.creditTransfer && pay.bic) {
    leaf(child(m, 'ram:PayeeSpecifiedCreditorFinancialInstitution'), 'ram:BICID', pay.bic);
  }
}

/** BG-23 in TradeTaxType order; category O states rate 0 only in XRechnung (BR-DE-14 vs BR-O-05). */
function vatBreakdown(s: Node, v: VatBreakdownEntry, rules: CiiProfileRules): void {
  const t = child(s, 'ram:ApplicableTradeTax');
  leaf(t, 'ram:CalculatedAmount', amount(v.tax_amount));
  leaf(t, 'ram:TypeCode', 'VAT');
  leaf(t, 'ram:ExemptionReason', v.exemption_reason);
  leaf(t, 'ram:BasisAmount', amount(v.taxable_amount));
  leaf(t, 'ram:CategoryCode', v.category);
  leaf(t, 'ram:ExemptionReasonCode', v.exemption_code);
  if (v.rate !== null) leaf(t, 'ram:RateApplicablePercent', plain(v.rate));
  else if (rules.xrechnung) leaf(t, 'ram:RateApplicablePercent', '0');
}

/** BG-20/BG-21 document allowances and charges with their VAT (BT-95/96, BT-102/103). */
function docAllowanceCharge(s: Node, ac: DocAllowanceCharge, charge: boolean): void {
  const el = child(s, 'ram:SpecifiedTradeAllowanceCharge');
  leaf(child(el, 'ram:ChargeIndicator'), 'udt:Indicator', String(charge));
  if (ac.percent) leaf(el, 'ram:CalculationPercent', plain(ac.percent));
  if (ac.percent && ac.base_amount) leaf(el, 'ram:BasisAmount', amount(ac.base_amount));
  leaf(el, 'ram:ActualAmount', amount(ac.amount));
  leaf(el, 'ram:ReasonCode', ac.reason_code);
  leaf(el, 'ram:Reason', ac.reason);
  ciiCategoryTax(el, 'ram:CategoryTradeTax', ac.vat);
}

/** Payment terms BT-20, due date BT-9, mandate reference BT-89. */
function paymentTerms(s: Node, p: PreparedEInvoice): void {
  const pay = p.invoice.payment;
  if (!pay) return;
  const mandate = paymentGroups(pay).directDebit ? pay.mandate_reference : undefined;
  if (!pay.terms && !pay.due_date && !mandate) return;
  const t = child(s, 'ram:SpecifiedTradePaymentTerms');
  leaf(t, 'ram:Description', pay.terms);
  if (pay.due_date) dateTime(t, 'ram:DueDateDateTime', pay.due_date);
  leaf(t, 'ram:DirectDebitMandateID', mandate);
}

/** BG-22 document totals; MINIMUM has only tax basis, VAT, grand total and amount due. */
function summation(s: Node, p: PreparedEInvoice, level: CiiLevel): void {
  const t = p.totals;
  const m = child(s, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const full = level >= CiiLevel.BasicWl;
  if (full) {
    leaf(m, 'ram:LineTotalAmount', amount(t.line_total));
    if (p.docCharges.length > 0) leaf(m, 'ram:ChargeTotalAmount', amount(t.charge_total));
    if (p.docAllowances.length > 0) leaf(m, 'ram:AllowanceTotalAmount', amount(t.allowance_total));
  }
  leaf(m, 'ram:TaxBasisTotalAmount', amount(t.tax_basis_total));
  leaf(m, 'ram:TaxTotalAmount', amount(t.tax_total), { currencyID: p.invoice.currency });
  if (level >= CiiLevel.Comfort && !t.rounding.isZero()) leaf(m, 'ram:RoundingAmount', amount(t.rounding));
  leaf(m, 'ram:GrandTotalAmount', amount(t.grand_total));
  if (full && !t.prepaid.isZero()) leaf(m, 'ram:TotalPrepaidAmount', amount(t.prepaid));
  leaf(m, 'ram:DuePayableAmount', amount(t.due_payable));
}
