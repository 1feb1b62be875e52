import { COUNTRY_CODES, EAS_SCHEMES, ICD_SCHEMES } from '../codes.js';
import type { Address, Contact, Delivery, ElectronicAddress, Party } from '../model.js';
import { code, type Fields, object, optionalObject, requiredText, text } from './reader.js';

/** XRechnung's e-mail pattern (BR-DE-28); a sound check for every contact e-mail. */
const EMAIL = /^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$/;

/** SPEC "Address". */
export function parseAddress(f: Fields): Address {
  const address: Address = {
    country_code: code(f, 'country_code', COUNTRY_CODES, 'ISO 3166-1 alpha-2 country', true) ?? '',
    line1: text(f, 'line1'),
    line2: text(f, 'line2'),
    line3: text(f, 'line3'),
    city: text(f, 'city'),
    postal_code: text(f, 'postal_code'),
    subdivision: text(f, 'subdivision'),
  };
  f.finish();
  return dropUndefined(address);
}

/** SPEC "Party" (seller, buyer); `tax_number` and `legal_info` only for the seller. */
export function parseParty(f: Fields, role: 'seller' | 'buyer'): Party {
  const addressFields = object(f, 'address', true);
  const party: Party = {
    name: requiredText(f, 'name'),
    address: addressFields ? parseAddress(addressFields) : { country_code: '' },
    trading_name: text(f, 'trading_name'),
    vat_id: vatId(f),
    ...schemedId(f, 'id', 'id_scheme'),
    ...schemedId(f, 'legal_registration_id', 'legal_registration_scheme'),
    electronic_address: electronicAddress(f),
    contact: contact(f),
  };
  if (role === 'seller') {
    party.tax_number = text(f, 'tax_number');
    party.legal_info = text(f, 'legal_info');
  }
  f.finish();
  return dropUndefined(party);
}

/** BR-CO-9: a VAT identifier starts with an ISO 3166-1 alpha-2 prefix (EL for Greece). */
function vatId(f: Fields): string | undefined {
  const value = text(f, 'vat_id');
  if (value === undefined) return undefined;
  const prefix = value.slice(0, 2);
  if (/^[A-Z]{2}$/.test(prefix) && (COUNTRY_CODES.has(prefix) || prefix === 'EL') && value.length > 2)
    return value;
  f.issue('vat_id', 'must start with the country prefix, e.g. DE123456789');
  return undefined;
}

/** An identifier with an optional ISO 6523 ICD scheme; a scheme needs its identifier. */
function schemedId(f: Fields, idKey: string, schemeKey: string): Record<string, string | undefined> {
  const id = text(f, idKey);
  const scheme = code(f, schemeKey, ICD_SCHEMES, 'ISO 6523 ICD scheme');
  if (scheme !== undefined && id === undefined && !f.issues.hasAt(f.at(idKey)))
    f.issue(idKey, `is required when ${schemeKey} is given`);
  return { [idKey]: id, [schemeKey]: scheme };
}

/** BT-34/BT-49 with scheme (BR-62/63); SPEC: scheme `EM` by default. */
function electronicAddress(f: Fields): ElectronicAddress | undefined {
  return optionalObject(f, 'electronic_address', (sub) => {
    const value = requiredText(sub, 'value');
    const scheme = code(sub, 'scheme', EAS_SCHEMES, 'EAS electronic address scheme') ?? 'EM';
    if (scheme === 'EM' && value !== '' && !EMAIL.test(value))
      sub.issue('value', 'must be an e-mail address for scheme EM');
    return { value, scheme };
  });
}

function contact(f: Fields): Contact | undefined {
  const result = optionalObject(f, 'contact', (sub) => {
    const found = dropUndefined({
      name: text(sub, 'name'),
      phone: text(sub, 'phone'),
      email: text(sub, 'email'),
    });
    if (found.email !== undefined && !EMAIL.test(found.email))
      sub.issue('email', 'must be an e-mail address');
    return found;
  });
  return result && Object.keys(result).length > 0 ? result : undefined;
}

/** SPEC "invoice.delivery": `{ name, address }`. */
export function parseDelivery(f: Fields): Delivery | undefined {
  const addressFields = object(f, 'address');
  const delivery = dropUndefined({
    name: text(f, 'name'),
    address: addressFields ? parseAddress(addressFields) : undefined,
  });
  f.finish();
  return Object.keys(delivery).length > 0 ? delivery : undefined;
}

/** Optional fields that were not sent are left out of the model, not present as undefined. */
export function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
