import type { Invoice, InvoiceTotals, Profile } from '../model.js';
import type { Issues } from './issues.js';

const ROUNDING_PROFILES: ReadonlySet<Profile> = new Set([
  'en16931',
  'extended',
  'xrechnung',
  'extended-ctc-fr',
]);

/**
 * SPEC "invoice": prepaid_amount is not in the minimum profile; rounding_amount only in en16931,
 * extended and xrechnung (the other profiles' XML has no element for it, so a sent non-zero value
 * would silently change the amount due).
 */
export function checkProfileFields(invoice: Invoice, profile: Profile, base: string, issues: Issues): void {
  if (profile === 'minimum' && !invoice.prepaid_amount.isZero())
    issues.add(`${base}.prepaid_amount`, 'is not available in the minimum profile');
  if (!ROUNDING_PROFILES.has(profile) && !invoice.rounding_amount.isZero())
    issues.add(
      `${base}.rounding_amount`,
      `is not available in the ${profile} profile (only en16931, extended, xrechnung)`,
    );
}

/** BR-CO-25 (SPEC "Payment"): from basic-wl up, an amount due needs a due date or payment terms. */
export function checkAmountDue(
  invoice: Invoice,
  totals: InvoiceTotals,
  profile: Profile,
  base: string,
  issues: Issues,
): void {
  if (profile === 'minimum' || !totals.due_payable.gt(0)) return;
  if (invoice.payment?.due_date || invoice.payment?.terms) return;
  if (issues.hasAt(`${base}.payment.due_date`) || issues.hasAt(`${base}.payment.terms`)) return;
  issues.add(
    `${base}.payment.due_date`,
    `due_date or terms is required when an amount is due (${totals.due_payable.toFixed(2)})`,
  );
}
