import type { Kysely, Migration } from 'kysely';

/**
 * What the last delivery attempt sent and received, so a developer can see it in the
 * delivery log: the request headers (the body is the event's envelope, already stored), the response's
 * headers and the first 4 KB of its body (the spec's `response_body` keeps its 1,024 characters).
 * Null for deliveries never attempted and for attempts made before this migration.
 */
export const migration0020WebhookAttemptDetail: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['request_headers_json', 'response_headers_json', 'response_body_preview'])
      await db.schema.alterTable('webhook_deliveries').addColumn(column, 'text').execute();
  },
};
