import type { ParsedInvoice, ReadResult } from './read-model.js';
import type { XmlNode } from './xml-dom.js';
import { all, at, attr, compact, date102, decimal, periodOf, text, textsAt } from './xml-path.js';

/**
 * A UN/CEFACT CII CrossIndustryInvoice (Factur-X/ZUGFeRD profiles, XRechnung CII, plain EN 16931 CII)
 * as Quire's e-invoice request model: the reverse of src/einvoice/xml/cii*.ts.
 */
export function readCii(root: XmlNode): ReadResult {
  const warnings: string[] = [];
  const doc = at(root, 'rsm:ExchangedDocument');
  const tx = at(root, 'rsm:SupplyChainTradeTransaction');
  const agreement = at(tx, 'ram:ApplicableHeaderTradeAgreement');
  const settlement = at(tx, 'ram:ApplicableHeaderTradeSettlement');
  const delivery = at(tx, 'ram:ApplicableHeaderTradeDelivery');
  const sums = at(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = text(settlement, 'ram:InvoiceCurrencyCode') ?? '';
  const preceding = at(settlement, 'ram:InvoiceReferencedDocument');
  const invoice: ParsedInvoice = compact({
    number: text(doc, 'ram:ID') ?? '',
    issue_date: dateOf(doc, 'ram:IssueDateTime') ?? '',
    currency,
    type_code: text(doc, 'ram:TypeCode'),
    buyer_reference: text(agreement, 'ram:BuyerReference'),
    purchase_order_reference: text(agreement, 'ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID'),
    sales_order_reference: text(agreement, 'ram:SellerOrderReferencedDocument/ram:IssuerAssignedID'),
    contract_reference: text(agreement, 'ram:ContractReferencedDocument/ram:IssuerAssignedID'),
    project_reference: text(agreement, 'ram:SpecifiedProcuringProject/ram:ID'),
    preceding_invoice: preceding
      ? compact({
          number: text(preceding, 'ram:IssuerAssignedID') ?? '',
          issue_date: date102(text(preceding, 'ram:FormattedIssueDateTime/qdt:DateTimeString')),
        })
      : undefined,
    delivery_date: dateOf(delivery, 'ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime'),
    billing_period: billingPeriod(settlement, warnings),
    notes: notes(doc),
    seller: party(at(agreement, 'ram:SellerTradeParty'), true),
    buyer: party(at(agreement, 'ram:BuyerTradeParty'), false),
    delivery: shipTo(delivery),
    payment: payment(settlement, warnings),
    lines: all(tx, 'ram:IncludedSupplyChainTradeLineItem').map(line),
    allowances: docAllowanceCharges(settlement, false),
    charges: docAllowanceCharges(settlement, true),
    prepaid_amount: decimal(text(sums, 'ram:TotalPrepaidAmount')),
    rounding_amount: decimal(text(sums, 'ram:RoundingAmount')),
    tax_exemptions: exemptions(settlement),
  }) as ParsedInvoice;
  const taxTotals = all(sums, 'ram:TaxTotalAmount');
  const totals = compact({
    line_total: decimal(text(sums, 'ram:LineTotalAmount')),
    allowance_total: decimal(text(sums, 'ram:AllowanceTotalAmount')),
    charge_total: decimal(text(sums, 'ram:ChargeTotalAmount')),
    tax_basis_total: decimal(text(sums, 'ram:TaxBasisTotalAmount')),
    tax_total: decimal(
      (taxTotals.find((t) => t.getAttribute('currencyID') === currency) ?? taxTotals[0])?.textContent?.trim(),
    ),
    grand_total: decimal(text(sums, 'ram:GrandTotalAmount')),
    prepaid: decimal(text(sums, 'ram:TotalPrepaidAmount')),
    rounding: decimal(text(sums, 'ram:RoundingAmount')),
    due_payable: decimal(text(sums, 'ram:DuePayableAmount')),
  });
  if (invoice.lines.length === 0)
    warnings.push(
      'The document has no invoice lines (MINIMUM and BASIC WL profiles carry none); POST /v1/pdf needs at least one.',
    );
  if (all(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans').length > 1)
    warnings.push("The invoice names several means of payment; Quire's model holds the first one.");
  return { invoice, totals: totals as Record<string, string>, warnings };
}

function dateOf(node: XmlNode | undefined, path: string): string | undefined {
  return date102(text(node, `${path}/udt:DateTimeString`));
}

function notes(doc: XmlNode | undefined): string[] | undefined {
  const values = all(doc, 'ram:IncludedNote/ram:Content')
    .map((n) => n.textContent ?? '')
    .filter((v) => v.trim() !== '');
  return values.length > 0 ? values : undefined;
}

function billingPeriod(settlement: XmlNode | undefined, warnings: string[]) {
  return periodOf(
    dateOf(settlement, 'ram:BillingSpecifiedPeriod/ram:StartDateTime'),
    dateOf(settlement, 'ram:BillingSpecifiedPeriod/ram:EndDateTime'),
    warnings,
  );
}

function address(node: XmlNode | undefined) {
  if (node === undefined) return undefined;
  return {
    country_code: text(node, 'ram:CountryID') ?? '',
    ...textsAt(node, {
      line1: 'ram:LineOne',
      line2: 'ram:LineTwo',
      line3: 'ram:LineThree',
      city: 'ram:CityName',
      postal_code: 'ram:PostcodeCode',
      subdivision: 'ram:CountrySubDivisionName',
    }),
  };
}

function party(node: XmlNode | undefined, seller: boolean) {
  const registrations = all(node, 'ram:SpecifiedTaxRegistration/ram:ID');
  const registration = (scheme: string) =>
    registrations.find((r) => r.getAttribute('schemeID') === scheme)?.textContent?.trim() || undefined;
  const global = at(node, 'ram:GlobalID');
  const endpoint = text(node, 'ram:URIUniversalCommunication/ram:URIID');
  const contact = textsAt(at(node, 'ram:DefinedTradeContact'), {
    name: 'ram:PersonName',
    phone: 'ram:TelephoneUniversalCommunication/ram:CompleteNumber',
    email: 'ram:EmailURIUniversalCommunication/ram:URIID',
  });
  return compact({
    name: text(node, 'ram:Name') ?? '',
    address: address(at(node, 'ram:PostalTradeAddress')) ?? { country_code: '' },
    trading_name: text(node, 'ram:SpecifiedLegalOrganization/ram:TradingBusinessName'),
    vat_id: registration('VA'),
    id: global?.textContent?.trim() || text(node, 'ram:ID'),
    id_scheme: global?.getAttribute('schemeID') || undefined,
    legal_registration_id: text(node, 'ram:SpecifiedLegalOrganization/ram:ID'),
    legal_registration_scheme: attr(node, 'ram:SpecifiedLegalOrganization/ram:ID', 'schemeID'),
    electronic_address: endpoint
      ? { value: endpoint, scheme: attr(node, 'ram:URIUniversalCommunication/ram:URIID', 'schemeID') ?? 'EM' }
      : undefined,
    contact,
    tax_number: seller ? registration('FC') : undefined,
    legal_info: seller ? text(node, 'ram:Description') : undefined,
  });
}

function shipTo(delivery: XmlNode | undefined) {
  const node = at(delivery, 'ram:ShipToTradeParty');
  if (node === undefined) return undefined;
  return compact({ name: text(node, 'ram:Name'), address: address(at(node, 'ram:PostalTradeAddress')) });
}

function payment(settlement: XmlNode | undefined, warnings: string[]) {
  const means = at(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans');
  const terms = all(settlement, 'ram:SpecifiedTradePaymentTerms');
  if (terms.length > 1)
    warnings.push('Several payment terms were joined with line breaks; the first due date is kept.');
  const descriptions = terms.map((t) => text(t, 'ram:Description')).filter((d) => d !== undefined);
  const result = compact({
    means_code: text(means, 'ram:TypeCode'),
    means_text: text(means, 'ram:Information'),
    iban: text(means, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID'),
    bic: text(means, 'ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID'),
    account_name: text(means, 'ram:PayeePartyCreditorFinancialAccount/ram:AccountName'),
    reference: text(settlement, 'ram:PaymentReference'),
    terms: descriptions.length > 0 ? descriptions.join('\n') : undefined,
    due_date: terms.map((t) => dateOf(t, 'ram:DueDateDateTime')).find((d) => d !== undefined),
    mandate_reference: terms.map((t) => text(t, 'ram:DirectDebitMandateID')).find((d) => d !== undefined),
    creditor_id: text(settlement, 'ram:CreditorReferenceID'),
    debited_iban: text(means, 'ram:PayerPartyDebtorFinancialAccount/ram:IBANID'),
  });
  return Object.keys(result).length > 0 ? result : undefined;
}

function vatOf(tax: XmlNode | undefined) {
  const category = text(tax, 'ram:CategoryCode') ?? '';
  const rate = decimal(text(tax, 'ram:RateApplicablePercent'));
  return category === 'O' || rate === undefined ? { category } : { category, rate };
}

function allowanceCharge(node: XmlNode) {
  return {
    amount: decimal(text(node, 'ram:ActualAmount')),
    percent: decimal(text(node, 'ram:CalculationPercent')),
    reason: text(node, 'ram:Reason'),
    reason_code: text(node, 'ram:ReasonCode'),
  };
}

function isCharge(node: XmlNode, charge: boolean): boolean {
  return text(node, 'ram:ChargeIndicator/udt:Indicator')?.toLowerCase() === String(charge);
}

function docAllowanceCharges(settlement: XmlNode | undefined, charge: boolean) {
  const list = all(settlement, 'ram:SpecifiedTradeAllowanceCharge')
    .filter((ac) => isCharge(ac, charge))
    .map((ac) =>
      compact({
        ...allowanceCharge(ac),
        base_amount: decimal(text(ac, 'ram:BasisAmount')),
        vat: vatOf(at(ac, 'ram:CategoryTradeTax')),
      }),
    );
  return list.length > 0 ? list : undefined;
}

function exemptions(settlement: XmlNode | undefined) {
  const out: Record<string, { reason?: string; code?: string }> = {};
  for (const tax of all(settlement, 'ram:ApplicableTradeTax')) {
    const entry = compact({
      reason: text(tax, 'ram:ExemptionReason'),
      code: text(tax, 'ram:ExemptionReasonCode'),
    });
    const category = text(tax, 'ram:CategoryCode');
    if (category && Object.keys(entry).length > 0) out[category] = entry;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function line(node: XmlNode) {
  const product = at(node, 'ram:SpecifiedTradeProduct');
  const price = at(node, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice');
  const settlement = at(node, 'ram:SpecifiedLineTradeSettlement');
  const quantity = 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity';
  const start = dateOf(settlement, 'ram:BillingSpecifiedPeriod/ram:StartDateTime');
  const end = dateOf(settlement, 'ram:BillingSpecifiedPeriod/ram:EndDateTime');
  const charges = (charge: boolean) => {
    const list = all(settlement, 'ram:SpecifiedTradeAllowanceCharge')
      .filter((ac) => isCharge(ac, charge))
      .map((ac) => compact(allowanceCharge(ac)));
    return list.length > 0 ? list : undefined;
  };
  return compact({
    name: text(product, 'ram:Name') ?? '',
    quantity: decimal(text(node, quantity)) ?? '',
    unit_price: decimal(text(price, 'ram:ChargeAmount')) ?? '',
    vat: vatOf(at(settlement, 'ram:ApplicableTradeTax')),
    unit_code: attr(node, quantity, 'unitCode'),
    price_base_quantity: decimal(text(price, 'ram:BasisQuantity')),
    description: text(product, 'ram:Description'),
    note: text(node, 'ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content'),
    id: text(node, 'ram:AssociatedDocumentLineDocument/ram:LineID'),
    seller_item_id: text(product, 'ram:SellerAssignedID'),
    buyer_item_id: text(product, 'ram:BuyerAssignedID'),
    standard_item_id: text(product, 'ram:GlobalID'),
    standard_item_scheme: attr(product, 'ram:GlobalID', 'schemeID'),
    order_line_reference: text(
      node,
      'ram:SpecifiedLineTradeAgreement/ram:BuyerOrderReferencedDocument/ram:LineID',
    ),
    period: start || end ? compact({ start, end }) : undefined,
    allowances: charges(false),
    charges: charges(true),
  });
}
