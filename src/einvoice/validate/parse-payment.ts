import { PAYMENT_MEANS_CODES } from '../codes.js';
import type { Payment } from '../model.js';
import { isValidBic, isValidIban, normalizeIban } from './bank.js';
import { dropUndefined } from './parse-party.js';
import { code, date, type Fields, text } from './reader.js';

/** Means codes that are credit transfers and need the payee's account (EN 16931 BR-61). */
export const TRANSFER_MEANS: ReadonlySet<string> = new Set(['30', '58']);

/**
 * SPEC "Payment". `invoiceNumber` is the default remittance reference (BT-83). Means code defaults:
 * 58 with an iban, 59 with a debited_iban, else 1.
 */
export function parsePayment(f: Fields, invoiceNumber: string, issueDate: string | undefined): Payment {
  const iban = ibanField(f, 'iban');
  const debitedIban = ibanField(f, 'debited_iban');
  const sentMeans = code(f, 'means_code', PAYMENT_MEANS_CODES, 'UNTDID 4461 payment means');
  const meansBroken = f.issues.hasAt(f.at('means_code'));
  const payment: Payment = {
    means_code: sentMeans ?? (iban ? '58' : debitedIban ? '59' : '1'),
    means_text: text(f, 'means_text'),
    iban,
    bic: bic(f),
    account_name: text(f, 'account_name'),
    reference: text(f, 'reference', { max: 140 }) ?? invoiceNumber.slice(0, 140),
    terms: paymentTerms(f),
    due_date: date(f, 'due_date'),
    mandate_reference: text(f, 'mandate_reference'),
    creditor_id: text(f, 'creditor_id'),
    debited_iban: debitedIban,
  };
  f.finish();
  if (!meansBroken) checkMeans(f, payment);
  if (payment.due_date && issueDate && payment.due_date < issueDate)
    f.issue('due_date', `must not be before the issue date ${issueDate}`);
  return dropUndefined(payment);
}

/** SPEC: 58 and 30 need an iban; 59 needs a mandate_reference. */
function checkMeans(f: Fields, p: Payment): void {
  if (TRANSFER_MEANS.has(p.means_code) && !p.iban && !f.issues.hasAt(f.at('iban')))
    f.issue('iban', `is required with means_code ${p.means_code} (credit transfer)`);
  if (p.means_code === '59' && !p.mandate_reference)
    f.issue('mandate_reference', 'is required with means_code 59 (direct debit)');
}

function ibanField(f: Fields, key: string): string | undefined {
  const raw = text(f, key, { max: 64 });
  if (raw === undefined) return undefined;
  const iban = normalizeIban(raw);
  if (isValidIban(iban)) return iban;
  f.issue(key, 'is not a valid IBAN (country, check digits or length)');
  return undefined;
}

function bic(f: Fields): string | undefined {
  const raw = text(f, 'bic', { max: 20 });
  if (raw === undefined) return undefined;
  const value = raw.replace(/\s+/g, '').toUpperCase();
  if (isValidBic(value)) return value;
  f.issue('bic', 'must be a BIC of 8 or 11 characters');
  return undefined;
}

/** The Skonto line syntax of XRechnung (BR-DE-18). */
export const SKONTO_LINE =
  /^#SKONTO#TAGE=[0-9]+#PROZENT=[0-9]+\.[0-9]{2}(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;

/**
 * SPEC-NOTES "Payment terms text": trim only the whole text, keep inner line breaks, and end a text
 * whose last line is a Skonto line with a line break (BR-DE-18 requires it after the last `#…#`).
 */
function paymentTerms(f: Fields): string | undefined {
  const terms = text(f, 'terms');
  if (terms === undefined) return undefined;
  const lines = terms.split(/\r?\n/);
  const last = lines[lines.length - 1]?.trim() ?? '';
  return last.startsWith('#') ? `${terms}\n` : terms;
}
