import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../shared/package-root.js';

/**
 * Code lists the e-invoice validator checks against. The lists are data (assets/code-lists.json, keyed by
 * the EN 16931 rule that names each list), copied from the official CEN schematron
 * (tools/einvoice-validate/artefacts/en16931, BR-CL-*), so an accepted code always passes it. Read from the
 * source tree's place in every layout, as the other assets are: the server bundle copies no assets.
 */
const CODE_LISTS = JSON.parse(
  readFileSync(path.join(packageRoot(), 'src', 'einvoice', 'assets', 'code-lists.json'), 'utf8'),
) as Record<string, string[] | undefined>;

function codeList(rule: string): ReadonlySet<string> {
  const codes = CODE_LISTS[rule];
  if (codes === undefined) throw new Error(`The e-invoice code lists have no ${rule}.`);
  return new Set(codes);
}

/** UNTDID 1001 invoice type codes. */
export const INVOICE_TYPE_CODES = codeList('BR-CL-01');

/** UNTDID 1001 credit-note codes: written as a UBL CreditNote document (EN 16931-3-2). */
export const CREDIT_NOTE_TYPE_CODES: ReadonlySet<string> = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);

/** ISO 4217 currency codes. */
export const CURRENCY_CODES = codeList('BR-CL-04');

/** ISO 3166-1 alpha-2 country codes. */
export const COUNTRY_CODES = codeList('BR-CL-14');

/** UNTDID 4461 payment means codes. */
export const PAYMENT_MEANS_CODES = codeList('BR-CL-16');

/** UNTDID 5189 allowance reason codes. */
export const ALLOWANCE_REASON_CODES = codeList('BR-CL-19');

/** UNTDID 7161 charge reason codes. */
export const CHARGE_REASON_CODES = codeList('BR-CL-20');

/** ISO 6523 ICD identifier schemes. */
export const ICD_SCHEMES = codeList('BR-CL-10');

/** VATEX exemption reason codes. */
export const VATEX_CODES = codeList('BR-CL-22');

/** UN/ECE Rec. 20 and 21 unit codes. */
export const UNIT_CODES = codeList('BR-CL-23');

/** CEF EAS electronic address schemes. */
export const EAS_SCHEMES = codeList('BR-CL-25');

/** Default exemption text and VATEX code (SPEC "tax_exemptions": AE, K, G, O get them by default). */
export const DEFAULT_EXEMPTIONS = {
  AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' },
  K: { reason: 'Intra-Community supply', code: 'VATEX-EU-IC' },
  G: { reason: 'Export outside the EU', code: 'VATEX-EU-G' },
  O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' },
} as const;
