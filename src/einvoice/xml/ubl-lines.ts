import type { DocAllowanceCharge, Line, LineAllowanceCharge, Vat } from '../model.js';
import { amount, child, leaf, type Node, plain } from './xml-text.js';

/** cac:InvoiceLine / cac:CreditNoteLine (BG-25) in InvoiceLineType order. */
export function ublLine(
  parent: Node,
  line: Line,
  currency: string,
  creditNote: boolean,
  taxCategory?: TaxCategoryExtra,
): void {
  const el = child(parent, creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
  leaf(el, 'cbc:ID', line.id);
  leaf(el, 'cbc:Note', line.note);
  const qtyName = creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  leaf(el, qtyName, plain(line.quantity), { unitCode: line.unit_code });
  leaf(el, 'cbc:LineExtensionAmount', amount(line.net_amount), { currencyID: currency });
  if (line.period) {
    const p = child(el, 'cac:InvoicePeriod');
    leaf(p, 'cbc:StartDate', line.period.start);
    leaf(p, 'cbc:EndDate', line.period.end);
  }
  if (line.order_line_reference)
    leaf(child(el, 'cac:OrderLineReference'), 'cbc:LineID', line.order_line_reference);
  for (const a of line.allowances) ublAllowanceCharge(el, a, false, currency); // line ones carry no VAT of their own
  for (const c of line.charges) ublAllowanceCharge(el, c, true, currency);
  item(el, line, taxCategory);
  const price = child(el, 'cac:Price');
  leaf(price, 'cbc:PriceAmount', plain(line.unit_price), { currencyID: currency });
  if (!line.price_base_quantity.eq(1)) {
    leaf(price, 'cbc:BaseQuantity', plain(line.price_base_quantity), { unitCode: line.unit_code });
  }
}

/**
 * ItemType order: Description, Name, Buyers-, Sellers-, StandardItemIdentification, CommodityClassification,
 * ClassifiedTaxCategory.
 */
function item(el: Node, line: Line, taxCategory: TaxCategoryExtra | undefined): void {
  const it = child(el, 'cac:Item');
  leaf(it, 'cbc:Description', line.description);
  leaf(it, 'cbc:Name', line.name);
  if (line.buyer_item_id) leaf(child(it, 'cac:BuyersItemIdentification'), 'cbc:ID', line.buyer_item_id);
  if (line.seller_item_id) leaf(child(it, 'cac:SellersItemIdentification'), 'cbc:ID', line.seller_item_id);
  if (line.standard_item_id && line.standard_item_scheme) {
    const std = child(it, 'cac:StandardItemIdentification');
    leaf(std, 'cbc:ID', line.standard_item_id, { schemeID: line.standard_item_scheme });
  }
  if (line.classification_code) {
    const scheme = line.classification_scheme;
    const c = child(it, 'cac:CommodityClassification');
    leaf(c, 'cbc:ItemClassificationCode', line.classification_code, scheme ? { listID: scheme } : undefined);
  }
  ublTaxCategory(it, 'cac:ClassifiedTaxCategory', line.vat, false, taxCategory);
}

/** What a tax category may carry besides its category and rate: a national name (HR-CIUS), an exemption. */
export interface TaxCategoryExtra {
  name?: string;
  code?: string;
  reason?: string;
}

/**
 * TaxCategoryType: ID, Name, Percent, exemption code/reason, TaxScheme. Category O has no rate (BR-O-05),
 * except in the XRechnung VAT breakdown, which must state 0 (BR-DE-14).
 */
export function ublTaxCategory(
  parent: Node,
  name: string,
  vat: Vat,
  zeroRateForO: boolean,
  exemption?: TaxCategoryExtra,
): void {
  const t = child(parent, name);
  leaf(t, 'cbc:ID', vat.category);
  leaf(t, 'cbc:Name', exemption?.name);
  if (vat.rate !== null) leaf(t, 'cbc:Percent', plain(vat.rate));
  else if (zeroRateForO) leaf(t, 'cbc:Percent', '0');
  leaf(t, 'cbc:TaxExemptionReasonCode', exemption?.code);
  leaf(t, 'cbc:TaxExemptionReason', exemption?.reason);
  leaf(child(t, 'cac:TaxScheme'), 'cbc:ID', 'VAT');
}

/** BG-27/BG-28 (line) and BG-20/BG-21 (document) share AllowanceChargeType's order up to the amounts. */
export function ublAllowanceCharge(
  parent: Node,
  ac: LineAllowanceCharge | DocAllowanceCharge,
  charge: boolean,
  currency: string,
): Node {
  const a = child(parent, 'cac:AllowanceCharge');
  leaf(a, 'cbc:ChargeIndicator', String(charge));
  leaf(a, 'cbc:AllowanceChargeReasonCode', ac.reason_code);
  leaf(a, 'cbc:AllowanceChargeReason', ac.reason);
  if (ac.percent) leaf(a, 'cbc:MultiplierFactorNumeric', plain(ac.percent));
  leaf(a, 'cbc:Amount', amount(ac.amount), { currencyID: currency });
  if (ac.percent && ac.base_amount)
    leaf(a, 'cbc:BaseAmount', amount(ac.base_amount), { currencyID: currency });
  return a;
}
