import { type Kysely, type Migration, sql } from 'kysely';
import { int64Type, onPostgres } from '../dialect.js';

/**
 * A running total of stored bytes per team and mode (live/test), so the storage check of every stored render
 * (production/storage-policy.ts) reads one row instead of summing the team's whole log (it grew with
 * the log). Triggers on `documents` keep it in the same transaction as every write of `stored_bytes`
 * (insert, succeed, expire, delete, retention, and direct updates), on both dialects alike, so no code path
 * can forget it. Backfilled from the documents already there.
 */
export const migration0021TeamStoredBytes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('team_stored_bytes')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('test', 'integer', (c) => c.notNull())
      .addColumn('bytes', int64Type(db), (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('team_stored_bytes_pk', ['team_id', 'test'])
      .execute();
    await sql`insert into team_stored_bytes (team_id, test, bytes)
      select team_id, test, sum(stored_bytes) from documents group by team_id, test`.execute(db);
    if (onPostgres(db)) await postgresTriggers(db);
    else await sqliteTriggers(db);
  },
};

/** Adds `delta` to a (team, mode) total, creating the row on first use. */
const ADD = (team: string, test: string, delta: string) =>
  `insert into team_stored_bytes (team_id, test, bytes) values (${team}, ${test}, ${delta})
   on conflict (team_id, test) do update set bytes = team_stored_bytes.bytes + excluded.bytes;`;

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create trigger documents_stored_bytes_insert after insert on documents
      when new.stored_bytes <> 0
      begin ${ADD('new.team_id', 'new.test', 'new.stored_bytes')} end`)
    .execute(db);
  await sql
    .raw(`create trigger documents_stored_bytes_update after update of stored_bytes, team_id, test on documents
      when old.stored_bytes <> new.stored_bytes or old.team_id <> new.team_id or old.test <> new.test
      begin
        ${ADD('old.team_id', 'old.test', '-old.stored_bytes')}
        ${ADD('new.team_id', 'new.test', 'new.stored_bytes')}
      end`)
    .execute(db);
  await sql
    .raw(`create trigger documents_stored_bytes_delete after delete on documents
      when old.stored_bytes <> 0
      begin ${ADD('old.team_id', 'old.test', '-old.stored_bytes')} end`)
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create function documents_stored_bytes() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.stored_bytes <> 0 then
          ${ADD('old.team_id', 'old.test', '-old.stored_bytes')}
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.stored_bytes <> 0 then
          ${ADD('new.team_id', 'new.test', 'new.stored_bytes')}
        end if;
        return null;
      end $$`)
    .execute(db);
  await sql
    .raw(`create trigger documents_stored_bytes after insert or delete or update of stored_bytes, team_id, test
      on documents for each row execute function documents_stored_bytes()`)
    .execute(db);
}
