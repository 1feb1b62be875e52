import { TOTAL_FIELDS } from '../einvoice/index.js';
import type { XmlNode } from './xml-dom.js';
import { all, at, attr, compact, decimal, periodOf, text, textsAt } from './xml-path.js';

/**
 * The parts of an invoice that CII and UBL hold alike, element for element, read through the paths each
 * syntax names (read-cii.ts, read-ubl.ts): one reader per part, so both syntaxes read back the same way.
 */

type AddressField = 'country_code' | 'line1' | 'line2' | 'line3' | 'city' | 'postal_code' | 'subdivision';

/** Where each address field is below the syntax's address element. */
type AddressPaths = Readonly<Record<AddressField, string>>;

function addressAt(node: XmlNode | undefined, { country_code, ...lines }: AddressPaths) {
  if (node === undefined) return undefined;
  return { country_code: text(node, country_code) ?? '', ...textsAt(node, lines) };
}

/** BT-34/BT-49, a party's electronic address (UBL EndpointID, CII URIID); scheme EM when none is named. */
export function endpointAt(node: XmlNode | undefined, path: string) {
  const value = text(node, path);
  return value ? { value, scheme: attr(node, path, 'schemeID') ?? 'EM' } : undefined;
}

/** Where a VAT category's code and rate are below the syntax's tax element. */
interface VatPaths {
  category: string;
  rate: string;
}

export function vatAt(tax: XmlNode | undefined, paths: VatPaths) {
  const category = text(tax, paths.category) ?? '';
  const rate = decimal(text(tax, paths.rate));
  // Category O has no rate (BR-O-05); writers that must send one send 0.
  return category === 'O' || rate === undefined ? { category } : { category, rate };
}

/** Where a tax element keeps its category and exemption reason (text and code). */
interface ExemptionPaths {
  category: string;
  reason: string;
  code: string;
}

/** The model's `tax_exemptions`: category to exemption, from the tax elements with a reason or code. */
function exemptionsOf(taxes: XmlNode[], paths: ExemptionPaths) {
  const out: Record<string, { reason?: string; code?: string }> = {};
  for (const tax of taxes) {
    const entry = compact({ reason: text(tax, paths.reason), code: text(tax, paths.code) });
    const category = text(tax, paths.category);
    if (category && Object.keys(entry).length > 0) out[category] = entry;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Where a period's ends are below its element, and how the syntax writes a date (CII: format 102). */
interface PeriodPaths {
  start: string;
  end: string;
  date: (node: XmlNode | undefined, path: string) => string | undefined;
}

function periodEnds(period: XmlNode | undefined, paths: PeriodPaths) {
  return { start: paths.date(period, paths.start), end: paths.date(period, paths.end) };
}

/** BG-14, which the model takes with both ends only (see periodOf). */
function billingPeriodAt(period: XmlNode | undefined, paths: PeriodPaths, warnings: string[]) {
  const { start, end } = periodEnds(period, paths);
  return periodOf(start, end, warnings);
}

/** Where a syntax keeps each total; `tax_total` may stand twice (see taxTotalIn). */
type TotalsPaths = Readonly<Record<(typeof TOTAL_FIELDS)[number], string>>;

/** BG-22 as the document states it (decimal strings, in the model's order); the totals it leaves out left out. */
function totalsAt(node: XmlNode | undefined, paths: TotalsPaths, currency: string): Record<string, string> {
  const totals: Record<string, string> = {};
  for (const key of TOTAL_FIELDS) {
    const amount = decimal(
      key === 'tax_total' ? taxTotalIn(all(node, paths[key]), currency) : text(node, paths[key]),
    );
    if (amount !== undefined) totals[key] = amount;
  }
  return totals;
}

/** Where a syntax keeps the parts read here; its lines are described apart (LineSyntax). */
interface SyntaxPaths {
  period: PeriodPaths;
  address: AddressPaths;
  vat: VatPaths;
  exemption: ExemptionPaths;
  totals: TotalsPaths;
}

/** The readers of the parts both syntaxes hold alike, each bound to where one syntax keeps it. */
export function syntaxParts(paths: SyntaxPaths) {
  return {
    paths,
    address: (node: XmlNode | undefined) => addressAt(node, paths.address),
    billingPeriod: (period: XmlNode | undefined, warnings: string[]) =>
      billingPeriodAt(period, paths.period, warnings),
    vat: (tax: XmlNode | undefined) => vatAt(tax, paths.vat),
    exemptions: (taxes: XmlNode[]) => exemptionsOf(taxes, paths.exemption),
    totals: (node: XmlNode | undefined, currency: string) => totalsAt(node, paths.totals, currency),
  };
}

/** Where an invoice line's fields are below the syntax's line element, and how it reads what differs. */
export interface LineSyntax {
  name: string;
  /** The quantity element, which carries the unit code. */
  quantity: string;
  unitPrice: string;
  priceBaseQuantity: string;
  tax: string;
  vat: VatPaths;
  texts: Readonly<Record<'description' | 'note' | 'id' | 'seller_item_id' | 'buyer_item_id', string>>;
  standardItem: string;
  /** BT-158 item classification, its scheme in `listID`. */
  classification: string;
  orderLineReference: string;
  /** The line's period element (BG-26), its ends read through `dates`. */
  period: string;
  dates: PeriodPaths;
  allowanceCharges: (line: XmlNode, charge: boolean) => Record<string, unknown>[] | undefined;
}

export function lineAt(node: XmlNode, syntax: LineSyntax) {
  const { start, end } = periodEnds(at(node, syntax.period), syntax.dates);
  return compact({
    name: text(node, syntax.name) ?? '',
    quantity: decimal(text(node, syntax.quantity)) ?? '',
    unit_price: decimal(text(node, syntax.unitPrice)) ?? '',
    vat: vatAt(at(node, syntax.tax), syntax.vat),
    unit_code: attr(node, syntax.quantity, 'unitCode'),
    price_base_quantity: decimal(text(node, syntax.priceBaseQuantity)),
    ...textsAt(node, syntax.texts),
    standard_item_id: text(node, syntax.standardItem),
    standard_item_scheme: attr(node, syntax.standardItem, 'schemeID'),
    order_line_reference: text(node, syntax.orderLineReference),
    classification_code: text(node, syntax.classification),
    classification_scheme: attr(node, syntax.classification, 'listID'),
    period: start || end ? compact({ start, end }) : undefined,
    allowances: syntax.allowanceCharges(node, false),
    charges: syntax.allowanceCharges(node, true),
  });
}

/** The tax total in the document currency (BT-110); a second amount is the VAT in accounting currency (BT-111). */
function taxTotalIn(amounts: XmlNode[], currency: string): string | undefined {
  return (amounts.find((a) => a.getAttribute('currencyID') === currency) ?? amounts[0])?.textContent?.trim();
}

/** Quire's model holds one means of payment (BG-16): more are left out, with a warning. */
export function warnOfPaymentMeans(means: XmlNode[], warnings: string[]): void {
  if (means.length > 1)
    warnings.push("The invoice names several means of payment; Quire's model holds the first one.");
}
