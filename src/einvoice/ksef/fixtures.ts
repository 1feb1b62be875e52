/**
 * KSeF FA(3) scenarios as `e_invoice.invoice` request bodies: each is valid for `standard: "ksef"`, writes
 * XML the official FA(3) schema accepts, and reads back to itself (ksef.test.ts, the integration test and
 * the parse round trip use them).
 */
type Json = Record<string, unknown>;

const seller: Json = {
  name: 'Bogusz - Sienkiewicz sp. z o.o.',
  vat_id: 'PL5265877635',
  address: { line1: 'al. Jerozolimskie 7', postal_code: '00-950', city: 'Warszawa', country_code: 'PL' },
  contact: { email: 'faktury@bogusz.example', phone: '+48 22 588 03 53' },
};
const buyerPl: Json = {
  name: 'Błaszczak - Lenart S.A.',
  vat_id: 'PL3861610227',
  address: { line1: 'ul. Szewska 12', postal_code: '84-642', city: 'Żelechów', country_code: 'PL' },
};
const buyerDe: Json = {
  name: 'Musterkunde GmbH',
  vat_id: 'DE811569869',
  address: { line1: 'Industriestraße 7', postal_code: '50667', city: 'Köln', country_code: 'DE' },
};
const buyerCh: Json = {
  name: 'Uhren AG',
  id: 'CHE-123.456.788',
  address: { line1: 'Bahnhofstrasse 1', postal_code: '8001', city: 'Zürich', country_code: 'CH' },
};
const consumer: Json = {
  name: 'Jan Kowalski',
  address: { line1: 'ul. Długa 5', postal_code: '80-831', city: 'Gdańsk', country_code: 'PL' },
};
const transfer: Json = { iban: 'PL61109010140000071219812874', bic: 'WBKPPLPP', due_date: '2026-03-17' };

const line = (name: string, quantity: string, unit_price: string, vat: Json, extra: Json = {}): Json => ({
  name,
  quantity,
  unit_price,
  unit_code: 'H87',
  vat,
  ...extra,
});
const rate = (r: string): Json => ({ category: 'S', rate: r });

function invoice(number: string, lines: Json[], extra: Json = {}): Json {
  return {
    number,
    issue_date: '2026-03-03',
    currency: 'PLN',
    seller,
    buyer: buyerPl,
    payment: transfer,
    lines,
    ...extra,
  };
}

export interface KsefFixture {
  name: string;
  invoice: Json;
}

export const KSEF_FIXTURES: readonly KsefFixture[] = [
  {
    name: 'VAT, PLN, rates 23/8/5, 0 % and exempt, bank transfer',
    invoice: invoice(
      'FV/2026/03/001',
      [
        line('Usługa wdrożeniowa', '10', '150.00', rate('23'), { seller_item_id: 'WDR-1' }),
        line('Książka', '3', '49.90', rate('5'), {
          standard_item_id: '9788301000000',
          standard_item_scheme: '0160',
        }),
        line('Catering', '2', '120.50', rate('8')),
        line('Eksport usługi (0 %)', '1', '300', { category: 'Z', rate: '0' }),
        line('Szkolenie (zwolnione)', '1', '800', { category: 'E', rate: '0' }),
      ],
      {
        delivery_date: '2026-03-02',
        notes: ['Dziękujemy za zakupy.'],
        purchase_order_reference: 'ZAM-77',
        contract_reference: 'UM/2026/4',
        tax_exemptions: { E: { reason: 'art. 43 ust. 1 pkt 29 lit. c ustawy o VAT' } },
        ksef: { place_of_issue: 'Warszawa', split_payment: true },
      },
    ),
  },
  {
    name: 'VAT, EUR with the exchange rate, EU buyer: intra-EU supply and reverse-charge services',
    invoice: invoice(
      'FV/2026/03/002',
      [
        line('Maszyna', '1', '2500', { category: 'K', rate: '0' }),
        line('Serwis (art. 28b)', '4', '80', { category: 'AE', rate: '0' }),
      ],
      {
        currency: 'EUR',
        buyer: buyerDe,
        delivery: { name: 'Musterkunde Lager', address: buyerDe.address },
        billing_period: { start: '2026-02-01', end: '2026-02-28' },
        ksef: { exchange_rate: '4.2718' },
      },
    ),
  },
  {
    name: 'VAT in EUR at 23 %, foreign currency with P_14_1W',
    invoice: invoice('FV/2026/03/003', [line('Licencja', '2', '99.99', rate('23'))], {
      currency: 'EUR',
      ksef: { exchange_rate: '4.305' },
    }),
  },
  {
    name: 'VAT, domestic reverse charge (oo), cash accounting',
    invoice: invoice(
      'FV/2026/03/004',
      [line('Złom stalowy', '1000', '1.25', { category: 'AE', rate: '0' })],
      {
        ksef: { cash_accounting: true },
      },
    ),
  },
  {
    name: 'VAT, export outside the EU to a buyer with another id',
    invoice: invoice('FV/2026/03/005', [line('Zegar', '2', '1200', { category: 'G', rate: '0' })], {
      buyer: buyerCh,
    }),
  },
  {
    name: 'VAT, consumer without an identifier (BrakID)',
    invoice: invoice('FV/2026/03/006', [line('Rower', '1', '1999.99', rate('23'))], {
      buyer: consumer,
      payment: { means_code: '10', due_date: '2026-03-03' },
    }),
  },
  {
    name: 'KOR, credit note lowering an invoice issued in KSeF',
    invoice: invoice('KOR/2026/03/001', [line('Usługa wdrożeniowa (zwrot)', '2', '150.00', rate('23'))], {
      type_code: '381',
      preceding_invoice: { number: 'FV/2026/03/001', issue_date: '2026-03-03' },
      ksef: {
        corrected_ksef_number: '5265877635-20260303-0A1B2C3D4E5F-7A',
        correction_reason: 'Zwrot części usług',
        correction_type: 2,
      },
    }),
  },
  {
    name: 'KOR, corrected invoice raising an invoice issued outside KSeF',
    invoice: invoice('KOR/2026/03/002', [line('Dopłata za transport', '1', '50', rate('8'))], {
      type_code: '384',
      preceding_invoice: { number: 'FV/2026/02/117', issue_date: '2026-02-20' },
    }),
  },
];
