import { type TOptional, type TString, Type } from 'typebox';
import { PROFILES, STANDARDS, VAT_CATEGORIES } from '../einvoice/index.js';
import { named } from '../http/schemas.js';
import { KsefFields } from './einvoice-ksef-schema.js';

/**
 * The e-invoice input typed field by field (spec: E-invoices), for the OpenAPI document only: the route
 * validates `e_invoice` with the e-invoice validator (src/einvoice/validate), whose `invalid_e_invoice`
 * issues carry paths, so these schemas never reach Ajv. Keep them in step with validate/parse-*.ts.
 */

const text = (description: string, maxLength = 1000) => Type.String({ maxLength, description });
const Amount = Type.Union([Type.Number(), Type.String({ pattern: '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$' })], {
  description: 'A JSON number or a decimal string (exact)',
});
const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const opt = Type.Optional;

/** Optional text fields of the default length, each with its description, in the order given. */
function optionalTexts<K extends string>(descriptions: Record<K, string>): Record<K, TOptional<TString>> {
  const fields = Object.entries<string>(descriptions).map(([key, description]) => [
    key,
    opt(text(description)),
  ]);
  return Object.fromEntries(fields) as Record<K, TOptional<TString>>;
}

const Address = named(
  'EInvoiceAddress',
  Type.Object(
    {
      country_code: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2' }),
      ...optionalTexts({
        line1: 'Street line',
        line2: 'Street line',
        line3: 'Street line',
        city: 'City; required for XRechnung',
        postal_code: 'Postal code; required for XRechnung',
        subdivision: 'Region, state or province',
      }),
    },
    { additionalProperties: false },
  ),
);

const Party = named(
  'EInvoiceParty',
  Type.Object(
    {
      name: text('Legal name (required)'),
      address: Address,
      ...optionalTexts({
        trading_name: 'Trading name',
        vat_id: 'VAT id with its country prefix, e.g. DE123456789',
        id: 'Party id (with id_scheme, ISO 6523)',
        id_scheme: 'ISO 6523 scheme of id, e.g. 0088 (GLN)',
        legal_registration_id: 'Legal registration id',
        legal_registration_scheme: 'Scheme of legal_registration_id',
      }),
      electronic_address: opt(
        Type.Object(
          {
            value: text('The address'),
            scheme: opt(
              text(
                'EAS scheme: EM (default, e-mail), 0204 Leitweg-ID, 9930 German VAT number, 0088 GLN. ' +
                  'Extension standard peppol: required for seller and buyer (the Peppol participant id, written ' +
                  'as EndpointID), with a scheme from the Peppol EAS list (not EM, AN, AQ, AS, AU)',
              ),
            ),
          },
          { additionalProperties: false },
        ),
      ),
      contact: opt(
        Type.Object(optionalTexts({ name: 'Name', phone: 'Phone', email: 'E-mail' }), {
          additionalProperties: false,
        }),
      ),
      ...optionalTexts({
        tax_number: 'Seller only: tax number (BT-32)',
        legal_info: 'Seller only: additional legal information (BT-33)',
      }),
    },
    { additionalProperties: false },
  ),
);

const Vat = named(
  'EInvoiceVat',
  Type.Object(
    {
      category: Type.Union(
        VAT_CATEGORIES.map((c) => Type.Literal(c)),
        { description: 'UNTDID 5305 VAT category' },
      ),
      rate: opt(Type.Union([Amount, Type.Null()], { description: 'Percent; left out for category O' })),
    },
    { additionalProperties: false },
  ),
);

const AllowanceCharge = named(
  'EInvoiceLineAllowanceCharge',
  Type.Object(
    {
      amount: opt(Amount),
      percent: opt(Amount),
      reason: opt(text('Reason (reason or reason_code required)')),
      reason_code: opt(text('UNTDID 5189 (allowances) or 7161 (charges)')),
    },
    { additionalProperties: false, description: 'amount (up to 2 decimals) or percent of the line amount' },
  ),
);

const DocAllowanceCharge = named(
  'EInvoiceAllowanceCharge',
  Type.Object(
    {
      amount: opt(Amount),
      percent: opt(Amount),
      base_amount: opt(Amount),
      reason: opt(text('Reason (reason or reason_code required)')),
      reason_code: opt(text('UNTDID 5189 (allowances) or 7161 (charges)')),
      vat: opt(Vat),
    },
    { additionalProperties: false, description: 'Document-level allowance or charge' },
  ),
);

const Period = Type.Object({ start: opt(IsoDate), end: opt(IsoDate) }, { additionalProperties: false });

const Line = named(
  'EInvoiceLine',
  Type.Object(
    {
      name: text('Item name (required)'),
      quantity: Amount,
      unit_price: Amount,
      vat: Vat,
      unit_code: opt(text('UN/ECE Rec. 20, default C62')),
      price_base_quantity: opt(Amount),
      description: opt(text('Description', 5000)),
      note: opt(text('Note', 5000)),
      ...optionalTexts({
        id: 'Line id; default the position 1, 2, …',
        seller_item_id: "Seller's item id",
        buyer_item_id: "Buyer's item id",
        standard_item_id: 'Standard item id, e.g. a GTIN',
        standard_item_scheme: 'Scheme of standard_item_id (required with it)',
        order_line_reference: 'Order line reference',
        classification_code: 'Extension: BT-158 item classification, e.g. the KPD code required by hr-cius',
        classification_scheme: 'Extension: UNTDID 7143 scheme of classification_code (hr-cius default CG)',
      }),
      period: opt(Period),
      allowances: opt(Type.Array(AllowanceCharge)),
      charges: opt(Type.Array(AllowanceCharge)),
    },
    { additionalProperties: false },
  ),
);

const Payment = named(
  'EInvoicePayment',
  Type.Object(
    {
      ...optionalTexts({
        iban: 'IBAN (check digits verified)',
        bic: 'BIC, 8 or 11 characters',
        account_name: 'Account holder',
        means_code: 'UNTDID 4461; default 58 with an iban, 59 with a debited_iban, else 1',
        means_text: 'Means of payment in words',
      }),
      reference: opt(text('Remittance reference; default the invoice number', 140)),
      terms: opt(text('Payment terms')),
      due_date: opt(IsoDate),
      ...optionalTexts({
        mandate_reference: 'SEPA mandate reference (direct debit)',
        creditor_id: 'SEPA creditor id',
        debited_iban: 'IBAN debited (direct debit)',
      }),
    },
    { additionalProperties: false },
  ),
);

const Totals = named(
  'EInvoiceTotals',
  Type.Object(
    {
      line_total: opt(Amount),
      allowance_total: opt(Amount),
      charge_total: opt(Amount),
      tax_basis_total: opt(Amount),
      tax_total: opt(Amount),
      grand_total: opt(Amount),
      prepaid: opt(Amount),
      rounding: opt(Amount),
      due_payable: opt(Amount),
    },
    { additionalProperties: false, description: 'Sent totals are checked against the computed ones' },
  ),
);

const Exemption = Type.Object(optionalTexts({ reason: 'Exemption reason', code: 'VATEX code' }), {
  additionalProperties: false,
});

export const EInvoiceInvoiceDoc = named(
  'EInvoiceInvoice',
  Type.Object(
    {
      number: text('Invoice number (BT-1)', 200),
      issue_date: IsoDate,
      currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217' }),
      type_code: opt(text('UNTDID 1001, default 380; 381 credit note, 384 corrected, 389 self-billed')),
      buyer_reference: opt(
        text(
          'BT-10; required for XRechnung (Leitweg-ID); for peppol, buyer_reference or purchase_order_reference is required',
        ),
      ),
      ...optionalTexts({
        purchase_order_reference: 'BT-13',
        sales_order_reference: 'BT-14',
        contract_reference: 'BT-12',
        project_reference: 'BT-11',
      }),
      preceding_invoice: opt(
        Type.Object(
          { number: text('Number of the preceding invoice'), issue_date: opt(IsoDate) },
          { additionalProperties: false },
        ),
      ),
      delivery_date: opt(IsoDate),
      billing_period: opt(Type.Object({ start: IsoDate, end: IsoDate }, { additionalProperties: false })),
      notes: opt(
        Type.Array(
          Type.Union([
            text('Note (BT-22)', 5000),
            Type.Object(
              {
                text: text('Note (BT-22)', 5000),
                subject_code: opt(
                  Type.String({
                    pattern: '^[A-Z]{3}$',
                    description:
                      'Extension: BT-21 subject code (UNTDID 4451), e.g. PMT, PMD, AAB (required by extended-ctc-fr)',
                  }),
                ),
              },
              { additionalProperties: false },
            ),
          ]),
        ),
      ),
      billing_mode: opt(
        text(
          'Extension: BT-23 business process. extended-ctc-fr: the French billing mode (B1, S1, M1, …; required, ' +
            'BR-FR-08); hr-cius: the process type P1–P12 (default P1). Not for xrechnung/peppol (fixed)',
          200,
        ),
      ),
      issue_time: opt(
        Type.String({
          pattern: '^\\d{2}:\\d{2}:\\d{2}$',
          description: 'Extension, hr-cius (required): HR-BT-2 issue time HH:MM:SS',
        }),
      ),
      operator: opt(
        Type.Object(
          {
            name: text('HR-BT-4 operator name'),
            id: Type.String({ maxLength: 11, description: 'HR-BT-5 operator OIB (11 digits)' }),
          },
          {
            additionalProperties: false,
            description: 'Extension, hr-cius (required): who issued the invoice',
          },
        ),
      ),
      ksef: opt(KsefFields),
      seller: Party,
      buyer: Party,
      delivery: opt(
        Type.Object({ name: opt(text('Name')), address: opt(Address) }, { additionalProperties: false }),
      ),
      payment: opt(Payment),
      lines: Type.Array(Line, { minItems: 1, maxItems: 2000 }),
      allowances: opt(Type.Array(DocAllowanceCharge)),
      charges: opt(Type.Array(DocAllowanceCharge)),
      prepaid_amount: opt(Amount),
      rounding_amount: opt(Amount),
      tax_exemptions: opt(
        Type.Record(Type.String(), Exemption, {
          description: 'VAT category (E, AE, K, G, O) to its exemption',
        }),
      ),
      totals: opt(Totals),
    },
    { additionalProperties: false },
  ),
);

/** The `e_invoice` field of POST /pdf as documented. */
export const EInvoiceDoc = named(
  'EInvoice',
  Type.Object(
    {
      standard: Type.Union(
        STANDARDS.map((s) => Type.Literal(s)),
        {
          description:
            'factur-x/zugferd: PDF/A-3b with CII XML; xrechnung-cii/xrechnung-ubl: the XML itself. ' +
            'Extensions (XML itself, profile en16931): peppol = Peppol BIS Billing 3.0 (UBL 2.1 Invoice/CreditNote; ' +
            'both parties need an electronic_address with a Peppol EAS scheme, and buyer_reference or ' +
            'purchase_order_reference; the PEPPOL-EN16931 rules are checked before output), en16931-ubl and ' +
            'en16931-cii = EN 16931 without a CIUS (UBL 2.1 / CII D16B); hr-cius = Croatia HR-CIUS 2025 ' +
            '(UBL 2.1, Fiscalization 2.0). Profile extended-ctc-fr (factur-x, en16931-cii, en16931-ubl): France ' +
            'EXTENDED-CTC-FR with the BR-FR rules; ksef = Poland KSeF FA(3) XML (profile fa3; seller NIP, Polish ' +
            'rates, see invoice.ksef and docs/e-invoices.md)',
        },
      ),
      profile: opt(
        Type.Union(
          PROFILES.map((p) => Type.Literal(p)),
          { description: "Default: the standard's" },
        ),
      ),
      invoice: EInvoiceInvoiceDoc,
    },
    { additionalProperties: false },
  ),
);
