import { Dec, sum, type ZERO } from '../totals/money.js';
import { vatOfMarker } from './rates.js';
import { readAddress, readBuyer, readContact, readRecipient } from './read-parties.js';
import { all, at, type FaNode, text } from './read-xml.js';

/** What reading an FA(3) document gives: the request-shape invoice, its own totals, and what was left out. */
export interface KsefReadResult {
  invoice: Record<string, unknown> & {
    number: string;
    issue_date: string;
    currency: string;
    lines: Record<string, unknown>[];
  };
  totals: Record<string, string>;
  warnings: string[];
}

/** FA(3) units as Polish invoices write them, as UN/ECE Rec. 20 codes. */
const UNITS: Readonly<Record<string, string>> = {
  'szt.': 'H87',
  szt: 'H87',
  'godz.': 'HUR',
  godz: 'HUR',
  kg: 'KGM',
  m: 'MTR',
  l: 'LTR',
  'kpl.': 'SET',
  kpl: 'SET',
};

/**
 * A KSeF FA(3) `Faktura` as Quire's e-invoice request model (`standard: "ksef"`): the reverse of write.ts,
 * so what Quire wrote reads back as what it was given. Reads a tree whose elements are already known to
 * be in the FA(3) namespace (the root was checked); checks nothing.
 */
export function readKsef(root: FaNode): KsefReadResult {
  const warnings: string[] = [];
  const fa = at(root, 'Fa');
  const kind = text(fa, 'RodzajFaktury');
  const p15 = amountOf(text(fa, 'P_15'));
  // A KOR that lowers the invoice is a credit note (381) with positive amounts in the model.
  const creditNote = kind !== 'VAT' && p15.isNegative();
  if (kind !== 'VAT' && kind !== 'KOR')
    warnings.push(
      `RodzajFaktury ${kind ?? '(none)'} is read as a plain invoice: Quire's model has VAT and KOR only.`,
    );
  const lines = all(fa, 'FaWiersz').map((w) => readLine(w, creditNote, warnings));
  const invoice = compact({
    number: text(fa, 'P_2') ?? '',
    issue_date: text(fa, 'P_1') ?? '',
    currency: text(fa, 'KodWaluty') ?? '',
    type_code: kind === 'KOR' ? (creditNote ? '381' : '384') : undefined,
    purchase_order_reference: text(at(fa, 'WarunkiTransakcji'), 'Zamowienia', 'NrZamowienia'),
    contract_reference: text(at(fa, 'WarunkiTransakcji'), 'Umowy', 'NrUmowy'),
    preceding_invoice: corrected(fa),
    delivery_date: text(fa, 'P_6'),
    billing_period: period(fa),
    notes: all(at(root, 'Stopka'), 'Informacje')
      .map((i) => text(i, 'StopkaFaktury'))
      .filter(Boolean),
    seller: compact({
      name: text(root, 'Podmiot1', 'DaneIdentyfikacyjne', 'Nazwa') ?? '',
      vat_id: `PL${text(root, 'Podmiot1', 'DaneIdentyfikacyjne', 'NIP') ?? ''}`,
      address: readAddress(at(at(root, 'Podmiot1'), 'Adres')),
      contact: readContact(at(root, 'Podmiot1')),
    }),
    buyer: readBuyer(at(root, 'Podmiot2')),
    delivery: readRecipient(all(root, 'Podmiot3').find((p) => text(p, 'Rola') === '2')),
    payment: payment(fa),
    lines,
    tax_exemptions: exemption(fa),
    ksef: ksefFields(fa, lines),
  }) as KsefReadResult['invoice'];
  return { invoice, totals: totals(fa, creditNote), warnings };
}

function readLine(w: FaNode | undefined, negate: boolean, warnings: string[]): Record<string, unknown> {
  const marker = text(w, 'P_12') ?? '';
  const vat = vatOfMarker(marker);
  if (vat === undefined)
    warnings.push(
      `Line ${text(w, 'NrWierszaFa')}: VAT marker "${marker}" has no VAT category in Quire's model.`,
    );
  // A received document's numbers are unchecked text: one that is not a number is passed on as it is.
  const flip = (v: string | undefined) =>
    v === undefined || !negate || !NUMBER.test(v) ? v : new Dec(v).negated().toFixed();
  const unit = text(w, 'P_8A');
  const discount = text(w, 'P_10');
  const gtin = text(w, 'GTIN');
  return compact({
    name: text(w, 'P_7') ?? '',
    quantity: flip(text(w, 'P_8B')) ?? '1',
    unit_price: text(w, 'P_9A') ?? text(w, 'P_11'),
    unit_code: unit === undefined ? undefined : (UNITS[unit] ?? unit),
    vat: vat ?? { category: 'S', rate: '23' },
    seller_item_id: text(w, 'Indeks'),
    standard_item_id: gtin,
    standard_item_scheme: gtin ? '0160' : undefined,
    allowances: discount ? [{ amount: discount, reason: 'Rabat' }] : undefined,
  });
}

function corrected(fa: FaNode | undefined): Record<string, unknown> | undefined {
  const dane = at(fa, 'DaneFaKorygowanej');
  if (!dane) return undefined;
  return compact({
    number: text(dane, 'NrFaKorygowanej') ?? '',
    issue_date: text(dane, 'DataWystFaKorygowanej'),
  });
}

function period(fa: FaNode | undefined): Record<string, unknown> | undefined {
  const okres = at(fa, 'OkresFa');
  return okres ? { start: text(okres, 'P_6_Od'), end: text(okres, 'P_6_Do') } : undefined;
}

/** FormaPlatnosci back to UNTDID 4461 (transfer 58 when there is an account, else 30). */
function payment(fa: FaNode | undefined): Record<string, unknown> | undefined {
  const p = at(fa, 'Platnosc');
  const terms = all(fa, 'DodatkowyOpis').find((d) => text(d, 'Klucz') === 'Warunki płatności');
  if (!p && !terms) return undefined;
  const account = at(p, 'RachunekBankowy');
  const form = text(p, 'FormaPlatnosci');
  const means = { '1': '10', '2': '48', '6': account ? '58' : '30' }[form ?? ''];
  return compact({
    means_code: means ?? (text(p, 'PlatnoscInna') ? '1' : undefined),
    means_text: means ? undefined : text(p, 'OpisPlatnosci'),
    iban: text(account, 'NrRB'),
    bic: text(account, 'SWIFT'),
    account_name: text(account, 'OpisRachunku'),
    due_date: text(p, 'TerminPlatnosci', 'Termin'),
    terms: terms ? text(terms, 'Wartosc') : undefined,
  });
}

function exemption(fa: FaNode | undefined): Record<string, unknown> | undefined {
  const z = at(at(fa, 'Adnotacje'), 'Zwolnienie');
  const reason = text(z, 'P_19A') ?? text(z, 'P_19B') ?? text(z, 'P_19C');
  return reason ? { E: { reason } } : undefined;
}

function ksefFields(
  fa: FaNode | undefined,
  lines: Record<string, unknown>[],
): Record<string, unknown> | undefined {
  const adnotacje = at(fa, 'Adnotacje');
  const yes = (name: string) => (text(adnotacje, name) === '1' ? true : undefined);
  const dane = at(fa, 'DaneFaKorygowanej');
  const type = text(fa, 'TypKorekty');
  const rate =
    all(fa, 'FaWiersz')
      .map((w) => text(w, 'KursWaluty'))
      .find(Boolean) ?? text(fa, 'KursWalutyZ');
  const fields = compact({
    exchange_rate: lines.length > 0 ? rate : undefined,
    place_of_issue: text(fa, 'P_1M'),
    cash_accounting: yes('P_16'),
    self_billing: yes('P_17'),
    split_payment: yes('P_18A'),
    corrected_ksef_number: text(dane, 'NrKSeFFaKorygowanej'),
    correction_reason: text(fa, 'PrzyczynaKorekty'),
    correction_type: type ? Number(type) : undefined,
  });
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The document's own totals, in the model's names (positive for a credit note, as the model keeps them). */
function totals(fa: FaNode | undefined, negate: boolean): Record<string, string> {
  const read = (name: string) => amountOf(text(fa, name));
  const groups = ['1', '2', '3', '4', '5', '6_1', '6_2', '6_3', '7', '8', '9', '10', '11'];
  const net = sum(groups.map((g) => read(`P_13_${g}`)));
  const tax = sum(['1', '2', '3', '4', '5'].map((g) => read(`P_14_${g}`)));
  const sign = (d: typeof ZERO) => (negate ? d.negated() : d).toFixed(2);
  const grand = read('P_15');
  return {
    tax_basis_total: sign(net),
    tax_total: sign(tax),
    grand_total: sign(grand),
    due_payable: sign(grand),
  };
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** An FA(3) amount as a Decimal; absent or not a number (an invalid document) counts as 0. */
function amountOf(value: string | undefined): InstanceType<typeof Dec> {
  return new Dec(value !== undefined && NUMBER.test(value) ? value : '0');
}

/** Drops absent values and empty arrays, as the request model leaves them out. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  ) as T;
}
