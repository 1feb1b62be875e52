import addressparser from 'nodemailer/lib/addressparser';
import { AppError } from '../shared/errors.js';
import type { EmailRequest } from './delivery.js';

/**
 * A bare addr-spec (local@domain): no quoting, comments, angle brackets, groups or lists, so what the
 * limits and the suppression list count is exactly the one mailbox the email goes to.
 */
const ADDR_SPEC = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

/**
 * The one plain address `value` is, or `invalid_request` naming `field`. nodemailer's own parser reads it
 * the way the sender will: a value it would read as a display name, a comment, a group or several
 * mailboxes is refused rather than quietly reduced to one of them.
 */
export function plainAddress(value: string, field: string): string {
  const given = value.trim();
  if (!isPlainAddress(given)) {
    throw new AppError(
      'invalid_request',
      `"${field}" must be one plain email address such as name@example.com: no display name, <angle brackets>, (comments), group or list of addresses.`,
      { field },
    );
  }
  return given;
}

/** Whether `value` (trimmed) is exactly one bare addr-spec as nodemailer reads it. */
export function isPlainAddress(value: string): boolean {
  const parsed = addressparser(value);
  const only = parsed.length === 1 ? parsed[0] : undefined;
  return (
    only !== undefined &&
    'address' in only &&
    only.name === '' &&
    only.address === value &&
    ADDR_SPEC.test(value)
  );
}

/** The address the per-address limit and the suppression list count: addresses differ only in case there. */
export function addressKey(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * `deliver` with its addresses checked and normalised: `to` lower-cased (as it is counted and sent),
 * `reply_to` as given. `at` is where `deliver` sits in the request, for `details.field`.
 */
export function plainDeliver<T extends { email?: EmailRequest } | undefined>(deliver: T, at: string): T {
  const email = deliver?.email;
  if (!email) return deliver;
  return {
    ...deliver,
    email: {
      ...email,
      to: addressKey(plainAddress(email.to, `${at}.email.to`)),
      ...(email.reply_to === undefined
        ? {}
        : { reply_to: plainAddress(email.reply_to, `${at}.email.reply_to`) }),
    },
  };
}
