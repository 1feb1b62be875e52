import type { Kysely, Migration } from 'kysely';

/**
 * Team certificates for PAdES signatures: the private key sealed with the server secret, the
 * chain in clear (public), and `documents.signed` so GET /pdf/<id> can say a document was signed.
 */
export const migration0019Certificates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('certificates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('not_before', 'text', (c) => c.notNull())
      .addColumn('not_after', 'text', (c) => c.notNull())
      .addColumn('fingerprint_sha256', 'text', (c) => c.notNull())
      .addColumn('signer_name', 'text', (c) => c.notNull())
      .addColumn('key_sealed', 'text', (c) => c.notNull())
      .addColumn('chain_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('certificates_team').on('certificates').column('team_id').execute();
    await db.schema
      .alterTable('documents')
      .addColumn('signed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
