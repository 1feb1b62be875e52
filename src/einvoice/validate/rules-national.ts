import type { Invoice, InvoiceTotals, Profile, Standard } from '../model.js';
import type { Issues } from './issues.js';
import { checkFrance } from './rules-fr.js';
import { checkCroatia } from './rules-hr.js';

/** Standards whose BT-23 the standard itself fixes (the Peppol billing process). */
const FIXED_PROCESS: ReadonlySet<Standard> = new Set(['xrechnung-cii', 'xrechnung-ubl', 'peppol']);

/**
 * The fields national rules add (BT-23 billing mode, HR-CIUS issue time and operator, item classification)
 * where a standard cannot carry them, then France's rules for EXTENDED-CTC-FR and Croatia's for HR-CIUS.
 */
export function checkNational(
  invoice: Invoice,
  totals: InvoiceTotals,
  standard: Standard,
  profile: Profile,
  base: string,
  issues: Issues,
): void {
  if (invoice.billing_mode && (FIXED_PROCESS.has(standard) || profile === 'xrechnung'))
    issues.add(
      `${base}.billing_mode`,
      `cannot be set for ${standard} ${profile}: its business process (BT-23) is fixed`,
    );
  if (standard !== 'hr-cius') {
    for (const key of ['issue_time', 'operator'] as const)
      if (invoice[key] !== undefined) issues.add(`${base}.${key}`, 'is used by standard hr-cius only');
    invoice.lines.forEach((line, i) => {
      if (line.classification_code && !line.classification_scheme)
        issues.addOnce(
          `${base}.lines[${i}].classification_scheme`,
          'is required with classification_code (BR-65)',
        );
    });
  }
  if (profile === 'extended-ctc-fr') checkFrance(invoice, totals, base, issues);
  if (standard === 'hr-cius') checkCroatia(invoice, totals, base, issues);
}
