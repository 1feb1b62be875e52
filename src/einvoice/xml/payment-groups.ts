import type { Payment } from '../model.js';

/** UNTDID 4461 direct debit codes (49 direct debit, 59 SEPA direct debit). */
const DIRECT_DEBIT = new Set(['49', '59']);
/** UNTDID 4461 card codes (48 bank card, 54 credit card, 55 debit card). */
const CARD = new Set(['48', '54', '55']);

/**
 * Which payment groups a means code may carry: the payee account (BG-17) is for transfers, the
 * mandate and debited account (BG-19) for direct debits. XRechnung enforces this (BR-DE-23..25) and
 * EN 16931 defines the groups that way, so a field that does not belong to the means is not written.
 */
export function paymentGroups(pay: Payment): { creditTransfer: boolean; directDebit: boolean } {
  const directDebit = DIRECT_DEBIT.has(pay.means_code);
  return {
    creditTransfer: !directDebit && !CARD.has(pay.means_code) && Boolean(pay.iban),
    directDebit: directDebit && Boolean(pay.mandate_reference || pay.debited_iban || pay.creditor_id),
  };
}
