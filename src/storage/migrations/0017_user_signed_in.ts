import { type Kysely, type Migration, sql } from 'kysely';

/**
 * When a dashboard user first signed in: the server prints a fresh sign-in link for the owner on
 * every start until then, so a first start that failed, or a link that expired unused, does not lock the
 * owner out. Users who already have a password, a session or a used token have signed in.
 */
export const migration0017UserSignedIn: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('signed_in_at', 'text').execute();
    await sql`update users set signed_in_at = created_at
      where password_hash is not null
         or id in (select user_id from sessions)
         or id in (select user_id from user_tokens where used_at is not null)`.execute(db);
  },
};
