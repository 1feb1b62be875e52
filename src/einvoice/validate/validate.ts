import { AppError } from '../../shared/errors.js';
import { checkKsef } from '../ksef/rules.js';
import {
  DEFAULT_PROFILE,
  PROFILES,
  PROFILES_BY_STANDARD,
  type PreparedEInvoice,
  type Profile,
  STANDARDS,
  type Standard,
} from '../model.js';
import { checkSentTotals } from '../totals/check.js';
import { computeTotals, computeVatBreakdown } from '../totals/compute.js';
import { Issues, invalidEInvoice } from './issues.js';
import { parseInvoice } from './parse-invoice.js';
import { Fields, isPlainObject } from './reader.js';
import { checkNational } from './rules-national.js';
import { checkPeppol } from './rules-peppol.js';
import { checkAmountDue, checkProfileFields } from './rules-profile.js';
import { checkSellerIdentification, checkVatCategories, resolveExemptions, vatUses } from './rules-vat.js';
import { checkXRechnung } from './rules-xrechnung.js';

export type EInvoiceValidation = { ok: true; value: PreparedEInvoice } | { ok: false; error: AppError };

const ROOT = 'e_invoice';
const BASE = 'e_invoice.invoice';
/** Inputs of the totals: a sent `totals` is only compared when none of them is broken. */
const TOTAL_INPUTS = ['lines', 'allowances', 'charges', 'prepaid_amount', 'rounding_amount'];

/**
 * Validates the `e_invoice` field of POST /pdf (SPEC "E-invoices") and prepares everything the XML
 * writers and the invoice template need. Pure: no I/O. An unknown standard/profile or a missing
 * `invoice` is `invalid_request`; every other problem is collected into one `invalid_e_invoice`.
 */
export function validateEInvoice(input: unknown): EInvoiceValidation {
  if (!isPlainObject(input)) return request('e_invoice must be an object.', ROOT);
  const issues = new Issues();
  const envelope = new Fields(input, ROOT, issues);
  const chosen = chooseStandardAndProfile(envelope);
  if (chosen instanceof AppError) return { ok: false, error: chosen };
  const { standard, profile } = chosen;
  if (envelope.get('invoice') === undefined)
    return request('e_invoice.invoice is required.', `${ROOT}.invoice`);
  const invoiceFields = Fields.of(envelope.get('invoice'), BASE, issues);
  envelope.finish();
  if (!invoiceFields) return { ok: false, error: invalidEInvoice(issues.list) };
  const prepared = prepare(invoiceFields, standard, profile, issues);
  return issues.count > 0
    ? { ok: false, error: invalidEInvoice(issues.list) }
    : { ok: true, value: prepared };
}

function request(message: string, field: string): EInvoiceValidation {
  return { ok: false, error: new AppError('invalid_request', message, { field }) };
}

function chooseStandardAndProfile(f: Fields): { standard: Standard; profile: Profile } | AppError {
  const standard = f.get('standard');
  if (!STANDARDS.includes(standard as Standard)) {
    const what = standard === undefined ? 'is required' : 'is not a known standard';
    return new AppError(
      'invalid_request',
      `e_invoice.standard ${what}; use one of ${STANDARDS.join(', ')}.`,
      {
        field: `${ROOT}.standard`,
      },
    );
  }
  const std = standard as Standard;
  const profile = f.get('profile') ?? DEFAULT_PROFILE[std];
  if (!PROFILES.includes(profile as Profile)) {
    return new AppError(
      'invalid_request',
      `e_invoice.profile is not a known profile; use one of ${PROFILES.join(', ')}.`,
      {
        field: `${ROOT}.profile`,
      },
    );
  }
  // SPEC: a known profile the standard does not offer is an e-invoice issue, not a malformed request.
  if (!PROFILES_BY_STANDARD[std].includes(profile as Profile))
    f.issue(
      'profile',
      `${String(profile)} is not offered by ${std}; use one of ${PROFILES_BY_STANDARD[std].join(', ')}`,
    );
  return { standard: std, profile: profile as Profile };
}

function prepare(f: Fields, standard: Standard, profile: Profile, issues: Issues): PreparedEInvoice {
  const { invoice, sentExemptions, sentTotals } = parseInvoice(f);
  const uses = vatUses(invoice, BASE, issues);
  checkVatCategories(invoice, uses, BASE, issues);
  checkSellerIdentification(invoice, profile, BASE, issues);
  const used = new Set(uses.map((u) => u.vat.category));
  invoice.tax_exemptions = resolveExemptions(used, sentExemptions, BASE, issues);
  const { lines, allowances, charges } = invoice;
  const vatBreakdown = computeVatBreakdown(lines, allowances, charges, invoice.tax_exemptions);
  const totals = computeTotals(
    lines,
    allowances,
    charges,
    vatBreakdown,
    invoice.prepaid_amount,
    invoice.rounding_amount,
  );
  checkProfileFields(invoice, profile, BASE, issues);
  if (profile === 'xrechnung') checkXRechnung(invoice, BASE, issues);
  if (standard === 'peppol') checkPeppol(invoice, totals, BASE, issues);
  checkNational(invoice, totals, standard, profile, BASE, issues);
  checkAmountDue(invoice, totals, profile, BASE, issues);
  checkKsef(invoice, standard, BASE, issues);
  if (sentTotals && !TOTAL_INPUTS.some((k) => issues.hasAt(`${BASE}.${k}`)))
    checkSentTotals(sentTotals, totals, `${BASE}.totals`, issues);
  return {
    standard,
    profile,
    invoice,
    totals,
    vatBreakdown,
    lines,
    docAllowances: allowances,
    docCharges: charges,
  };
}
