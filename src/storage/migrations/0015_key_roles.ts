import type { Kysely, Migration } from 'kysely';

/**
 * Keys and roles: an API key gets a role (`admin` or `member`) and records who made it; an
 * invitation records who made it, so it can be withdrawn when that person or key loses the power to invite.
 *
 * Existing keys become `admin`: before this migration every bearer key acted as admin, and the first-run and
 * `quire team create` keys must keep managing keys, members and webhooks. A test key gains nothing by it (the
 * mode rules refuse a test key every management route). Their creator is unknown (null).
 */
export const migration0015KeyRoles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
      .execute();
    await db.schema.alterTable('api_keys').addColumn('created_by_user_id', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('created_by_key_id', 'text').execute();
    await db.schema.alterTable('user_tokens').addColumn('created_by_user_id', 'text').execute();
    await db.schema.alterTable('user_tokens').addColumn('created_by_key_id', 'text').execute();
  },
};
