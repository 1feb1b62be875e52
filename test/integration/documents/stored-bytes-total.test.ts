import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTeam } from '../../../src/accounts/teams.js';
import {
  DocumentLifecycle,
  type DocumentOutcome,
  type NewDocument,
  type ProducedFile,
} from '../../../src/documents/lifecycle.js';
import { storedBytes } from '../../../src/documents/repository.js';
import { sweepDocuments } from '../../../src/documents/retention.js';
import { ManualClock } from '../../../src/shared/clock.js';
import type { BlobStore } from '../../../src/storage/blob-store.js';
import type { Db } from '../../../src/storage/db.js';
import { onPostgres } from '../../../src/storage/dialect.js';
import { migration0021TeamStoredBytes } from '../../../src/storage/migrations/0021_team_stored_bytes.js';
import type { EventDocument } from '../../../src/webhooks/events.js';
import { databaseForBlock } from '../../helpers/database.js';
import { newPlainDocument } from './helpers.js';

const DAY_MS = 86_400_000;
const REPORT = { warnings: [], blockedResources: [] };
const succeeded = (file: ProducedFile): DocumentOutcome => ({
  status: 'succeeded',
  file,
  report: REPORT,
  eInvoice: null,
  delivery: null,
});

/**
 * The storage quota reads a running total per team and mode (migration 0021's triggers) instead of summing the
 * log. Every way a stored file comes or goes must keep it equal to the sum of the documents' bytes.
 */
describe('stored bytes: the running total follows every document write (real database)', () => {
  const clock = new ManualClock();
  const deletedBlobs: string[] = [];
  let db: Db;
  let teamId: string;
  let otherTeamId: string;
  let lifecycle: DocumentLifecycle;

  databaseForBlock('quire-stored-bytes-', (both) => ({ db } = both));
  before(async () => {
    teamId = (await createTeam(db, clock, { name: 'quota', plan: 'free' })).id;
    otherTeamId = (await createTeam(db, clock, { name: 'other', plan: 'free' })).id;
    lifecycle = new DocumentLifecycle({
      db,
      clock,
      present: (row) => ({ id: row.id, status: row.status }) as unknown as EventDocument,
    });
  });

  const newDocument = (team: string, test: boolean): NewDocument =>
    newPlainDocument({ teamId: team, test, createdAt: clock.now(), filename: 'quota.pdf' });
  const file = (bytes: number, stored: boolean): ProducedFile => ({
    pages: 1,
    bytes,
    blobKey: stored ? `blob-${randomUUID()}` : null,
    expiresAt: stored ? new Date(clock.now().getTime() + DAY_MS) : null,
    usagePeriod: null,
    mode: 'fast',
    templateVersion: null,
  });
  /** A direct render (one insert of the finished row), as POST /v1/pdf with a binary or url response does. */
  const complete = async (team: string, test: boolean, bytes: number, stored = true) => {
    const doc = newDocument(team, test);
    await lifecycle.transact((trx) =>
      lifecycle.finish(trx, { document: doc }, succeeded(file(bytes, stored))),
    );
    return doc.id;
  };
  /** A background render: queued, started, then succeeded (an update of the row). */
  const background = async (team: string, test: boolean, bytes: number) => {
    const doc = newDocument(team, test);
    await lifecycle.transact((trx) => lifecycle.createQueued(trx, doc));
    await lifecycle.start(doc.id, team);
    await lifecycle.transact((trx) => lifecycle.finish(trx, { id: doc.id }, succeeded(file(bytes, true))));
    return doc.id;
  };
  /** What summing the log says: the figure the running total must always equal. */
  async function summed(team: string, test: boolean): Promise<number> {
    const row = await db
      .selectFrom('documents')
      .select((eb) => eb.fn.sum<number>('stored_bytes').as('total'))
      .where('team_id', '=', team)
      .where('test', '=', test ? 1 : 0)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
  async function assertTotals(live: number, test: number, why: string) {
    assert.equal(await storedBytes(db, teamId, false), live, `live total ${why}`);
    assert.equal(await storedBytes(db, teamId, true), test, `test total ${why}`);
    assert.equal(await summed(teamId, false), live, `live sum ${why}`);
    assert.equal(await summed(teamId, true), test, `test sum ${why}`);
  }

  it('counts stored files per mode, not returned-only ones, and not another team’s', async () => {
    await assertTotals(0, 0, 'of a new team');
    const first = await complete(teamId, false, 1000);
    await complete(teamId, true, 70);
    await complete(teamId, false, 555, false);
    await complete(otherTeamId, false, 9999);
    await background(teamId, false, 2000);
    await assertTotals(3000, 70, 'after direct and background renders');
    assert.equal(await storedBytes(db, otherTeamId, false), 9999);

    for (const key of await lifecycle.expireFile(first)) deletedBlobs.push(key);
    await assertTotals(2000, 70, 'after one file expired');
    await db
      .updateTable('documents')
      .set({ stored_bytes: 10 ** 12 })
      .where('id', '=', first)
      .execute();
    await assertTotals(10 ** 12 + 2000, 70, 'after a direct update (past 32 bits)');
    await db.updateTable('documents').set({ stored_bytes: 0 }).where('id', '=', first).execute();
  });

  it('a rolled-back render leaves the total as it was (same transaction as the row)', async () => {
    const doc = newDocument(teamId, false);
    await assert.rejects(
      lifecycle.transact(async (trx) => {
        await lifecycle.finish(trx, { document: doc }, succeeded(file(4096, true)));
        assert.equal(await storedBytes(trx, teamId, false), 2000 + 4096, 'seen inside the transaction');
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    await assertTotals(2000, 70, 'after the rollback');
  });

  it('deleting a stored record takes its bytes off', async () => {
    const id = await complete(teamId, true, 30);
    await assertTotals(2000, 100, 'before the delete');
    await db.deleteFrom('documents').where('id', '=', id).execute();
    await assertTotals(2000, 70, 'after the delete');
  });

  it('migration 0021 backfills the totals of documents written before it, and its triggers go on from there', async () => {
    // Back to the schema before 0021 (these documents stay), then the migration as an upgrade runs it.
    const triggers = onPostgres(db)
      ? ['drop trigger documents_stored_bytes on documents', 'drop function documents_stored_bytes()']
      : ['insert', 'update', 'delete'].map((op) => `drop trigger documents_stored_bytes_${op}`);
    for (const statement of [...triggers, 'drop table team_stored_bytes'])
      await sql.raw(statement).execute(db);
    await migration0021TeamStoredBytes.up(db as never);
    await assertTotals(2000, 70, 'after the backfill');
    assert.equal(await storedBytes(db, otherTeamId, false), 9999, 'another team backfilled apart');
    await complete(teamId, true, 5);
    await assertTotals(2000, 75, 'after a render following the upgrade');
  });

  it('the retention sweep (files expire, then records go) brings every total back to zero', async () => {
    clock.advance(2 * DAY_MS);
    const blobs = { delete: async (key: string) => void deletedBlobs.push(key) } as unknown as BlobStore;
    const files = await sweepDocuments({ db, blobs, lifecycle }, clock.now());
    assert.ok(files.filesDeleted >= 2, `expired files: ${files.filesDeleted}`);
    await assertTotals(0, 0, 'after the files expired');
    clock.advance(121 * DAY_MS);
    const records = await sweepDocuments({ db, blobs, lifecycle }, clock.now());
    assert.ok(records.recordsDeleted >= 5, `deleted records: ${records.recordsDeleted}`);
    await assertTotals(0, 0, 'after the records went');
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from documents where team_id = ${teamId}`.execute(db);
    assert.equal(Number(rows[0]?.n), 0);
  });
});
