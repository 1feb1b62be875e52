import type { Kysely, Migration } from 'kysely';

/**
 * The mode (test or live) a person last chose in a team: their next dashboard session starts in
 * it. Null until they first switch; the session then starts in live mode for an owner, test for others.
 */
export const migration0016MembershipLastMode: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('memberships').addColumn('last_mode', 'text').execute();
  },
};
