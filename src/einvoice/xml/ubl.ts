import { CREDIT_NOTE_TYPE_CODES } from '../codes.js';
import type { PreparedEInvoice } from '../model.js';
import {
  EN16931_ID,
  EXTENDED_CTC_FR_ID,
  PEPPOL_BILLING_PROCESS,
  PEPPOL_BIS_3_ID,
  XRECHNUNG_3_ID,
} from './cii-profile.js';
import { ublNoteText } from './fr-ctc.js';
import { HR_CIUS_ID, HR_DEFAULT_PROCESS, hrLineTaxCategory, hrSellerContact } from './hr-cius.js';
import { paymentGroups } from './payment-groups.js';
import { ublLine } from './ubl-lines.js';
import { ublDelivery, ublParty } from './ubl-parties.js';
import {
  ublDocAllowanceCharge,
  ublMonetaryTotal,
  ublPaymentMeans,
  ublPaymentTerms,
  ublTaxTotal,
} from './ubl-settlement.js';
import { child, leaf, type Node, xmlRoot, xmlText } from './xml-text.js';

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/**
 * BT-24 specification identifier and BT-23 business process of each UBL standard: XRechnung 3.0 and Peppol
 * BIS Billing 3.0 (both in the Peppol billing process), HR-CIUS (its process type, P1 unless sent), plain
 * EN 16931 or France's EXTENDED-CTC-FR with the invoice's own process (the French billing mode).
 */
function ublContext(p: PreparedEInvoice): { customizationId: string; profileId?: string } {
  const mode = p.invoice.billing_mode;
  if (p.standard === 'peppol') return { customizationId: PEPPOL_BIS_3_ID, profileId: PEPPOL_BILLING_PROCESS };
  if (p.standard === 'hr-cius') return { customizationId: HR_CIUS_ID, profileId: mode ?? HR_DEFAULT_PROCESS };
  if (p.standard === 'en16931-ubl')
    return {
      customizationId: p.profile === 'extended-ctc-fr' ? EXTENDED_CTC_FR_ID : EN16931_ID,
      profileId: mode,
    };
  return { customizationId: XRECHNUNG_3_ID, profileId: PEPPOL_BILLING_PROCESS };
}

/**
 * UBL 2.1 Invoice, or CreditNote for credit-note type codes (SPEC "E-invoices"), as XRechnung 3.0,
 * Peppol BIS Billing 3.0 or plain EN 16931 according to the prepared standard.
 */
export function buildUbl(prepared: PreparedEInvoice): string {
  const creditNote = CREDIT_NOTE_TYPE_CODES.has(prepared.invoice.type_code);
  const docName = creditNote ? 'CreditNote' : 'Invoice';
  const root = xmlRoot(`ubl:${docName}`, {
    'xmlns:ubl': `urn:oasis:names:specification:ubl:schema:xsd:${docName}-2`,
    'xmlns:cac': CAC,
    'xmlns:cbc': CBC,
  });
  header(root, prepared, creditNote);
  references(root, prepared, creditNote);
  parties(root, prepared);
  ublPaymentMeans(root, prepared, creditNote);
  ublPaymentTerms(root, prepared);
  const currency = prepared.invoice.currency;
  for (const a of prepared.docAllowances) ublDocAllowanceCharge(root, a, false, currency);
  for (const c of prepared.docCharges) ublDocAllowanceCharge(root, c, true, currency);
  ublTaxTotal(root, prepared);
  ublMonetaryTotal(root, prepared);
  const hr = prepared.standard === 'hr-cius';
  for (const line of prepared.lines)
    ublLine(root, line, currency, creditNote, hr ? hrLineTaxCategory(line.vat, prepared.invoice) : undefined);
  return xmlText(root);
}

/** CustomizationID … BuyerReference, InvoicePeriod in the Invoice/CreditNote sequence. */
function header(root: Node, p: PreparedEInvoice, creditNote: boolean): void {
  const inv = p.invoice;
  const context = ublContext(p);
  leaf(root, 'cbc:CustomizationID', context.customizationId);
  leaf(root, 'cbc:ProfileID', context.profileId);
  leaf(root, 'cbc:ID', inv.number);
  leaf(root, 'cbc:IssueDate', inv.issue_date);
  leaf(root, 'cbc:IssueTime', inv.issue_time);
  if (!creditNote) leaf(root, 'cbc:DueDate', inv.payment?.due_date);
  leaf(root, creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', inv.type_code);
  inv.notes.forEach((note, i) => {
    leaf(root, 'cbc:Note', ublNoteText(note, inv.note_subjects?.[i]));
  });
  leaf(root, 'cbc:DocumentCurrencyCode', inv.currency);
  leaf(root, 'cbc:BuyerReference', inv.buyer_reference);
  if (inv.billing_period) {
    const period = child(root, 'cac:InvoicePeriod');
    leaf(period, 'cbc:StartDate', inv.billing_period.start);
    leaf(period, 'cbc:EndDate', inv.billing_period.end);
  }
}

/** BT-13/14 order, BG-3 preceding invoice, BT-12 contract, BT-11 project. */
function references(root: Node, p: PreparedEInvoice, creditNote: boolean): void {
  const inv = p.invoice;
  if (inv.purchase_order_reference || inv.sales_order_reference) {
    const order = child(root, 'cac:OrderReference');
    // cbc:ID is mandatory in UBL; EN 16931-3-2 writes "NA" when only the sales order (BT-14) is known.
    leaf(order, 'cbc:ID', inv.purchase_order_reference ?? 'NA');
    leaf(order, 'cbc:SalesOrderID', inv.sales_order_reference);
  }
  if (inv.preceding_invoice) {
    const ref = child(child(root, 'cac:BillingReference'), 'cac:InvoiceDocumentReference');
    leaf(ref, 'cbc:ID', inv.preceding_invoice.number);
    leaf(ref, 'cbc:IssueDate', inv.preceding_invoice.issue_date);
  }
  if (inv.contract_reference)
    leaf(child(root, 'cac:ContractDocumentReference'), 'cbc:ID', inv.contract_reference);
  if (!inv.project_reference) return;
  if (creditNote) {
    // A CreditNote has no ProjectReference; EN 16931-3-2 puts BT-11 in a document reference typed 50.
    const ref = child(root, 'cac:AdditionalDocumentReference');
    leaf(ref, 'cbc:ID', inv.project_reference);
    leaf(ref, 'cbc:DocumentTypeCode', '50');
  } else {
    leaf(child(root, 'cac:ProjectReference'), 'cbc:ID', inv.project_reference);
  }
}

function parties(root: Node, p: PreparedEInvoice): void {
  const inv = p.invoice;
  const creditorId =
    inv.payment && paymentGroups(inv.payment).directDebit ? inv.payment.creditor_id : undefined;
  const supplier = ublParty(root, 'cac:AccountingSupplierParty', inv.seller, 'seller', creditorId);
  hrSellerContact(supplier, inv);
  ublParty(root, 'cac:AccountingCustomerParty', inv.buyer, 'buyer');
  ublDelivery(root, inv.delivery, inv.delivery_date);
}
