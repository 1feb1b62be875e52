import { type Transition, transitionGuards } from '../shared/transitions.js';

/**
 * An email delivery's states and the moves between them (spec: Email delivery status), in one table as
 * src/documents/states.ts. EmailDelivery (delivery.ts) writes a new row in the state its checks decide; the
 * send job (send-job.ts) moves a queued one on, its update guarded by the table.
 *
 *   (new) ─queue─► queued ─send─► sent
 *                    └────fail──► failed        refused for good, file gone, or attempts used up
 *   (new) ─refuse──► failed                     not stored, or over the limits while it waited
 *   (new) ─suppress─► suppressed                the address refused an earlier email for good
 */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'suppressed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Nothing moves an email out of these. */
export const FINAL_EMAIL_STATUSES = [
  'sent',
  'failed',
  'suppressed',
] as const satisfies readonly EmailStatus[];

export const TRANSITIONS = {
  queue: { from: [null], to: 'queued', by: 'EmailDelivery.queue, with its send job' },
  refuse: { from: [null], to: 'failed', by: 'EmailDelivery.queue: nothing to attach, or over the limits' },
  suppress: { from: [null], to: 'suppressed', by: 'EmailDelivery.queue: the address is suppressed' },
  send: { from: ['queued'], to: 'sent', by: 'the send job, once the SMTP server took it' },
  fail: {
    from: ['queued'],
    to: 'failed',
    by: 'the send job: a permanent refusal, the file gone, or its last attempt failed',
  },
} as const satisfies Record<string, Transition<EmailStatus>>;

export type EmailTransition = keyof typeof TRANSITIONS;

export const { movableFrom, mayMove } = transitionGuards<EmailStatus, EmailTransition>(TRANSITIONS);
