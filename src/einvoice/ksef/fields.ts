import type { KsefInvoiceFields } from '../model.js';
import { dropUndefined } from '../validate/parse-party.js';
import { decimal, type Fields, text } from '../validate/reader.js';

/** NrKSeF as the FA(3) schema spells it (TNumerKSeF): issuer NIP, date, two hex blocks, a check pair. */
const KSEF_NUMBER =
  /^([1-9]((\d[1-9])|([1-9]\d))\d{7}|M\d{9}|[A-Z]{3}\d{7})-(20[2-9]\d|2[1-9]\d{2}|[3-9]\d{3})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])-([0-9A-F]{6})-?([0-9A-F]{6})-([0-9A-F]{2})$/;

/** Extension `invoice.ksef` (only with `standard: "ksef"`): the FA(3) fields EN 16931 has no term for. */
export function parseKsefFields(f: Fields): KsefInvoiceFields {
  const result: KsefInvoiceFields = dropUndefined({
    exchange_rate: decimal(f, 'exchange_rate', { maxDp: 6, sign: 'positive' }),
    place_of_issue: text(f, 'place_of_issue', { max: 256 }),
    cash_accounting: flag(f, 'cash_accounting'),
    self_billing: flag(f, 'self_billing'),
    split_payment: flag(f, 'split_payment'),
    corrected_ksef_number: ksefNumber(f),
    correction_reason: text(f, 'correction_reason', { max: 256 }),
    correction_type: correctionType(f),
  });
  f.finish();
  return result;
}

/** A marker that is only written when true: false and absent mean the same. */
function flag(f: Fields, key: string): true | undefined {
  const value = f.get(key);
  if (value === undefined || value === false) return undefined;
  if (value === true) return true;
  f.issue(key, 'must be true or false');
  return undefined;
}

function ksefNumber(f: Fields): string | undefined {
  const value = text(f, 'corrected_ksef_number', { max: 40 });
  if (value === undefined || KSEF_NUMBER.test(value)) return value;
  f.issue(
    'corrected_ksef_number',
    'must be a KSeF number as KSeF assigned it (e.g. 5265877635-20260115-0A1B2C3D4E5F-7A)',
  );
  return undefined;
}

function correctionType(f: Fields): 1 | 2 | 3 | undefined {
  const value = f.get('correction_type');
  if (value === undefined) return undefined;
  if (value === 1 || value === 2 || value === 3) return value;
  f.issue(
    'correction_type',
    'must be 1 (in the period of the corrected invoice), 2 (in the period of the correction) or 3 (other)',
  );
  return undefined;
}
