/**
 * E-invoice inputs (the `e_invoice.invoice` JSON of POST /pdf) that exercise every XML path of the
 * writers: VAT categories, allowances/charges with amounts and percentages, prepaid, rounding, credit
 * note, self-billing, foreign parties and currencies, direct debit, base quantities. Each one meets
 * XRechnung's extra requirements, so it is valid for every profile that accepts its fields.
 */
import { address, type EInvoiceFixture, email, line, party } from '../../fixtures/einvoice-fixtures.js';

type Json = Record<string, unknown>;

/** The same shape as the shared fixtures', which the output tests run together with these. */
export type InvoiceCase = EInvoiceFixture;

const sellerDe = party('Lieferant GmbH', address(['Lieferantenstraße 20', 'München', '80333', 'DE']), {
  trading_name: 'Lieferant',
  vat_id: 'DE123456789',
  tax_number: '201/113/40209',
  legal_registration_id: 'HRB 12345',
  electronic_address: email('rechnung@lieferant.example'),
  contact: { name: 'Hans Muster', phone: '+49 89 1234567', email: 'hans.muster@lieferant.example' },
  legal_info: 'Geschäftsführer: Hans Muster, Amtsgericht München',
});

const buyerDe = party(
  'Kunden AG Mitte',
  address(['Kundenstraße 15', 'Frankfurt', '69876', 'DE'], { line2: 'Haus B' }),
  {
    id: 'GE2020211',
    electronic_address: { value: '04011000-12345-03', scheme: '0204' },
    contact: { name: 'Erika Einkauf', email: 'einkauf@kunden.example' },
  },
);

const buyerFr = party('Client SARL', address(['12 rue de la Paix', 'Paris', '75002', 'FR']), {
  vat_id: 'FR32123456789',
  electronic_address: email('factures@client.example'),
});

const transfer: Json = {
  iban: 'DE02 1203 0000 0000 2020 51',
  bic: 'BYLADEM1001',
  account_name: 'Lieferant GmbH',
  terms: 'Zahlbar innerhalb von 30 Tagen ohne Abzug.',
  due_date: '2025-07-05',
};

/** A copy of `obj` without `keys` (a JSON field left out, not sent as undefined). */
function omit(obj: Json, ...keys: string[]): Json {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
}

/** A Spanish seller (VAT categories L and M are Spain's): a Spanish VAT id and no German tax number. */
function sellerEs(name: string, line1: string, city: string, postal_code: string): Json {
  return {
    ...omit(sellerDe, 'tax_number'),
    name,
    address: { line1, city, postal_code, country_code: 'ES' },
    vat_id: 'ESB12345674',
  };
}

function base(number: string, extra: Json = {}): Json {
  return {
    number,
    issue_date: '2025-06-05',
    currency: 'EUR',
    buyer_reference: '04011000-12345-03',
    seller: sellerDe,
    buyer: buyerDe,
    payment: transfer,
    ...extra,
  };
}

const S19 = { category: 'S', rate: 19 };
const S7 = { category: 'S', rate: '7' };

export const CASES: InvoiceCase[] = [
  {
    name: 'standard-rich',
    prepaid: true,
    invoice: base('RE-2025/0001', {
      purchase_order_reference: 'PO-4711',
      sales_order_reference: 'SO-0815',
      contract_reference: 'V-2025-01',
      project_reference: 'PRJ-42',
      delivery_date: '2025-06-03',
      notes: ['Vielen Dank für Ihren Auftrag & Ihr Vertrauen <3', 'Zweite Notiz\nmit Zeilenumbruch'],
      delivery: {
        name: 'Lager Nord',
        address: { line1: 'Hafenweg 1', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
      },
      lines: [
        line('Kunstrasen grün 3m breit', '3', '3.3333', S19, {
          description: '300 cm x 100 cm',
          seller_item_id: 'KR3M',
          buyer_item_id: 'SE_KR3M',
          standard_item_id: '4012345001235',
          standard_item_scheme: '0160',
          order_line_reference: '1',
          note: 'Lieferung aus Lieferschein 2025-51112',
          unit_code: 'MTR',
        }),
        line('Beratung', '2.5', 120, S7, {
          unit_code: 'HUR',
          period: { start: '2025-05-01', end: '2025-05-31' },
          allowances: [{ percent: 10, reason: 'Projektrabatt' }],
          charges: [{ amount: '5.00', reason_code: 'FC', reason: 'Anfahrt' }],
        }),
        line('Schrauben', 1000, '4.50', S19, { price_base_quantity: 100, unit_code: 'C62' }),
        line('Rücknahme Palette', -2, '8.00', S19, { unit_code: 'C62' }),
      ],
      allowances: [{ amount: '1.00', reason: 'Sondernachlass', vat: S19 }],
      charges: [{ percent: 2, base_amount: '100.00', reason: 'Versandkosten', vat: S7 }],
      prepaid_amount: '50.00',
    }),
  },
  {
    name: 'rounding',
    rounding: true,
    invoice: base('RE-2025/0002', {
      lines: [line('Wartung', 1, '99.99', S19, { unit_code: 'LS' })],
      rounding_amount: '0.01',
    }),
  },
  {
    name: 'credit-note',
    invoice: base('GS-2025/0001', {
      type_code: '381',
      preceding_invoice: { number: 'RE-2025/0001', issue_date: '2025-05-02' },
      lines: [line('Gutschrift Retoure', 2, '25.00', S19)],
    }),
  },
  {
    name: 'self-billed',
    invoice: base('SB-2025/0001', {
      type_code: '389',
      billing_period: { start: '2025-05-01', end: '2025-05-31' },
      lines: [line('Provision Mai', 1, '1234.56', S19, { unit_code: 'LS' })],
    }),
  },
  {
    name: 'zero-and-exempt',
    invoice: base('RE-2025/0003', {
      lines: [
        line('Bücher', 3, '12.90', { category: 'Z', rate: 0 }),
        line('Heilbehandlung', 1, '80.00', { category: 'E', rate: 0 }, { unit_code: 'DAY' }),
        line('Zubehör', 1, '10.00', S19),
      ],
      tax_exemptions: { E: { reason: 'Steuerfrei nach § 4 Nr. 14 UStG', code: 'VATEX-EU-132-1C' } },
    }),
  },
  {
    name: 'reverse-charge-eur-fr',
    invoice: base('RE-2025/0004', {
      buyer: buyerFr,
      lines: [line('Softwareentwicklung', 10, '95.00', { category: 'AE', rate: 0 }, { unit_code: 'HUR' })],
    }),
  },
  {
    name: 'intra-community-supply',
    invoice: base('RE-2025/0005', {
      buyer: buyerFr,
      delivery_date: '2025-06-02',
      delivery: {
        address: { line1: 'Zone industrielle 4', city: 'Lyon', postal_code: '69001', country_code: 'FR' },
      },
      lines: [line('Maschine', 1, '12500.00', { category: 'K', rate: 0 }, { unit_code: 'C62' })],
    }),
  },
  {
    name: 'export-usd',
    invoice: base('RE-2025/0006', {
      currency: 'USD',
      buyer: party(
        'Buyer Inc.',
        address(['1 Main Street', 'Springfield', '62701', 'US'], { subdivision: 'IL' }),
        {
          electronic_address: email('ap@buyer.example'),
        },
      ),
      lines: [line('Ersatzteile', 40, '12.375', { category: 'G', rate: 0 }, { unit_code: 'KGM' })],
    }),
  },
  {
    name: 'not-subject-chf',
    invoice: base('RE-2025/0007', {
      currency: 'CHF',
      // BR-O-02: no seller VAT id with category O; the tax number (BT-32) satisfies XRechnung.
      seller: omit(sellerDe, 'vat_id'),
      lines: [line('Vortrag (nicht steuerbar)', 1, '1500.00', { category: 'O' })],
    }),
  },
  {
    name: 'canary-islands',
    invoice: base('F-2025-0008', {
      seller: sellerEs('Proveedor Canarias SL', 'Calle Mayor 1', 'Las Palmas', '35001'),
      lines: [line('Servicio', 2, '150.00', { category: 'L', rate: 7 })],
    }),
  },
  {
    name: 'ceuta-melilla',
    invoice: base('F-2025-0009', {
      seller: sellerEs('Proveedor Ceuta SL', 'Calle Real 5', 'Ceuta', '51001'),
      lines: [line('Mercancía', 4, '25.00', { category: 'M', rate: 4 })],
    }),
  },
  {
    name: 'direct-debit',
    invoice: base('RE-2025/0010', {
      payment: {
        means_code: '59',
        mandate_reference: 'MANDAT-123',
        creditor_id: 'DE98ZZZ09999999999',
        debited_iban: 'DE89370400440532013000',
        due_date: '2025-06-20',
      },
      lines: [line('Abonnement Juni', 1, '29.90', S19, { unit_code: 'LS' })],
    }),
  },
];
