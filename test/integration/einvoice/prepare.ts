import type { PreparedEInvoice, Profile, Standard } from '../../../src/einvoice/model.js';
import { validateEInvoice } from '../../../src/einvoice/validate/validate.js';

/** The service's own path: validation, defaults and totals from validateEInvoice (one source of truth). */
export function prepareCase(
  standard: Standard,
  profile: Profile,
  invoice: Record<string, unknown>,
): PreparedEInvoice {
  const result = validateEInvoice({ standard, profile, invoice });
  if (!result.ok) {
    throw new Error(
      `${standard}/${profile} ${String(invoice.number)} rejected: ${JSON.stringify(result.error.details)}`,
    );
  }
  return result.value;
}
