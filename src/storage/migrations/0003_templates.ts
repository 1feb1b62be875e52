import type { Kysely, Migration } from 'kysely';

/** Templates and their versions (spec: Template, Template versions, Retention facts). */
export const migration0003Templates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('current_version', 'integer', (c) => c.notNull())
      .addColumn('pinned_version', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deleted_at', 'text')
      .execute();
    await db.schema
      .createIndex('templates_team_updated')
      .on('templates')
      .columns(['team_id', 'updated_at', 'id'])
      .execute();
    await db.schema.createIndex('templates_deleted').on('templates').column('deleted_at').execute();
    await db.schema
      .createTable('template_versions')
      .addColumn('template_id', 'text', (c) => c.notNull().references('templates.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('css', 'text')
      .addColumn('sample_data_json', 'text')
      .addColumn('settings_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('thumbnail_key', 'text')
      .addPrimaryKeyConstraint('template_versions_pk', ['template_id', 'version'])
      .execute();
  },
};
