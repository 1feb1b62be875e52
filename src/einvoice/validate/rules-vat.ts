import { DEFAULT_EXEMPTIONS } from '../codes.js';
import type { Invoice, Profile, TaxExemption, Vat, VatCategory } from '../model.js';
import type { Issues } from './issues.js';

/** Where a VAT category is used: a line or a document allowance/charge (`path` of its `vat`). */
export interface VatUse {
  vat: Vat;
  path: string;
}

/** Every VAT use whose `vat` parsed cleanly (broken ones already carry an issue). */
export function vatUses(invoice: Invoice, base: string, issues: Issues): VatUse[] {
  const uses: VatUse[] = [
    ...invoice.lines.map((l, i) => ({ vat: l.vat, path: `${base}.lines[${i}].vat` })),
    ...invoice.allowances.map((a, i) => ({ vat: a.vat, path: `${base}.allowances[${i}].vat` })),
    ...invoice.charges.map((c, i) => ({ vat: c.vat, path: `${base}.charges[${i}].vat` })),
  ];
  return uses.filter((u) => !issues.hasAt(u.path) && !issues.hasAt(u.path.slice(0, -'.vat'.length)));
}

/** Categories that need the seller's VAT id or tax number (BR-S-02, BR-Z-02, BR-E-02, BR-AE-02, BR-AF-02, BR-AG-02). */
const NEEDS_SELLER_TAX_ID: ReadonlySet<VatCategory> = new Set(['S', 'Z', 'E', 'AE', 'L', 'M']);

/**
 * SPEC "VAT categories" party requirements, plus the official rules SPEC-NOTES adds: K and G need the
 * seller's VAT id (BR-IC-02, BR-G-02); O allows no seller or buyer VAT id (BR-O-02) and no other category.
 */
export function checkVatCategories(
  invoice: Invoice,
  uses: readonly VatUse[],
  base: string,
  issues: Issues,
): void {
  const used = new Set(uses.map((u) => u.vat.category));
  const { seller, buyer } = invoice;
  const sellerOk = !issues.hasExactly(`${base}.seller`);
  const buyerOk = !issues.hasExactly(`${base}.buyer`);
  if (used.has('O') && used.size > 1) {
    const others = [...used].filter((c) => c !== 'O').join(', ');
    for (const u of uses.filter((x) => x.vat.category === 'O'))
      issues.add(
        `${u.path}.category`,
        `category O (not subject to VAT) cannot be mixed with other categories (${others})`,
      );
  }
  const taxIdCategory = [...used].find((c) => NEEDS_SELLER_TAX_ID.has(c));
  if (sellerOk && taxIdCategory && !seller.vat_id && !seller.tax_number)
    issues.addOnce(
      `${base}.seller.vat_id`,
      `vat_id or tax_number is required for VAT category ${taxIdCategory}`,
    );
  for (const c of ['K', 'G'] as const) {
    if (sellerOk && used.has(c) && !seller.vat_id)
      issues.addOnce(`${base}.seller.vat_id`, `is required for VAT category ${c}`);
  }
  if (buyerOk && used.has('AE') && !buyer.vat_id && !buyer.legal_registration_id)
    issues.add(
      `${base}.buyer.vat_id`,
      'vat_id or legal_registration_id is required for VAT category AE (reverse charge)',
    );
  if (used.has('K')) checkIntraCommunity(invoice, base, issues, buyerOk);
  if (used.has('O') && used.size === 1) {
    if (sellerOk && seller.vat_id)
      issues.addOnce(`${base}.seller.vat_id`, 'must be left out when no line is subject to VAT (category O)');
    if (buyerOk && buyer.vat_id)
      issues.addOnce(`${base}.buyer.vat_id`, 'must be left out when no line is subject to VAT (category O)');
  }
}

/** Category K: buyer VAT id (BR-IC-02), delivery date or period (BR-IC-11), deliver-to country (BR-IC-12). */
function checkIntraCommunity(invoice: Invoice, base: string, issues: Issues, buyerOk: boolean): void {
  if (buyerOk && !invoice.buyer.vat_id)
    issues.addOnce(`${base}.buyer.vat_id`, 'is required for VAT category K (intra-community supply)');
  if (!invoice.delivery_date && !invoice.billing_period && !issues.hasAt(`${base}.billing_period`))
    issues.addOnce(`${base}.delivery_date`, 'delivery_date or billing_period is required for VAT category K');
  if (!invoice.delivery?.address?.country_code && !issues.hasAt(`${base}.delivery`))
    issues.add(
      `${base}.delivery.address.country_code`,
      'is required for VAT category K (intra-community supply)',
    );
}

/**
 * BR-CO-26 (SPEC-NOTES "Seller identifier"): the seller needs an identifier, a legal registration id
 * or a VAT id; MINIMUM cannot carry the identifier (BT-29), so there only the latter two count.
 */
export function checkSellerIdentification(
  invoice: Invoice,
  profile: Profile,
  base: string,
  issues: Issues,
): void {
  const s = invoice.seller;
  if (issues.hasExactly(`${base}.seller`)) return;
  if (profile === 'minimum' && !s.legal_registration_id && !s.vat_id)
    issues.add(
      `${base}.seller.legal_registration_id`,
      'legal_registration_id or vat_id is required (EN 16931 BR-CO-26)',
    );
  else if (!s.id && !s.legal_registration_id && !s.vat_id)
    issues.add(
      `${base}.seller.legal_registration_id`,
      'id, legal_registration_id or vat_id is required (EN 16931 BR-CO-26)',
    );
}

/**
 * SPEC "tax_exemptions": E needs a reason or code (BR-E-10); AE, K, G, O get the standard text and VATEX
 * code, sent fields replacing them. Only categories the invoice uses are kept.
 */
export function resolveExemptions(
  used: ReadonlySet<VatCategory>,
  sent: Partial<Record<VatCategory, TaxExemption>>,
  base: string,
  issues: Issues,
): Partial<Record<VatCategory, TaxExemption>> {
  const result: Partial<Record<VatCategory, TaxExemption>> = {};
  const e = sent.E;
  if (used.has('E')) {
    if (e?.reason || e?.code) result.E = e;
    else if (!issues.hasAt(`${base}.tax_exemptions.E`))
      issues.add(`${base}.tax_exemptions.E`, 'a reason or code is required for VAT category E (exempt)');
  }
  for (const c of ['AE', 'K', 'G', 'O'] as const) {
    if (used.has(c)) result[c] = { ...DEFAULT_EXEMPTIONS[c], ...sent[c] };
  }
  return result;
}
