import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type RateCounter, spendBudget } from '../shared/rate-counter.js';
import type { Db } from '../storage/index.js';
import { type EndpointRow, findEndpoint, type KeyMode } from './endpoints.js';
import { checkWebhookUrl, type Resolver } from './url-policy.js';

/** Checks the webhook operations share (spec: Webhook endpoints; Errors; Limits). */

/** Who calls: the team, its key's mode and its plan (the authenticated request's context fits). */
export interface WebhookCaller {
  team: { id: string };
  mode: KeyMode;
  plan: { name: string; webhooks: boolean };
}

export function requireWebhooksPlan(caller: WebhookCaller): void {
  if (!caller.plan.webhooks) {
    throw new AppError('feature_not_available', `The ${caller.plan.name} plan does not include webhooks.`);
  }
}

/** The caller's endpoint in its key's mode; another mode's endpoint does not exist for it. */
export async function endpointOf(db: Db, caller: WebhookCaller, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(db, caller.team.id, caller.mode, id);
  if (!row) throw new AppError('webhook_not_found', `No webhook endpoint ${id} for this ${caller.mode} key.`);
  return row;
}

/** A refused target is `invalid_request` with `details.field` and `details.reason`. */
export async function acceptedUrl(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<string> {
  const verdict = await checkWebhookUrl(raw, options);
  if (!verdict.ok) {
    throw new AppError('invalid_request', verdict.message, { field: 'url', reason: verdict.reason });
  }
  return verdict.url;
}

export const WEBHOOK_SENDS_PER_MINUTE = 10;

/** Test events plus manual retries: 10 per minute per endpoint (spec: Limits). */
export async function spendWebhookSend(rate: RateCounter, clock: Clock, endpointId: string): Promise<void> {
  await spendBudget(rate, {
    key: `webhook-sends:${endpointId}`,
    limit: WEBHOOK_SENDS_PER_MINUTE,
    nowMs: clock.now().getTime(),
    message: `At most ${WEBHOOK_SENDS_PER_MINUTE} test events and retries per minute per endpoint.`,
    details: { reason: 'webhook_sends' },
  });
}
