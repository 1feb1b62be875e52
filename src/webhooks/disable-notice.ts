import type { EmailSender } from '../email/index.js';
import type { Db } from '../storage/index.js';

/**
 * Tells the team that an endpoint was disabled after 24 hours of failures (spec: Webhook endpoint status,
 * "team owners and admins emailed"). The team's account email is the address this install knows;
 * without one the notice is only logged. Runs as a job queued with the disabling (delivery-job.ts), so a
 * crash or an SMTP outage delays the email rather than losing it; false asks for another attempt.
 */
export function createDisableNotifier(deps: {
  db: Db;
  email: EmailSender;
  log: { warn(obj: Record<string, unknown>, msg: string): void };
}): (endpointId: string) => Promise<boolean> {
  return async (endpointId) => {
    const row = await deps.db
      .selectFrom('webhook_endpoints as e')
      .innerJoin('teams as t', 't.id', 'e.team_id')
      .select(['e.id', 'e.url', 'e.mode', 't.name as team_name', 't.email'])
      .where('e.id', '=', endpointId)
      .executeTakeFirst();
    if (!row) return true;
    deps.log.warn(
      { endpointId, mode: row.mode },
      'webhook endpoint disabled after 24 hours of failed deliveries',
    );
    if (!row.email) return true;
    const sent = await deps.email.send({
      to: row.email,
      subject: 'Webhook endpoint disabled',
      text: [
        `Every delivery to the ${row.mode} webhook endpoint ${row.url} (${row.id}) of ${row.team_name} failed for 24 hours, so it has been disabled.`,
        'Waiting deliveries were dropped, and events raised while the endpoint is disabled will not be sent later.',
        'Fix the receiver, then enable the endpoint again with PUT /v1/webhooks/<id> {"enabled": true}.',
      ].join('\n\n'),
    });
    return sent.ok;
  };
}
