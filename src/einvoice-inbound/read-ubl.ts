import type { ParsedInvoice, ReadResult } from './read-model.js';
import { ublNational } from './read-national.js';
import { endpointAt, type LineSyntax, lineAt, syntaxParts, warnOfPaymentMeans } from './read-parts.js';
import type { XmlNode } from './xml-dom.js';
import { all, at, attr, compact, decimal, text, textsAt } from './xml-path.js';

/** Where UBL keeps the parts both syntaxes hold alike (read-parts.ts reads them). */
const UBL = syntaxParts({
  period: {
    start: 'cbc:StartDate',
    end: 'cbc:EndDate',
    date: text,
  },
  address: {
    country_code: 'cac:Country/cbc:IdentificationCode',
    line1: 'cbc:StreetName',
    line2: 'cbc:AdditionalStreetName',
    line3: 'cac:AddressLine/cbc:Line',
    city: 'cbc:CityName',
    postal_code: 'cbc:PostalZone',
    subdivision: 'cbc:CountrySubentity',
  },
  vat: {
    category: 'cbc:ID',
    rate: 'cbc:Percent',
  },
  exemption: {
    category: 'cbc:ID',
    reason: 'cbc:TaxExemptionReason',
    code: 'cbc:TaxExemptionReasonCode',
  },
  totals: {
    line_total: 'cac:LegalMonetaryTotal/cbc:LineExtensionAmount',
    allowance_total: 'cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount',
    charge_total: 'cac:LegalMonetaryTotal/cbc:ChargeTotalAmount',
    tax_basis_total: 'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount',
    tax_total: 'cac:TaxTotal/cbc:TaxAmount',
    grand_total: 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount',
    prepaid: 'cac:LegalMonetaryTotal/cbc:PrepaidAmount',
    rounding: 'cac:LegalMonetaryTotal/cbc:PayableRoundingAmount',
    due_payable: 'cac:LegalMonetaryTotal/cbc:PayableAmount',
  },
});

/**
 * A UBL 2.1 Invoice or CreditNote (EN 16931, XRechnung, Peppol BIS 3.0) as Quire's e-invoice request
 * model: the reverse of src/einvoice/xml/ubl*.ts, so what Quire wrote reads back as what it was given.
 */
export function readUbl(root: XmlNode): ReadResult {
  const warnings: string[] = [];
  const creditNote = root.localName === 'CreditNote';
  const currency = text(root, 'cbc:DocumentCurrencyCode') ?? '';
  // The document's own totals (BG-22); BT-113 and BT-114 are also fields of the model's invoice.
  const totals = UBL.totals(root, currency);
  const invoice: ParsedInvoice = compact({
    number: text(root, 'cbc:ID') ?? '',
    issue_date: text(root, 'cbc:IssueDate') ?? '',
    currency,
    type_code: text(root, creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode'),
    buyer_reference: text(root, 'cbc:BuyerReference'),
    ...references(root),
    ...deliveryInformation(root, warnings),
    ...ublNational(root),
    seller: party(at(root, 'cac:AccountingSupplierParty/cac:Party'), true),
    buyer: party(at(root, 'cac:AccountingCustomerParty/cac:Party'), false),
    payment: payment(root, creditNote, warnings),
    lines: all(root, creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine').map((l) =>
      lineAt(l, creditNote ? CREDIT_NOTE_LINE : INVOICE_LINE),
    ),
    allowances: allowanceCharges(root, false, true),
    charges: allowanceCharges(root, true, true),
    prepaid_amount: totals.prepaid,
    rounding_amount: totals.rounding,
    tax_exemptions: UBL.exemptions(all(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory')),
  }) as ParsedInvoice;
  warnOfPaymentMeans(all(root, 'cac:PaymentMeans'), warnings);
  if (all(root, 'cac:AdditionalDocumentReference/cac:Attachment').length > 0)
    warnings.push(
      "Supporting documents attached to the invoice (BG-24) are not part of Quire's model and were left out.",
    );
  return { invoice, totals, warnings };
}

function references(root: XmlNode) {
  const order = text(root, 'cac:OrderReference/cbc:ID');
  const sales = text(root, 'cac:OrderReference/cbc:SalesOrderID');
  const additional = all(root, 'cac:AdditionalDocumentReference').find(
    (ref) => text(ref, 'cbc:DocumentTypeCode') === '50',
  );
  const preceding = at(root, 'cac:BillingReference/cac:InvoiceDocumentReference');
  return {
    // Quire writes "NA" when only a sales order is known (UBL needs an order id there).
    purchase_order_reference: order === 'NA' && sales ? undefined : order,
    sales_order_reference: sales,
    contract_reference: text(root, 'cac:ContractDocumentReference/cbc:ID'),
    project_reference: text(root, 'cac:ProjectReference/cbc:ID') ?? text(additional, 'cbc:ID'),
    preceding_invoice: preceding
      ? compact({ number: text(preceding, 'cbc:ID') ?? '', issue_date: text(preceding, 'cbc:IssueDate') })
      : undefined,
  };
}

function party(node: XmlNode | undefined, seller: boolean) {
  const ids = all(node, 'cac:PartyIdentification/cbc:ID').filter(
    (id) => id.getAttribute('schemeID') !== 'SEPA',
  );
  const taxSchemes = all(node, 'cac:PartyTaxScheme');
  const vat = taxSchemes.find((t) => text(t, 'cac:TaxScheme/cbc:ID')?.toUpperCase() === 'VAT');
  const other = taxSchemes.find((t) => t !== vat);
  const contact = textsAt(at(node, 'cac:Contact'), {
    name: 'cbc:Name',
    phone: 'cbc:Telephone',
    email: 'cbc:ElectronicMail',
  });
  return compact({
    name:
      text(node, 'cac:PartyLegalEntity/cbc:RegistrationName') ?? text(node, 'cac:PartyName/cbc:Name') ?? '',
    address: UBL.address(at(node, 'cac:PostalAddress')) ?? { country_code: '' },
    trading_name: text(node, 'cac:PartyName/cbc:Name'),
    vat_id: text(vat, 'cbc:CompanyID'),
    id: ids[0]?.textContent?.trim() || undefined,
    id_scheme: ids[0]?.getAttribute('schemeID') || undefined,
    legal_registration_id: text(node, 'cac:PartyLegalEntity/cbc:CompanyID'),
    legal_registration_scheme: attr(node, 'cac:PartyLegalEntity/cbc:CompanyID', 'schemeID'),
    electronic_address: endpointAt(node, 'cbc:EndpointID'),
    contact,
    tax_number: seller ? text(other, 'cbc:CompanyID') : undefined,
    legal_info: seller ? text(node, 'cac:PartyLegalEntity/cbc:CompanyLegalForm') : undefined,
  });
}

/**
 * EN 16931's delivery information (BG-13): the actual delivery date (BT-72), the invoicing period (BG-14)
 * and the deliver-to party.
 */
function deliveryInformation(root: XmlNode, warnings: string[]) {
  return {
    delivery_date: text(root, 'cac:Delivery/cbc:ActualDeliveryDate'),
    billing_period: UBL.billingPeriod(at(root, 'cac:InvoicePeriod'), warnings),
    delivery: deliverTo(root),
  };
}

function deliverTo(root: XmlNode) {
  const node = at(root, 'cac:Delivery');
  if (node === undefined) return undefined;
  return compact({
    name: text(node, 'cac:DeliveryParty/cac:PartyName/cbc:Name'),
    address: UBL.address(at(node, 'cac:DeliveryLocation/cac:Address')),
  });
}

function payment(root: XmlNode, creditNote: boolean, warnings: string[]) {
  const means = at(root, 'cac:PaymentMeans');
  const sepa = all(root, 'cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID').find(
    (id) => id.getAttribute('schemeID') === 'SEPA',
  );
  const terms = all(root, 'cac:PaymentTerms/cbc:Note').map((n) => n.textContent ?? '');
  if (terms.length > 1) warnings.push('Several payment terms notes were joined with line breaks.');
  const result = compact({
    means_code: text(means, 'cbc:PaymentMeansCode'),
    means_text: attr(means, 'cbc:PaymentMeansCode', 'name'),
    iban: text(means, 'cac:PayeeFinancialAccount/cbc:ID'),
    bic: text(means, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'),
    account_name: text(means, 'cac:PayeeFinancialAccount/cbc:Name'),
    reference: text(means, 'cbc:PaymentID'),
    terms: terms.length > 0 ? terms.join('\n') : undefined,
    due_date: creditNote ? text(means, 'cbc:PaymentDueDate') : text(root, 'cbc:DueDate'),
    mandate_reference: text(means, 'cac:PaymentMandate/cbc:ID'),
    creditor_id: sepa?.textContent?.trim() || undefined,
    debited_iban: text(means, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'),
  });
  return Object.keys(result).length > 0 ? result : undefined;
}

function allowanceCharges(parent: XmlNode, charge: boolean, withVat: boolean) {
  const list = all(parent, 'cac:AllowanceCharge')
    .filter((ac) => text(ac, 'cbc:ChargeIndicator')?.toLowerCase() === String(charge))
    .map((ac) =>
      compact({
        amount: decimal(text(ac, 'cbc:Amount')),
        percent: decimal(text(ac, 'cbc:MultiplierFactorNumeric')),
        base_amount: withVat ? decimal(text(ac, 'cbc:BaseAmount')) : undefined,
        reason: text(ac, 'cbc:AllowanceChargeReason'),
        reason_code: text(ac, 'cbc:AllowanceChargeReasonCode'),
        vat: withVat ? UBL.vat(at(ac, 'cac:TaxCategory')) : undefined,
      }),
    );
  return list.length > 0 ? list : undefined;
}

const INVOICE_LINE: LineSyntax = {
  name: 'cac:Item/cbc:Name',
  quantity: 'cbc:InvoicedQuantity',
  unitPrice: 'cac:Price/cbc:PriceAmount',
  priceBaseQuantity: 'cac:Price/cbc:BaseQuantity',
  tax: 'cac:Item/cac:ClassifiedTaxCategory',
  vat: UBL.paths.vat,
  texts: {
    description: 'cac:Item/cbc:Description',
    note: 'cbc:Note',
    id: 'cbc:ID',
    seller_item_id: 'cac:Item/cac:SellersItemIdentification/cbc:ID',
    buyer_item_id: 'cac:Item/cac:BuyersItemIdentification/cbc:ID',
  },
  standardItem: 'cac:Item/cac:StandardItemIdentification/cbc:ID',
  classification: 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode',
  orderLineReference: 'cac:OrderLineReference/cbc:LineID',
  period: 'cac:InvoicePeriod',
  dates: UBL.paths.period,
  allowanceCharges: (line, charge) => allowanceCharges(line, charge, false),
};

const CREDIT_NOTE_LINE: LineSyntax = { ...INVOICE_LINE, quantity: 'cbc:CreditedQuantity' };
