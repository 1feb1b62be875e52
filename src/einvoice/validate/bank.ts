import { COUNTRY_CODES } from '../codes.js';

/** Blanks removed, upper case: how IBANs are compared and written. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** ISO 13616: country, 2 check digits, up to 30 alphanumerics, and mod-97 of the rearranged number = 1. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) || !COUNTRY_CODES.has(iban.slice(0, 2))) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

/** ISO 9362: 4 bank letters, 2 country letters, 2 location chars, optional 3 branch chars. */
export function isValidBic(bic: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic) && COUNTRY_CODES.has(bic.slice(4, 6));
}
