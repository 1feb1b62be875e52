import type { Decimal } from 'decimal.js';
import { type InvoiceTotals, TOTAL_FIELDS } from '../model.js';
import type { Issues } from '../validate/issues.js';

/**
 * SPEC "Totals": when the caller sends `totals`, each sent field must equal ours; a mismatch names the
 * field, the computed value and the sent value (compared as numbers, so 100 equals 100.00).
 */
export function checkSentTotals(
  sent: Partial<Record<keyof InvoiceTotals, Decimal>>,
  computed: InvoiceTotals,
  path: string,
  issues: Issues,
): void {
  for (const field of TOTAL_FIELDS) {
    const value = sent[field];
    if (value === undefined || value.eq(computed[field])) continue;
    issues.add(
      `${path}.${field}`,
      `${field} does not match: computed ${computed[field].toFixed(2)}, sent ${value.toFixed(2)}`,
    );
  }
}
