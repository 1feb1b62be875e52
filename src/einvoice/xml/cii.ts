import type { PreparedEInvoice, Profile } from '../model.js';
import { ciiLine, dateTime } from './cii-lines.js';
import { ciiParty, ciiShipTo } from './cii-parties.js';
import { CiiLevel, type CiiProfileRules, ciiRules } from './cii-profile.js';
import { ciiSettlement } from './cii-settlement.js';
import { child, leaf, type Node, xmlRoot, xmlText } from './xml-text.js';

const NAMESPACES = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/**
 * UN/CEFACT CrossIndustryInvoice D16B for a Factur-X/ZUGFeRD profile or XRechnung CII (SPEC
 * "E-invoices"). Each profile emits only the elements its Factur-X XSD allows, in XSD sequence.
 */
export function buildCii(prepared: PreparedEInvoice, profile: Profile): string {
  const rules = ciiRules(profile);
  const root = xmlRoot('rsm:CrossIndustryInvoice', NAMESPACES);
  context(root, rules, prepared.invoice.billing_mode);
  exchangedDocument(root, prepared, rules);
  const tx = child(root, 'rsm:SupplyChainTradeTransaction');
  if (rules.level >= CiiLevel.Basic) for (const line of prepared.lines) ciiLine(tx, line, rules);
  agreement(tx, prepared, rules);
  delivery(tx, prepared, rules);
  ciiSettlement(tx, prepared, rules);
  return xmlText(root);
}

/** BT-23 is the profile's fixed process (XRechnung) or the invoice's own (the French billing mode). */
function context(root: Node, rules: CiiProfileRules, billingMode: string | undefined): void {
  const ctx = child(root, 'rsm:ExchangedDocumentContext');
  const process = rules.businessProcess ?? billingMode;
  if (process) leaf(child(ctx, 'ram:BusinessProcessSpecifiedDocumentContextParameter'), 'ram:ID', process);
  leaf(child(ctx, 'ram:GuidelineSpecifiedDocumentContextParameter'), 'ram:ID', rules.guidelineId);
}

/** BT-1 number, BT-3 type code, BT-2 issue date, BG-1 notes (not in MINIMUM). */
function exchangedDocument(root: Node, p: PreparedEInvoice, rules: CiiProfileRules): void {
  const d = child(root, 'rsm:ExchangedDocument');
  leaf(d, 'ram:ID', p.invoice.number);
  leaf(d, 'ram:TypeCode', p.invoice.type_code);
  dateTime(d, 'ram:IssueDateTime', p.invoice.issue_date);
  if (rules.level < CiiLevel.BasicWl) return;
  p.invoice.notes.forEach((note, i) => {
    const n = child(d, 'ram:IncludedNote');
    leaf(n, 'ram:Content', note);
    leaf(n, 'ram:SubjectCode', p.invoice.note_subjects?.[i]);
  });
}

/**
 * HeaderTradeAgreementType order: BuyerReference, Seller, Buyer, SellerOrderReferencedDocument,
 * BuyerOrderReferencedDocument, ContractReferencedDocument, SpecifiedProcuringProject.
 */
function agreement(tx: Node, p: PreparedEInvoice, rules: CiiProfileRules): void {
  const inv = p.invoice;
  const a = child(tx, 'ram:ApplicableHeaderTradeAgreement');
  leaf(a, 'ram:BuyerReference', inv.buyer_reference);
  ciiParty(a, 'ram:SellerTradeParty', inv.seller, 'seller', rules);
  ciiParty(a, 'ram:BuyerTradeParty', inv.buyer, 'buyer', rules);
  const comfort = rules.level >= CiiLevel.Comfort;
  if (comfort) reference(a, 'ram:SellerOrderReferencedDocument', inv.sales_order_reference);
  reference(a, 'ram:BuyerOrderReferencedDocument', inv.purchase_order_reference);
  if (rules.level >= CiiLevel.BasicWl) reference(a, 'ram:ContractReferencedDocument', inv.contract_reference);
  if (comfort && inv.project_reference) {
    const project = child(a, 'ram:SpecifiedProcuringProject');
    leaf(project, 'ram:ID', inv.project_reference);
    // BT-11 has no name of its own; the CII XSD requires one (EN 16931-3-3 maps it to "Project reference").
    leaf(project, 'ram:Name', 'Project reference');
  }
}

function reference(parent: Node, name: string, id: string | undefined): void {
  if (id) leaf(child(parent, name), 'ram:IssuerAssignedID', id);
}

/** BG-13 deliver-to and BT-72 delivery date; MINIMUM keeps the mandatory element empty. */
function delivery(tx: Node, p: PreparedEInvoice, rules: CiiProfileRules): void {
  const d = child(tx, 'ram:ApplicableHeaderTradeDelivery');
  if (rules.level < CiiLevel.BasicWl) return;
  if (p.invoice.delivery) ciiShipTo(d, p.invoice.delivery);
  if (p.invoice.delivery_date) {
    dateTime(
      child(d, 'ram:ActualDeliverySupplyChainEvent'),
      'ram:OccurrenceDateTime',
      p.invoice.delivery_date,
    );
  }
}
