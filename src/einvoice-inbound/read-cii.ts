import type { ParsedInvoice, ReadResult } from './read-model.js';
import { ciiNational } from './read-national.js';
import { endpointAt, type LineSyntax, lineAt, syntaxParts, warnOfPaymentMeans } from './read-parts.js';
import type { XmlNode } from './xml-dom.js';
import { all, at, attr, compact, date102, decimal, text, textsAt } from './xml-path.js';

/** Where CII keeps the parts both syntaxes hold alike (read-parts.ts reads them). */
const CII = syntaxParts({
  period: {
    start: 'ram:StartDateTime',
    end: 'ram:EndDateTime',
    date: dateOf,
  },
  address: {
    country_code: 'ram:CountryID',
    line1: 'ram:LineOne',
    line2: 'ram:LineTwo',
    line3: 'ram:LineThree',
    city: 'ram:CityName',
    postal_code: 'ram:PostcodeCode',
    subdivision: 'ram:CountrySubDivisionName',
  },
  vat: {
    category: 'ram:CategoryCode',
    rate: 'ram:RateApplicablePercent',
  },
  exemption: {
    category: 'ram:CategoryCode',
    reason: 'ram:ExemptionReason',
    code: 'ram:ExemptionReasonCode',
  },
  totals: {
    line_total: 'ram:LineTotalAmount',
    allowance_total: 'ram:AllowanceTotalAmount',
    charge_total: 'ram:ChargeTotalAmount',
    tax_basis_total: 'ram:TaxBasisTotalAmount',
    tax_total: 'ram:TaxTotalAmount',
    grand_total: 'ram:GrandTotalAmount',
    prepaid: 'ram:TotalPrepaidAmount',
    rounding: 'ram:RoundingAmount',
    due_payable: 'ram:DuePayableAmount',
  },
});

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
  // The document's own totals (BG-22); BT-113 and BT-114 are also fields of the model's invoice.
  const totals = CII.totals(sums, currency);
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
    ...deliveryInformation(delivery, settlement, warnings),
    ...ciiNational(root, doc),
    seller: party(at(agreement, 'ram:SellerTradeParty'), true),
    buyer: party(at(agreement, 'ram:BuyerTradeParty'), false),
    payment: payment(settlement, warnings),
    lines: all(tx, 'ram:IncludedSupplyChainTradeLineItem').map((l) => lineAt(l, LINE)),
    allowances: docAllowanceCharges(settlement, false),
    charges: docAllowanceCharges(settlement, true),
    prepaid_amount: totals.prepaid,
    rounding_amount: totals.rounding,
    tax_exemptions: CII.exemptions(all(settlement, 'ram:ApplicableTradeTax')),
  }) as ParsedInvoice;
  if (invoice.lines.length === 0)
    warnings.push(
      'The document has no invoice lines (MINIMUM and BASIC WL profiles carry none); POST /v1/pdf needs at least one.',
    );
  warnOfPaymentMeans(all(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans'), warnings);
  return { invoice, totals, warnings };
}

function dateOf(node: XmlNode | undefined, path: string): string | undefined {
  return date102(text(node, `${path}/udt:DateTimeString`));
}

function party(node: XmlNode | undefined, seller: boolean) {
  const registrations = all(node, 'ram:SpecifiedTaxRegistration/ram:ID');
  const registration = (scheme: string) =>
    registrations.find((r) => r.getAttribute('schemeID') === scheme)?.textContent?.trim() || undefined;
  const global = at(node, 'ram:GlobalID');
  const contact = textsAt(at(node, 'ram:DefinedTradeContact'), {
    name: 'ram:PersonName',
    phone: 'ram:TelephoneUniversalCommunication/ram:CompleteNumber',
    email: 'ram:EmailURIUniversalCommunication/ram:URIID',
  });
  return compact({
    name: text(node, 'ram:Name') ?? '',
    address: CII.address(at(node, 'ram:PostalTradeAddress')) ?? { country_code: '' },
    trading_name: text(node, 'ram:SpecifiedLegalOrganization/ram:TradingBusinessName'),
    vat_id: registration('VA'),
    id: global?.textContent?.trim() || text(node, 'ram:ID'),
    id_scheme: global?.getAttribute('schemeID') || undefined,
    legal_registration_id: text(node, 'ram:SpecifiedLegalOrganization/ram:ID'),
    legal_registration_scheme: attr(node, 'ram:SpecifiedLegalOrganization/ram:ID', 'schemeID'),
    electronic_address: endpointAt(node, 'ram:URIUniversalCommunication/ram:URIID'),
    contact,
    tax_number: seller ? registration('FC') : undefined,
    legal_info: seller ? text(node, 'ram:Description') : undefined,
  });
}

/**
 * EN 16931's delivery information (BG-13): the actual delivery date (BT-72), the invoicing period (BG-14,
 * which CII keeps with the settlement) and the deliver-to party.
 */
function deliveryInformation(
  delivery: XmlNode | undefined,
  settlement: XmlNode | undefined,
  warnings: string[],
) {
  return {
    delivery_date: dateOf(delivery, 'ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime'),
    billing_period: CII.billingPeriod(at(settlement, 'ram:BillingSpecifiedPeriod'), warnings),
    delivery: shipTo(delivery),
  };
}

function shipTo(delivery: XmlNode | undefined) {
  const node = at(delivery, 'ram:ShipToTradeParty');
  if (node === undefined) return undefined;
  return compact({
    name: text(node, 'ram:Name'),
    address: CII.address(at(node, 'ram:PostalTradeAddress')),
  });
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
        vat: CII.vat(at(ac, 'ram:CategoryTradeTax')),
      }),
    );
  return list.length > 0 ? list : undefined;
}

const PRODUCT = 'ram:SpecifiedTradeProduct';
const PRICE = 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice';
const LINE_SETTLEMENT = 'ram:SpecifiedLineTradeSettlement';

const LINE: LineSyntax = {
  name: `${PRODUCT}/ram:Name`,
  quantity: 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity',
  unitPrice: `${PRICE}/ram:ChargeAmount`,
  priceBaseQuantity: `${PRICE}/ram:BasisQuantity`,
  tax: `${LINE_SETTLEMENT}/ram:ApplicableTradeTax`,
  vat: CII.paths.vat,
  texts: {
    description: `${PRODUCT}/ram:Description`,
    note: 'ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content',
    id: 'ram:AssociatedDocumentLineDocument/ram:LineID',
    seller_item_id: `${PRODUCT}/ram:SellerAssignedID`,
    buyer_item_id: `${PRODUCT}/ram:BuyerAssignedID`,
  },
  standardItem: `${PRODUCT}/ram:GlobalID`,
  classification: `${PRODUCT}/ram:DesignatedProductClassification/ram:ClassCode`,
  orderLineReference: 'ram:SpecifiedLineTradeAgreement/ram:BuyerOrderReferencedDocument/ram:LineID',
  period: `${LINE_SETTLEMENT}/ram:BillingSpecifiedPeriod`,
  dates: CII.paths.period,
  allowanceCharges: (line, charge) => {
    const list = all(line, `${LINE_SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge`)
      .filter((ac) => isCharge(ac, charge))
      .map((ac) => compact(allowanceCharge(ac)));
    return list.length > 0 ? list : undefined;
  },
};
