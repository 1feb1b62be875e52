import type { Line, LineAllowanceCharge, LinePeriod, Vat } from '../model.js';
import { CiiLevel, type CiiProfileRules } from './cii-profile.js';
import { amount, child, date102, leaf, type Node, plain } from './xml-text.js';

/** IncludedSupplyChainTradeLineItem (BG-25), BASIC and up; MINIMUM and BASIC WL carry no lines. */
export function ciiLine(parent: Node, line: Line, rules: CiiProfileRules): void {
  const item = child(parent, 'ram:IncludedSupplyChainTradeLineItem');
  const doc = child(item, 'ram:AssociatedDocumentLineDocument');
  leaf(doc, 'ram:LineID', line.id);
  if (line.note) leaf(child(doc, 'ram:IncludedNote'), 'ram:Content', line.note);
  product(item, line, rules.level);
  agreement(item, line, rules.level);
  const delivery = child(item, 'ram:SpecifiedLineTradeDelivery');
  leaf(delivery, 'ram:BilledQuantity', plain(line.quantity), { unitCode: line.unit_code });
  settlement(item, line, rules.level);
}

/** TradeProductType: GlobalID, SellerAssignedID, BuyerAssignedID, Name, Description, classification (EN 16931+). */
function product(item: Node, line: Line, level: CiiLevel): void {
  const p = child(item, 'ram:SpecifiedTradeProduct');
  if (line.standard_item_id && line.standard_item_scheme) {
    leaf(p, 'ram:GlobalID', line.standard_item_id, { schemeID: line.standard_item_scheme });
  }
  if (level >= CiiLevel.Comfort) {
    leaf(p, 'ram:SellerAssignedID', line.seller_item_id);
    leaf(p, 'ram:BuyerAssignedID', line.buyer_item_id);
  }
  leaf(p, 'ram:Name', line.name);
  if (level < CiiLevel.Comfort) return;
  leaf(p, 'ram:Description', line.description);
  if (line.classification_code) {
    const c = child(p, 'ram:DesignatedProductClassification');
    const scheme = line.classification_scheme;
    leaf(c, 'ram:ClassCode', line.classification_code, scheme ? { listID: scheme } : undefined);
  }
}

/** BT-132 order line reference (EN 16931+), BT-146 net price with BT-149/150 base quantity. */
function agreement(item: Node, line: Line, level: CiiLevel): void {
  const a = child(item, 'ram:SpecifiedLineTradeAgreement');
  if (level >= CiiLevel.Comfort && line.order_line_reference) {
    leaf(child(a, 'ram:BuyerOrderReferencedDocument'), 'ram:LineID', line.order_line_reference);
  }
  const net = child(a, 'ram:NetPriceProductTradePrice');
  leaf(net, 'ram:ChargeAmount', plain(line.unit_price));
  if (!line.price_base_quantity.eq(1)) {
    leaf(net, 'ram:BasisQuantity', plain(line.price_base_quantity), { unitCode: line.unit_code });
  }
}

function settlement(item: Node, line: Line, level: CiiLevel): void {
  const s = child(item, 'ram:SpecifiedLineTradeSettlement');
  ciiCategoryTax(s, 'ram:ApplicableTradeTax', line.vat);
  if (line.period) ciiPeriod(s, line.period);
  const withPercent = level >= CiiLevel.Comfort;
  for (const a of line.allowances) ciiLineAllowanceCharge(s, a, false, withPercent);
  for (const c of line.charges) ciiLineAllowanceCharge(s, c, true, withPercent);
  leaf(
    child(s, 'ram:SpecifiedTradeSettlementLineMonetarySummation'),
    'ram:LineTotalAmount',
    amount(line.net_amount),
  );
}

/** Line VAT (BT-151/152) and allowance/charge VAT: category O has no rate (BR-O-05). */
export function ciiCategoryTax(parent: Node, name: string, vat: Vat): void {
  const t = child(parent, name);
  leaf(t, 'ram:TypeCode', 'VAT');
  leaf(t, 'ram:CategoryCode', vat.category);
  if (vat.rate !== null) leaf(t, 'ram:RateApplicablePercent', plain(vat.rate));
}

/** BillingSpecifiedPeriod: BG-14 (document) or BG-26 (line). */
export function ciiPeriod(parent: Node, period: LinePeriod): void {
  const p = child(parent, 'ram:BillingSpecifiedPeriod');
  if (period.start) dateTime(p, 'ram:StartDateTime', period.start);
  if (period.end) dateTime(p, 'ram:EndDateTime', period.end);
}

export function dateTime(parent: Node, name: string, isoDate: string): void {
  child(child(parent, name), 'udt:DateTimeString', { format: '102' }).txt(date102(isoDate));
}

/**
 * BG-27/BG-28: line allowances and charges have no VAT of their own (they follow the line's). BASIC
 * marks the percentage and base (BT-138/137, BT-143/142) as not used.
 */
function ciiLineAllowanceCharge(
  parent: Node,
  ac: LineAllowanceCharge,
  charge: boolean,
  withPercent: boolean,
): void {
  const el = child(parent, 'ram:SpecifiedTradeAllowanceCharge');
  leaf(child(el, 'ram:ChargeIndicator'), 'udt:Indicator', String(charge));
  if (withPercent && ac.percent) leaf(el, 'ram:CalculationPercent', plain(ac.percent));
  if (withPercent && ac.percent && ac.base_amount) leaf(el, 'ram:BasisAmount', amount(ac.base_amount));
  leaf(el, 'ram:ActualAmount', amount(ac.amount));
  leaf(el, 'ram:ReasonCode', ac.reason_code);
  leaf(el, 'ram:Reason', ac.reason);
}
