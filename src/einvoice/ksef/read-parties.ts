import { at, type FaNode, text } from './read-xml.js';

/** AdresL1 (street) and AdresL2 ("postal code city") back into the model's address. */
export function readAddress(adres: FaNode | undefined, fallbackCountry = 'PL'): Record<string, unknown> {
  const country = text(adres, 'KodKraju') ?? fallbackCountry;
  const l1 = text(adres, 'AdresL1');
  const l2 = text(adres, 'AdresL2');
  // AdresL2 is "postal code city" when its first word has a digit (00-950 Warszawa, D-10115 Berlin).
  const match = l2?.match(/^(\S*\d\S*)\s+(.+)$/);
  return compact({
    country_code: country,
    line1: l1,
    postal_code: match ? match[1] : undefined,
    city: match ? match[2] : l2,
  });
}

export function readContact(podmiot: FaNode | undefined): Record<string, unknown> | undefined {
  const kontakt = at(podmiot, 'DaneKontaktowe');
  if (!kontakt) return undefined;
  const contact = compact({ email: text(kontakt, 'Email'), phone: text(kontakt, 'Telefon') });
  return Object.keys(contact).length > 0 ? contact : undefined;
}

/** Podmiot2: NIP → PL VAT id, KodUE + NrVatUE → EU VAT id, NrID → id; BrakID → no identifier. */
export function readBuyer(podmiot: FaNode | undefined): Record<string, unknown> {
  const id = at(podmiot, 'DaneIdentyfikacyjne');
  const nip = text(id, 'NIP');
  const eu = text(id, 'KodUE');
  const adres = at(podmiot, 'Adres');
  const country = text(adres, 'KodKraju') ?? text(id, 'KodKraju') ?? eu ?? 'PL';
  return compact({
    name: text(id, 'Nazwa') ?? '',
    vat_id: nip ? `PL${nip}` : eu ? `${eu}${text(id, 'NrVatUE') ?? ''}` : undefined,
    id: text(id, 'NrID'),
    address: adres ? readAddress(adres, country) : { country_code: country === 'EL' ? 'GR' : country },
    contact: readContact(podmiot),
  });
}

function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** Podmiot3 in the recipient role back into the delivery place. */
export function readRecipient(podmiot: FaNode | undefined): Record<string, unknown> | undefined {
  if (!podmiot) return undefined;
  const adres = at(podmiot, 'Adres');
  return compact({
    name: text(podmiot, 'DaneIdentyfikacyjne', 'Nazwa'),
    address: adres ? readAddress(adres) : undefined,
  });
}
