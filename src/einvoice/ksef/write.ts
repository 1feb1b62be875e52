import type { Address, Party, PreparedEInvoice } from '../model.js';
import { child, leaf, leaves, type Node, xmlRoot, xmlText } from '../xml/xml-text.js';
import { buyerId, sellerNip } from './rules.js';
import { writeFa } from './write-fa.js';

/** The FA(3) schema's target namespace (schemat_FA(3)_v1-0E.xsd, Ministry of Finance). */
export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';
const ETD = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/';

/**
 * Poland's KSeF structured invoice FA(3) (schema 1-0E) from a prepared invoice: what a KSeF client submits.
 * The KSeF number and the verification QR code are assigned by KSeF on acceptance, so they are not here.
 * Validation guarantees what this relies on: the seller NIP, a Polish marker for every line's VAT, the
 * exchange rate for a foreign currency, a corrected invoice for KOR (src/einvoice/ksef/rules.ts).
 */
export function buildKsef(p: PreparedEInvoice, now: Date = new Date()): string {
  const root = xmlRoot('Faktura', { xmlns: FA3_NAMESPACE, 'xmlns:etd': ETD });
  const header = child(root, 'Naglowek');
  leaf(header, 'KodFormularza', 'FA', { kodSystemowy: 'FA (3)', wersjaSchemy: '1-0E' });
  leaf(header, 'WariantFormularza', '3');
  leaf(header, 'DataWytworzeniaFa', now.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  leaf(header, 'SystemInfo', 'Quire');
  writeSeller(root, p);
  writeBuyer(root, p);
  writeRecipient(root, p);
  writeFa(root, p);
  writeFooter(root, p.invoice.notes);
  return xmlText(root);
}

function writeSeller(root: Node, p: PreparedEInvoice): void {
  const { seller } = p.invoice;
  const podmiot = child(root, 'Podmiot1');
  const id = child(podmiot, 'DaneIdentyfikacyjne');
  leaves(id, { NIP: sellerNip(p.invoice), Nazwa: seller.name });
  writeAddress(podmiot, seller.address);
  writeContact(podmiot, seller);
}

function writeBuyer(root: Node, p: PreparedEInvoice): void {
  const { buyer } = p.invoice;
  const podmiot = child(root, 'Podmiot2');
  const id = child(podmiot, 'DaneIdentyfikacyjne');
  const known = buyerId(p.invoice);
  if (known.kind === 'nip') leaf(id, 'NIP', known.nip);
  else if (known.kind === 'eu') leaves(id, { KodUE: known.country, NrVatUE: known.number });
  else if (known.kind === 'other') leaves(id, { KodKraju: known.country, NrID: known.id });
  else leaf(id, 'BrakID', '1');
  leaf(id, 'Nazwa', buyer.name);
  if (buyer.address.line1 || buyer.address.city) writeAddress(podmiot, buyer.address);
  writeContact(podmiot, buyer);
  // Not a local-government unit (JST) nor a VAT-group member (GV): Quire's model has neither.
  leaves(podmiot, { JST: '2', GV: '2' });
}

/** The delivery place (BG-13) as a third party in the recipient role (Podmiot3, Rola 2 "Odbiorca"). */
function writeRecipient(root: Node, p: PreparedEInvoice): void {
  const { delivery } = p.invoice;
  if (!delivery?.name && !delivery?.address) return;
  const podmiot = child(root, 'Podmiot3');
  const id = child(podmiot, 'DaneIdentyfikacyjne');
  leaves(id, { BrakID: '1', Nazwa: delivery.name });
  if (delivery.address && (delivery.address.line1 || delivery.address.city))
    writeAddress(podmiot, delivery.address);
  leaf(podmiot, 'Rola', '2');
}

/**
 * FA(3) addresses are two free lines: street lines joined in AdresL1, postal code and city in AdresL2
 * (how the Ministry's examples write them).
 */
function writeAddress(parent: Node, address: Address): void {
  const adres = child(parent, 'Adres');
  const street = [address.line1, address.line2, address.line3].filter(Boolean).join(', ');
  const town = [address.postal_code, address.city].filter(Boolean).join(' ');
  leaves(adres, {
    KodKraju: address.country_code,
    AdresL1: street || town,
    AdresL2: street ? town : undefined,
  });
}

function writeContact(parent: Node, party: Party): void {
  const { email, phone } = party.contact ?? {};
  if (!email && !phone) return;
  leaves(child(parent, 'DaneKontaktowe'), { Email: email, Telefon: phone });
}

/** Notes as the footer's information texts (Stopka/Informacje, at most three). */
function writeFooter(root: Node, notes: readonly string[]): void {
  if (notes.length === 0) return;
  const stopka = child(root, 'Stopka');
  for (const note of notes) leaf(child(stopka, 'Informacje'), 'StopkaFaktury', note);
}
