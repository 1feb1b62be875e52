import type { Decimal } from 'decimal.js';
import type { Line, Payment, PreparedEInvoice } from '../model.js';
import { sum, ZERO } from '../totals/money.js';
import { amount, child, leaf, leaves, type Node, plain } from '../xml/xml-text.js';
import { GROUP_OF, GROUPS, type KsefMarker, markerOf, signed, TAXED_GROUPS, toPln } from './rates.js';
import { buyerId } from './rules.js';

/** FormaPlatnosci: 1 cash, 2 card, 6 transfer; the other UNTDID 4461 means are described in words. */
const PAYMENT_FORM: Readonly<Record<string, string>> = {
  '10': '1',
  '48': '2',
  '54': '2',
  '55': '2',
  '30': '6',
  '31': '6',
  '42': '6',
  '58': '6',
};

interface Context {
  p: PreparedEInvoice;
  /** A credit note (381) is a correction that lowers the invoice: FA(3) writes its amounts negative. */
  negate: boolean;
  markers: KsefMarker[];
  rate: Decimal | undefined;
}

/** The invoice body (Fa) in the schema's order. */
export function writeFa(root: Node, p: PreparedEInvoice): void {
  const { invoice } = p;
  const polishBuyer = buyerId(invoice).kind === 'nip';
  const ctx: Context = {
    p,
    negate: invoice.type_code === '381',
    markers: invoice.lines.map((l) => markerOf(l.vat, polishBuyer) as KsefMarker),
    rate: invoice.ksef?.exchange_rate,
  };
  const fa = child(root, 'Fa');
  leaves(fa, {
    KodWaluty: invoice.currency,
    P_1: invoice.issue_date,
    P_1M: invoice.ksef?.place_of_issue,
    P_2: invoice.number,
  });
  if (invoice.billing_period)
    leaves(child(fa, 'OkresFa'), {
      P_6_Od: invoice.billing_period.start,
      P_6_Do: invoice.billing_period.end,
    });
  else leaf(fa, 'P_6', invoice.delivery_date);
  writeGroupTotals(fa, ctx);
  leaf(fa, 'P_15', signed(p.totals.grand_total, ctx.negate));
  writeAnnotations(fa, ctx);
  leaf(fa, 'RodzajFaktury', invoice.type_code === '380' ? 'VAT' : 'KOR');
  if (invoice.type_code !== '380') writeCorrected(fa, p);
  if (invoice.payment?.terms)
    leaves(child(fa, 'DodatkowyOpis'), { Klucz: 'Warunki płatności', Wartosc: invoice.payment.terms });
  for (const [i, line] of invoice.lines.entries()) writeLine(fa, line, i, ctx);
  if (invoice.payment) writePayment(fa, invoice.payment);
  writeTransaction(fa, p);
}

/** P_13_x (net) and P_14_x (VAT, with P_14_xW in PLN for a foreign currency) per group of rates. */
function writeGroupTotals(fa: Node, ctx: Context): void {
  const net = new Map<string, Decimal>();
  const tax = new Map<string, Decimal>();
  ctx.p.lines.forEach((line, i) => {
    const group = GROUP_OF[ctx.markers[i] as KsefMarker];
    net.set(group, (net.get(group) ?? ZERO).plus(line.net_amount));
  });
  // The VAT of a group is the breakdown's (rounded per rate), not a sum of per-line amounts.
  for (const entry of ctx.p.vatBreakdown) {
    const line = ctx.p.lines.find((l) => l.vat.category === entry.category && eqRate(l.vat.rate, entry.rate));
    const marker = line ? ctx.markers[ctx.p.lines.indexOf(line)] : undefined;
    if (!marker) continue;
    const group = GROUP_OF[marker];
    tax.set(group, (tax.get(group) ?? ZERO).plus(entry.tax_amount));
  }
  for (const group of GROUPS) {
    const groupNet = net.get(group);
    if (groupNet === undefined) continue;
    leaf(fa, `P_13_${group}`, signed(groupNet, ctx.negate));
    if (!TAXED_GROUPS.has(group)) continue;
    const groupTax = tax.get(group) ?? ZERO;
    leaf(fa, `P_14_${group}`, signed(groupTax, ctx.negate));
    if (ctx.rate) leaf(fa, `P_14_${group}W`, signed(toPln(groupTax, ctx.rate), ctx.negate));
  }
}

function eqRate(a: Decimal | null, b: Decimal | null): boolean {
  return a === null || b === null ? a === b : a.eq(b);
}

/** Adnotacje: every marker is mandatory; "2"/N means no. Exemption (P_19) carries its legal basis. */
function writeAnnotations(fa: Node, ctx: Context): void {
  const { invoice } = ctx.p;
  const yesNo = (on: boolean | undefined) => (on ? '1' : '2');
  const adnotacje = child(fa, 'Adnotacje');
  leaves(adnotacje, {
    P_16: yesNo(invoice.ksef?.cash_accounting),
    P_17: yesNo(invoice.ksef?.self_billing),
    P_18: yesNo(ctx.markers.some((m) => m === 'oo' || m === 'np II')),
    P_18A: yesNo(invoice.ksef?.split_payment),
  });
  const zwolnienie = child(adnotacje, 'Zwolnienie');
  if (ctx.markers.includes('zw'))
    leaves(zwolnienie, {
      P_19: '1',
      P_19A: invoice.tax_exemptions.E?.reason ?? 'art. 43 ust. 1 ustawy o VAT',
    });
  else leaf(zwolnienie, 'P_19N', '1');
  leaf(child(adnotacje, 'NoweSrodkiTransportu'), 'P_22N', '1');
  leaf(adnotacje, 'P_23', '2');
  leaf(child(adnotacje, 'PMarzy'), 'P_PMarzyN', '1');
}

/** KOR: the reason and type when given, and the corrected invoice with its KSeF number or NrKSeFN. */
function writeCorrected(fa: Node, p: PreparedEInvoice): void {
  const ksef = p.invoice.ksef ?? {};
  leaves(fa, {
    PrzyczynaKorekty: ksef.correction_reason,
    TypKorekty: ksef.correction_type?.toString(),
  });
  const corrected = child(fa, 'DaneFaKorygowanej');
  leaves(corrected, {
    DataWystFaKorygowanej: p.invoice.preceding_invoice?.issue_date,
    NrFaKorygowanej: p.invoice.preceding_invoice?.number,
  });
  if (ksef.corrected_ksef_number)
    leaves(corrected, { NrKSeF: '1', NrKSeFFaKorygowanej: ksef.corrected_ksef_number });
  else leaf(corrected, 'NrKSeFN', '1');
}

function writeLine(fa: Node, line: Line, index: number, ctx: Context): void {
  const wiersz = child(fa, 'FaWiersz');
  const discount = sum(line.allowances.map((a) => a.amount));
  const quantity = ctx.negate ? line.quantity.negated() : line.quantity;
  leaves(wiersz, {
    NrWierszaFa: String(index + 1),
    P_7: line.name,
    Indeks: line.seller_item_id,
    GTIN: line.standard_item_scheme === '0160' ? line.standard_item_id : undefined,
    P_8A: line.unit_code,
    P_8B: plain(quantity),
    P_9A: plain(line.unit_price.dividedBy(line.price_base_quantity).toDecimalPlaces(8)),
    P_10: discount.isZero() ? undefined : amount(discount),
    P_11: signed(line.net_amount, ctx.negate),
    P_12: ctx.markers[index],
    KursWaluty: ctx.rate ? plain(ctx.rate) : undefined,
  });
}

function writePayment(fa: Node, payment: Payment): void {
  const platnosc = child(fa, 'Platnosc');
  if (payment.due_date) leaf(child(platnosc, 'TerminPlatnosci'), 'Termin', payment.due_date);
  const form = PAYMENT_FORM[payment.means_code];
  if (form) leaf(platnosc, 'FormaPlatnosci', form);
  else if (payment.means_code !== '1')
    leaves(platnosc, {
      PlatnoscInna: '1',
      OpisPlatnosci: payment.means_text ?? `UNTDID 4461 ${payment.means_code}`,
    });
  if (payment.iban) {
    const account = child(platnosc, 'RachunekBankowy');
    leaves(account, {
      NrRB: payment.iban,
      SWIFT: payment.bic,
      NazwaBanku: undefined,
      OpisRachunku: payment.account_name,
    });
  }
}

/** WarunkiTransakcji: the contract and the purchase order. */
function writeTransaction(fa: Node, p: PreparedEInvoice): void {
  const { contract_reference: contract, purchase_order_reference: order } = p.invoice;
  if (!contract && !order) return;
  const warunki = child(fa, 'WarunkiTransakcji');
  if (contract) leaf(child(warunki, 'Umowy'), 'NrUmowy', contract);
  if (order) leaf(child(warunki, 'Zamowienia'), 'NrZamowienia', order);
}
