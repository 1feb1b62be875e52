import { type Transition, transitionGuards } from '../shared/transitions.js';

/**
 * A webhook delivery's states and the moves between them (spec: Webhook delivery status), in one table as
 * src/documents/states.ts. The outbox (outbox.ts) writes and reopens deliveries; the delivery job records
 * each attempt through delivery-store.ts. Every update takes its guard from here.
 *
 *   (new) ─create─► pending ─succeed─► succeeded
 *                    │ ▲ ├───fail───► failed        its last attempt failed
 *         reschedule └─┘ └───drop───► failed        not sent: endpoint disabled, or job given up
 *   succeeded, failed ─retry─► pending              a manual retry: one more attempt
 *
 * No state is final: a manual retry reopens a finished delivery (same id, one attempt).
 */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const TRANSITIONS = {
  create: { from: [null], to: 'pending', by: 'the outbox: an event, or the test-event operation' },
  succeed: { from: ['pending'], to: 'succeeded', by: 'the delivery job: the target answered 2xx' },
  reschedule: {
    from: ['pending'],
    to: 'pending',
    by: 'the delivery job: the attempt failed and the worker scheduled another',
  },
  fail: { from: ['pending'], to: 'failed', by: 'the delivery job: the attempt failed and was the last' },
  drop: {
    from: ['pending'],
    to: 'failed',
    by: 'not sent: its endpoint was disabled, or its job was given up (its workers kept dying)',
  },
  retry: {
    from: ['succeeded', 'failed'],
    to: 'pending',
    by: 'a manual retry (one attempt, no schedule)',
  },
} as const satisfies Record<string, Transition<DeliveryStatus>>;

export type DeliveryTransition = keyof typeof TRANSITIONS;

export const { movableFrom, mayMove } = transitionGuards<DeliveryStatus, DeliveryTransition>(TRANSITIONS);
