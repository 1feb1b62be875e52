import { CREDIT_NOTE_TYPE_CODES } from '../codes.js';
import type { Invoice, InvoiceTotals, Party } from '../model.js';
import type { Issues } from './issues.js';
import { isAbn, isBeEnterprise, isGln, isNoOrg, isSeOrg } from './peppol-identifiers.js';
import { checkPeppolNational } from './rules-peppol-national.js';
import { checkXRechnung, PEPPOL_GERMAN_RULES } from './rules-xrechnung.js';

/**
 * Peppol BIS Billing 3.0 (OpenPeppol's PEPPOL-EN16931-UBL.sch, release 3.0.21, kept in
 * tools/einvoice-validate/artefacts/peppol/3.0.21): the rules an invoice made from Quire's model can break, checked
 * before anything is written so a request fails with `invalid_e_invoice` instead of producing XML a Peppol
 * access point rejects. Rule ids are in every message so a user can look them up.
 */

/** PEPPOL-EN16931-P0100 (invoice) and P0101 (credit note) for billing process 01. */
const PEPPOL_INVOICE_TYPES = new Set(
  '71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877'.split(
    ' ',
  ),
);
const PEPPOL_CREDIT_NOTE_TYPES = new Set(['381', '396', '81', '83', '532']);

/**
 * PEPPOL-EN16931-CL008: the Peppol Electronic Address Identifier Scheme list of release 3.0.21 (its `eaid`
 * list: 3.0.21 dropped 0037 0147 0154 0158 0170 0177 0193 0194 0202 0203 0205 0212 0213 0215 0217 and
 * added 0242 0244 0245 0246 0248). Narrower than the EN 16931 EAS list: no `EM` (e-mail), no AN/AQ/AS/AU.
 */
const PEPPOL_EAS = new Set(
  `0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 0198
  0199 0200 0201 0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 9910
  9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936
  9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959`.split(
    /\s+/,
  ),
);

/** PEPPOL-EN16931-CL007: ISO 4217 as Peppol 3.0.21 lists it; these EN 16931 codes are not on it. */
const NON_PEPPOL_CURRENCIES = new Set(['STD']);

/** PEPPOL-EN16931-P0104…P0111: a VATEX code names the one VAT category it may be used with. */
const VATEX_CATEGORY: Readonly<Record<string, { category: string; rule: string }>> = {
  'VATEX-EU-G': { category: 'G', rule: 'P0104' },
  'VATEX-EU-O': { category: 'O', rule: 'P0105' },
  'VATEX-EU-IC': { category: 'K', rule: 'P0106' },
  'VATEX-EU-AE': { category: 'AE', rule: 'P0107' },
  'VATEX-EU-D': { category: 'E', rule: 'P0108' },
  'VATEX-EU-F': { category: 'E', rule: 'P0109' },
  'VATEX-EU-I': { category: 'E', rule: 'P0110' },
  'VATEX-EU-J': { category: 'E', rule: 'P0111' },
};

type Add = (path: string, message: string) => void;

/** Every Peppol rule of this file; `base` is `e_invoice.invoice`. */
export function checkPeppol(invoice: Invoice, totals: InvoiceTotals, base: string, issues: Issues): void {
  const add: Add = (path, message) => issues.addOnce(`${base}.${path}`, message);
  const germanPair = country(invoice.seller) === 'DE' && country(invoice.buyer) === 'DE';
  checkDocument(invoice, germanPair, add);
  for (const role of ['seller', 'buyer'] as const) {
    if (!issues.hasExactly(`${base}.${role}`)) checkParty(invoice[role], role, add);
  }
  checkPayment(invoice, add);
  checkPeriods(invoice, add);
  checkExemptionCodes(invoice, add);
  if (country(invoice.seller) === 'NL') checkNetherlands(invoice, totals, add);
  checkPeppolNational(invoice, totals, add);
  // OpenPeppol's "german-rules": a German seller invoicing a German buyer follows XRechnung's rules.
  if (germanPair) checkXRechnung(invoice, base, issues, PEPPOL_GERMAN_RULES);
}

function country(party: Party): string {
  return party.address.country_code;
}

function checkDocument(invoice: Invoice, germanPair: boolean, add: Add): void {
  if (!invoice.buyer_reference && !invoice.purchase_order_reference)
    add(
      'buyer_reference',
      'buyer_reference or purchase_order_reference is required for Peppol BIS (PEPPOL-EN16931-R003)',
    );
  if (invoice.notes.length > 1 && !germanPair)
    add(
      'notes',
      'Peppol BIS allows one note unless seller and buyer are both in Germany; join them into one (PEPPOL-EN16931-R002)',
    );
  const type = invoice.type_code;
  const creditNote = CREDIT_NOTE_TYPE_CODES.has(type);
  const allowed = creditNote ? PEPPOL_CREDIT_NOTE_TYPES : PEPPOL_INVOICE_TYPES;
  if (!allowed.has(type))
    add(
      'type_code',
      `${type} is not allowed by Peppol BIS Billing; use an invoice code (e.g. 380) or a credit note code (${[...PEPPOL_CREDIT_NOTE_TYPES].join(', ')}) (PEPPOL-EN16931-${creditNote ? 'P0101' : 'P0100'})`,
    );
  else if ((type === '326' || type === '384') && !germanPair)
    add(
      'type_code',
      `${type} is only allowed when seller and buyer are both in Germany (PEPPOL-EN16931-P0112)`,
    );
  if (NON_PEPPOL_CURRENCIES.has(invoice.currency))
    add('currency', `${invoice.currency} is not on Peppol's ISO 4217 list (PEPPOL-EN16931-CL007)`);
}

/** BT-34/BT-49 (R010/R020, CL008) and the identifier formats of PEPPOL-COMMON-R040…R050. */
function checkParty(party: Party, role: 'seller' | 'buyer', add: Add): void {
  const rule = role === 'seller' ? 'PEPPOL-EN16931-R020' : 'PEPPOL-EN16931-R010';
  const address = party.electronic_address;
  if (!address) {
    add(
      `${role}.electronic_address`,
      `is required for Peppol BIS: the ${role}'s Peppol participant identifier { value, scheme } (scheme from the EAS list, e.g. 0088 GLN, 0208 Belgian enterprise number, 9930 German VAT number) becomes its EndpointID (${rule})`,
    );
  } else if (!PEPPOL_EAS.has(address.scheme)) {
    add(
      `${role}.electronic_address.scheme`,
      `${address.scheme} is not a Peppol electronic address scheme (e-mail addresses cannot be Peppol endpoints); use the ${role}'s Peppol participant identifier, e.g. 0088 GLN, 0208 Belgian enterprise number, 9930 German VAT number (PEPPOL-EN16931-CL008)`,
    );
  } else {
    checkIdentifier(address.value, address.scheme, `${role}.electronic_address.value`, add);
  }
  if (party.id && party.id_scheme) checkIdentifier(party.id, party.id_scheme, `${role}.id`, add);
  if (party.legal_registration_id && party.legal_registration_scheme)
    checkIdentifier(
      party.legal_registration_id,
      party.legal_registration_scheme,
      `${role}.legal_registration_id`,
      add,
    );
}

interface IdentifierRule {
  rule: string;
  what: string;
  valid: (value: string) => boolean;
}

/** PEPPOL-COMMON-R040…R053 (the ones flagged fatal), by ICD scheme. */
const IDENTIFIER_RULES: Readonly<Record<string, IdentifierRule>> = {
  '0088': { rule: 'PEPPOL-COMMON-R040', what: 'a GLN (digits with a valid GS1 check digit)', valid: isGln },
  '0192': {
    rule: 'PEPPOL-COMMON-R041',
    what: 'a Norwegian organisation number (9 digits, mod 11)',
    valid: isNoOrg,
  },
  '0184': {
    rule: 'PEPPOL-COMMON-R042',
    what: 'a Danish CVR number (8 digits, optionally prefixed DK)',
    valid: (v) => /^(DK)?[0-9]{8}$/.test(v),
  },
  '0208': {
    rule: 'PEPPOL-COMMON-R043',
    what: 'a Belgian enterprise number (10 digits, mod 97)',
    valid: isBeEnterprise,
  },
  '0007': {
    rule: 'PEPPOL-COMMON-R049',
    what: 'a Swedish organisation number (10 digits, Luhn)',
    valid: isSeOrg,
  },
  '0151': { rule: 'PEPPOL-COMMON-R050', what: 'an Australian Business Number (11 digits)', valid: isAbn },
  '0096': {
    rule: 'PEPPOL-COMMON-R052',
    what: 'a Danish P number (10 digits)',
    valid: (v) => /^[0-9]{10}$/.test(v),
  },
  '0198': {
    rule: 'PEPPOL-COMMON-R053',
    what: 'a Danish SE number (DK and 8 digits)',
    valid: (v) => /^DK[0-9]{8}$/.test(v),
  },
};

function checkIdentifier(value: string, scheme: string, path: string, add: Add): void {
  const rule = IDENTIFIER_RULES[scheme];
  if (rule && !rule.valid(value)) add(path, `must be ${rule.what} for scheme ${scheme} (${rule.rule})`);
}

/** PEPPOL-EN16931-R061: a direct debit (49, 59) carries its mandate reference. */
function checkPayment(invoice: Invoice, add: Add): void {
  const p = invoice.payment;
  if (p && (p.means_code === '49' || p.means_code === '59') && !p.mandate_reference)
    add(
      'payment.mandate_reference',
      `is required with means_code ${p.means_code} for Peppol BIS (PEPPOL-EN16931-R061)`,
    );
}

/** PEPPOL-EN16931-R110/R111: line periods lie within the invoice's billing period. */
function checkPeriods(invoice: Invoice, add: Add): void {
  const period = invoice.billing_period;
  if (!period) return;
  invoice.lines.forEach((line, i) => {
    if (line.period?.start && line.period.start < period.start)
      add(
        `lines[${i}].period.start`,
        `must not be before billing_period.start ${period.start} for Peppol BIS (PEPPOL-EN16931-R110)`,
      );
    if (line.period?.end && line.period.end > period.end)
      add(
        `lines[${i}].period.end`,
        `must not be after billing_period.end ${period.end} for Peppol BIS (PEPPOL-EN16931-R111)`,
      );
  });
}

/** PEPPOL-EN16931-P0104…P0111: VATEX-EU-G only with G, -IC only with K, -D/-F/-I/-J only with E, … */
function checkExemptionCodes(invoice: Invoice, add: Add): void {
  for (const [category, exemption] of Object.entries(invoice.tax_exemptions)) {
    const code = exemption?.code?.toUpperCase();
    const required = code ? VATEX_CATEGORY[code] : undefined;
    if (required && required.category !== category)
      add(
        `tax_exemptions.${category}.code`,
        `${exemption?.code} may only be used with VAT category ${required.category} in Peppol BIS (PEPPOL-EN16931-${required.rule})`,
      );
  }
}

/** OpenPeppol's NL-R-* rules for a seller in the Netherlands (the Dutch NLCIUS inside Peppol BIS). */
function checkNetherlands(invoice: Invoice, totals: InvoiceTotals, add: Add): void {
  const { seller, buyer } = invoice;
  const creditNote = CREDIT_NOTE_TYPE_CODES.has(invoice.type_code);
  if (creditNote && !invoice.preceding_invoice)
    add('preceding_invoice', 'is required on a credit note from a seller in the Netherlands (NL-R-001)');
  streetCityPostcode(seller, 'seller', 'NL-R-002', add);
  dutchLegalId(seller, 'seller', 'NL-R-003', add);
  const payable = totals.due_payable;
  const paymentDue = creditNote ? payable.lt(0) : payable.gt(0);
  if (paymentDue && !invoice.payment)
    add('payment', 'is required when a seller in the Netherlands is to be paid (NL-R-007)');
  invoice.lines.forEach((line, i) => {
    if (line.order_line_reference && !invoice.purchase_order_reference)
      add(
        `lines[${i}].order_line_reference`,
        'needs purchase_order_reference from a seller in the Netherlands (NL-R-009)',
      );
  });
  if (country(buyer) !== 'NL') return;
  streetCityPostcode(buyer, 'buyer', 'NL-R-004', add);
  dutchLegalId(buyer, 'buyer', 'NL-R-005', add);
  const means = invoice.payment?.means_code;
  if (means && !['30', '48', '49', '57', '58', '59'].includes(means))
    add(
      'payment.means_code',
      'must be one of 30, 48, 49, 57, 58, 59 between Dutch seller and buyer (NL-R-008)',
    );
}

function streetCityPostcode(party: Party, role: string, rule: string, add: Add): void {
  for (const key of ['line1', 'city', 'postal_code'] as const)
    if (!party.address[key])
      add(`${role}.address.${key}`, `is required for a party in the Netherlands on Peppol BIS (${rule})`);
}

function dutchLegalId(party: Party, role: string, rule: string, add: Add): void {
  const scheme = party.legal_registration_scheme;
  if (party.legal_registration_id && scheme !== '0106' && scheme !== '0190')
    add(
      `${role}.legal_registration_scheme`,
      `must be 0106 (KvK) or 0190 (OIN) for a party in the Netherlands on Peppol BIS (${rule})`,
    );
}
