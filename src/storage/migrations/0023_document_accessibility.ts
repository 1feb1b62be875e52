import type { Kysely, Migration } from 'kysely';

/**
 * The accessibility report of a document that asked for one (extension `accessibility_report`): the
 * machine-checkable PDF/UA-1 conditions of its file, shown as the Document's `accessibility`.
 */
export const migration0023DocumentAccessibility: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('documents').addColumn('accessibility_json', 'text').execute();
  },
};
