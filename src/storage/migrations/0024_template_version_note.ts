import type { Kysely, Migration } from 'kysely';

/**
 * Who saved a template version and why (extension `message` on POST/PUT /templates): the dashboard's
 * versions list shows the note and the author beside each version. Both stay null for versions saved before.
 */
export const migration0024TemplateVersionNote: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('template_versions').addColumn('message', 'text').execute();
    await db.schema.alterTable('template_versions').addColumn('author', 'text').execute();
  },
};
