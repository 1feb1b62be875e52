import type { Kysely, Migration } from 'kysely';

/**
 * The words of a background document's failure (spec: Document `error_message`), kept on the record so
 * that its `Location` and the log can say why it failed; only the activity log held them before.
 */
export const migration0022DocumentErrorMessage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('documents').addColumn('error_message', 'text').execute();
  },
};
