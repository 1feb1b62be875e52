/**
 * Valid `e_invoice.invoice` inputs for tests (validator, XML writers, template). Together they cover
 * every VAT category, line- and document-level allowances and charges (amounts and percentages),
 * prepaid and rounding amounts, a credit note (381), a self-billed invoice (389), several currencies,
 * non-German parties, direct debit and a Skonto term. Every fixture meets XRechnung's extra
 * requirements, so it is valid for every standard × profile that `fixtureTargets` lists.
 */
import { DEFAULT_PROFILE, PROFILES_BY_STANDARD, type Profile, STANDARDS, type Standard } from './model.js';

type Json = Record<string, unknown>;

export interface EInvoiceFixture {
  name: string;
  invoice: Json;
  /** Sends prepaid_amount: not for the minimum profile. */
  prepaid?: boolean;
  /** Sends rounding_amount: only en16931, extended and xrechnung. */
  rounding?: boolean;
}

const seller: Json = {
  name: 'Musterlieferant GmbH',
  trading_name: 'Musterlieferant',
  address: { line1: 'Industriestraße 7', city: 'Köln', postal_code: '50667', country_code: 'DE' },
  vat_id: 'DE811569869',
  tax_number: '214/5711/0815',
  legal_registration_id: 'HRB 98765',
  electronic_address: { value: 'invoices@musterlieferant.example', scheme: 'EM' },
  contact: {
    name: 'Petra Beispiel',
    phone: '+49 221 987654',
    email: 'petra.beispiel@musterlieferant.example',
  },
  legal_info: 'Geschäftsführerin: Petra Beispiel, Amtsgericht Köln',
};
const buyer: Json = {
  name: 'Stadtverwaltung Musterstadt',
  address: { line1: 'Rathausplatz 1', city: 'Musterstadt', postal_code: '12345', country_code: 'DE' },
  id: '4000001123452',
  id_scheme: '0088',
  electronic_address: { value: '991-01234-56', scheme: '0204' },
  contact: { name: 'Beschaffung', phone: '030 123456', email: 'beschaffung@musterstadt.example' },
};
const buyerAt: Json = {
  name: 'Wiener Handels GmbH',
  address: { line1: 'Ringstraße 3', city: 'Wien', postal_code: '1010', country_code: 'AT' },
  vat_id: 'ATU13585627',
  electronic_address: { value: 'ap@wiener-handels.example', scheme: 'EM' },
};
const buyerNl: Json = {
  name: 'Amsterdam Import BV',
  address: { line1: 'Keizersgracht 100', city: 'Amsterdam', postal_code: '1015 CW', country_code: 'NL' },
  vat_id: 'NL123456789B01',
  electronic_address: { value: 'facturen@amsterdam-import.example', scheme: 'EM' },
};
const buyerUs: Json = {
  name: 'Acme Corp.',
  address: {
    line1: '500 Market St',
    city: 'San Francisco',
    postal_code: '94105',
    subdivision: 'CA',
    country_code: 'US',
  },
  electronic_address: { value: 'payables@acme.example', scheme: 'EM' },
};
const sellerFr: Json = {
  name: 'Atelier Lumière SARL',
  address: { line1: '8 rue des Arts', city: 'Lyon', postal_code: '69002', country_code: 'FR' },
  vat_id: 'FR40303265045',
  legal_registration_id: '30326504500017',
  legal_registration_scheme: '0002',
  electronic_address: { value: 'compta@atelier-lumiere.example', scheme: 'EM' },
  contact: {
    name: 'Claire Martin',
    phone: '+33 4 78 00 00 00',
    email: 'claire.martin@atelier-lumiere.example',
  },
};
const sellerEs = (name: string, city: string, postal: string): Json => ({
  ...seller,
  name,
  tax_number: undefined,
  address: { line1: 'Calle Mayor 1', city, postal_code: postal, country_code: 'ES' },
  vat_id: 'ESB12345674',
});
const transfer: Json = {
  iban: 'DE75 5121 0800 1245 1261 99',
  bic: 'SOGEDEFFXXX',
  account_name: 'Musterlieferant GmbH',
  terms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
  due_date: '2025-03-17',
};
const S19 = { category: 'S', rate: 19 };
const S7 = { category: 'S', rate: '7.00' };

function invoice(number: string, lines: Json[], extra: Json = {}): Json {
  return {
    number,
    issue_date: '2025-03-03',
    currency: 'EUR',
    buyer_reference: '991-01234-56',
    seller,
    buyer,
    payment: transfer,
    lines,
    ...extra,
  };
}
const line = (name: string, quantity: unknown, unit_price: unknown, vat: Json, extra: Json = {}): Json => ({
  name,
  quantity,
  unit_price,
  vat,
  ...extra,
});

export const EINVOICE_FIXTURES: readonly EInvoiceFixture[] = [
  {
    name: 'two-rates-allowances-prepaid',
    prepaid: true,
    invoice: invoice(
      'R-2025-0101',
      [
        line('Druckerpapier A4, 500 Blatt', 20, '4.19', S19, { unit_code: 'C62', seller_item_id: 'PAP-A4' }),
        line('Fachbuch Steuerrecht', 2, '49.90', S7, {
          standard_item_id: '9783161484100',
          standard_item_scheme: '0160',
          allowances: [{ percent: '5', reason: 'Buchhändlerrabatt', reason_code: '95' }],
        }),
        line('Montage', '1.5', '80.00', S19, {
          unit_code: 'HUR',
          period: { start: '2025-02-24', end: '2025-02-28' },
          charges: [{ amount: '12.50', reason: 'Anfahrt', reason_code: 'FC' }],
        }),
        line('Schrauben M4', 2500, '3.80', S19, { price_base_quantity: 1000 }),
        line('Rückgabe Leergut', -3, '2.50', S19),
      ],
      {
        purchase_order_reference: 'B-7781',
        contract_reference: 'RV-2024-17',
        project_reference: 'Schulsanierung',
        delivery_date: '2025-02-28',
        delivery: {
          name: 'Grundschule Nord',
          address: { line1: 'Schulweg 2', city: 'Musterstadt', postal_code: '12347', country_code: 'DE' },
        },
        notes: ['Lieferung gemäß Rahmenvertrag.', 'Zweite Zeile\nmit Umbruch & <Sonderzeichen>'],
        allowances: [{ amount: '10.00', reason: 'Treuerabatt', reason_code: '100', vat: S19 }],
        charges: [
          { percent: '2.5', base_amount: '99.80', reason: 'Verpackung', reason_code: 'ABL', vat: S7 },
        ],
        prepaid_amount: '100.00',
      },
    ),
  },
  {
    name: 'rounding',
    rounding: true,
    invoice: invoice('R-2025-0102', [line('Wartungspauschale', 1, '84.02', S19, { unit_code: 'LS' })], {
      rounding_amount: '0.02',
    }),
  },
  {
    name: 'credit-note-381',
    invoice: invoice('G-2025-0007', [line('Gutschrift beschädigte Ware', 3, '19.99', S19)], {
      type_code: '381',
      preceding_invoice: { number: 'R-2025-0101', issue_date: '2025-03-03' },
    }),
  },
  {
    name: 'self-billed-389',
    invoice: invoice('SB-2025-0003', [line('Provision Februar', 1, '2150.00', S19, { unit_code: 'LS' })], {
      type_code: '389',
      billing_period: { start: '2025-02-01', end: '2025-02-28' },
    }),
  },
  {
    name: 'zero-exempt-standard',
    invoice: invoice(
      'R-2025-0104',
      [
        line('Lebensmittelspende', 4, '10.00', { category: 'Z', rate: 0 }),
        line('Physiotherapie', 2, '65.00', { category: 'E', rate: '0' }, { unit_code: 'HUR' }),
        line('Gymnastikband', 2, '9.90', S19),
      ],
      { tax_exemptions: { E: { reason: 'Steuerfrei nach § 4 Nr. 14 UStG', code: 'VATEX-EU-132-1C' } } },
    ),
  },
  {
    name: 'reverse-charge-at',
    invoice: invoice(
      'R-2025-0105',
      [line('Beratungsleistung', 16, '110.00', { category: 'AE', rate: 0 }, { unit_code: 'HUR' })],
      {
        buyer: buyerAt,
        tax_exemptions: { AE: { reason: 'Steuerschuldnerschaft des Leistungsempfängers' } },
      },
    ),
  },
  {
    name: 'intra-community-nl',
    invoice: invoice('R-2025-0106', [line('Industriepumpe', 2, '3400.00', { category: 'K', rate: 0 })], {
      buyer: buyerNl,
      delivery_date: '2025-02-27',
      delivery: {
        address: { line1: 'Havenweg 9', city: 'Rotterdam', postal_code: '3011 AA', country_code: 'NL' },
      },
    }),
  },
  {
    name: 'export-usd',
    invoice: invoice(
      'R-2025-0107',
      [line('Ersatzteilset', 12, '17.125', { category: 'G', rate: 0 }, { unit_code: 'SET' })],
      {
        currency: 'USD',
        buyer: buyerUs,
      },
    ),
  },
  {
    name: 'not-subject-chf',
    invoice: invoice(
      'R-2025-0108',
      [line('Gastvortrag (nicht steuerbar)', 1, '1800.00', { category: 'O' })],
      {
        currency: 'CHF',
        seller: { ...seller, vat_id: undefined },
      },
    ),
  },
  {
    name: 'canary-islands-l',
    invoice: invoice('F-2025-0109', [line('Servicio técnico', 3, '120.00', { category: 'L', rate: '7' })], {
      seller: sellerEs('Servicios Canarias SL', 'Las Palmas', '35001'),
    }),
  },
  {
    name: 'ceuta-melilla-m',
    invoice: invoice('F-2025-0110', [line('Mercancía', 5, '30.00', { category: 'M', rate: 4 })], {
      seller: sellerEs('Comercial Ceuta SL', 'Ceuta', '51001'),
    }),
  },
  {
    name: 'direct-debit',
    invoice: invoice('R-2025-0111', [line('Jahreslizenz', 1, '1190.00', S19, { unit_code: 'ANN' })], {
      payment: {
        means_code: '59',
        mandate_reference: 'MDT-2025-0042',
        creditor_id: 'DE98ZZZ09999999999',
        debited_iban: 'DE02100500000054540402',
        due_date: '2025-03-20',
      },
    }),
  },
  {
    name: 'french-seller-gbp-skonto',
    invoice: invoice(
      'FA-2025-0112',
      [
        line('Luminaire design', 4, '245.00', { category: 'S', rate: 20 }),
        line('Livre', 1, '32.00', { category: 'S', rate: '5.5' }),
      ],
      {
        currency: 'GBP',
        seller: sellerFr,
        buyer: {
          ...buyerAt,
          name: 'London Interiors Ltd',
          vat_id: 'GB980780684',
          address: { line1: '1 King St', city: 'London', postal_code: 'EC2V 8AU', country_code: 'GB' },
        },
        allowances: [{ percent: 3, reason: 'Remise fidélité', vat: { category: 'S', rate: 20 } }],
        payment: {
          means_code: '58',
          iban: 'FR7630006000011234567890189',
          bic: 'AGRIFRPP',
          terms: 'Paiement à 30 jours.\n#SKONTO#TAGE=10#PROZENT=2.00#',
          due_date: '2025-04-02',
        },
      },
    ),
  },
];

/** Every standard × profile the fixture is valid for (prepaid not in minimum; rounding only in three). */
export function fixtureTargets(fixture: EInvoiceFixture): { standard: Standard; profile: Profile }[] {
  const targets = STANDARDS.flatMap((standard) =>
    PROFILES_BY_STANDARD[standard].map((profile) => ({ standard, profile })),
  );
  return targets.filter(
    ({ profile }) =>
      !(fixture.prepaid && profile === 'minimum') &&
      !(fixture.rounding && !['en16931', 'extended', 'xrechnung'].includes(profile)),
  );
}

/** The default profile of a standard, handy for single-target tests. */
export const defaultProfile = (standard: Standard): Profile => DEFAULT_PROFILE[standard];
