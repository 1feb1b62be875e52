import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { createTeam } from '../../../src/accounts/teams.js';
import {
  DocumentLifecycle,
  type DocumentOutcome,
  type NewDocument,
} from '../../../src/documents/lifecycle.js';
import type { DocumentRow } from '../../../src/documents/repository.js';
import {
  DOCUMENT_STATUSES,
  type DocumentStatus,
  documentStatusSchema,
  FINAL_STATUSES,
  mayMove,
  OPEN_STATUSES,
  TRANSITIONS,
  type TransitionName,
} from '../../../src/documents/states.js';
import { ManualClock } from '../../../src/shared/clock.js';
import type { Db } from '../../../src/storage/db.js';
import type { EventDocument } from '../../../src/webhooks/events.js';
import { databaseForBlock } from '../../helpers/database.js';
import { newPlainDocument } from './helpers.js';

const SUCCEEDED: DocumentOutcome = {
  status: 'succeeded',
  file: {
    pages: 1,
    bytes: 10,
    blobKey: null,
    expiresAt: null,
    usagePeriod: null,
    mode: 'fast',
    templateVersion: null,
  },
  report: { warnings: [], blockedResources: [] },
  eInvoice: null,
  delivery: null,
};
const FAILED: DocumentOutcome = { status: 'failed', code: 'render_failed', delivery: null };

/** The moves of a stored document, each made through the lifecycle method that makes it. */
const MOVES: Record<
  Exclude<TransitionName, 'queue'>,
  (lifecycle: DocumentLifecycle, id: string, teamId: string) => Promise<unknown>
> = {
  start: (l, id, teamId) => l.start(id, teamId),
  succeed: (l, id) => l.transact((trx) => l.finish(trx, { id }, SUCCEEDED)),
  fail: (l, id) => l.transact((trx) => l.finish(trx, { id }, FAILED)),
  abandon: (l, id) => l.transact((trx) => l.abandon(trx, id, 'forbidden', 'why')),
  cancel: (l, id) => l.transact((trx) => l.cancelQueuedMany(trx, [id])),
};

describe('document states: every move from every status (real database)', () => {
  let db: Db;
  let teamId: string;
  let lifecycle: DocumentLifecycle;
  const clock = new ManualClock();
  const announced = new Map<string, number>();

  databaseForBlock('quire-states-', (both) => ({ db } = both));
  before(async () => {
    teamId = (await createTeam(db, clock, { name: 'states', plan: 'free' })).id;
    lifecycle = new DocumentLifecycle({
      db,
      clock,
      // Called once for each pdf.* event the lifecycle records (its event data holds the Document).
      present: (row) => {
        announced.set(row.id, (announced.get(row.id) ?? 0) + 1);
        return { id: row.id, status: row.status } as unknown as EventDocument;
      },
    });
  });

  function newDocument(batchId: string | null): NewDocument {
    // Test documents: nothing is reserved or counted, so only the status moves.
    return newPlainDocument({ teamId, test: true, createdAt: clock.now(), filename: 'states.pdf', batchId });
  }

  /** A stored document in `status`, written as a queued one and set there directly (the starting point). */
  async function documentIn(status: DocumentStatus, batchId: string | null): Promise<string> {
    const doc = newDocument(batchId);
    await lifecycle.transact((trx) => lifecycle.createQueued(trx, doc));
    await db.updateTable('documents').set({ status }).where('id', '=', doc.id).execute();
    return doc.id;
  }

  const statusOf = async (id: string): Promise<DocumentStatus | 'removed'> =>
    ((await db.selectFrom('documents').select('status').where('id', '=', id).executeTakeFirst())?.status ??
      'removed') as DocumentStatus | 'removed';

  const eventsOf = (id: string) => announced.get(id) ?? 0;

  it('the open and final sets split the statuses, and only the table names where a move may start', () => {
    assert.deepEqual([...OPEN_STATUSES, ...FINAL_STATUSES].sort(), [...DOCUMENT_STATUSES].sort());
    for (const name of Object.keys(TRANSITIONS) as TransitionName[]) {
      for (const from of FINAL_STATUSES) assert.equal(mayMove(name, from), false, `${name} from ${from}`);
    }
    assert.equal(mayMove('queue', null), true);
    assert.equal(mayMove('succeed', null), true, 'a direct render writes its row finished');
    assert.equal(mayMove('fail', null), true);
    assert.equal(mayMove('start', null), false, 'a move of a stored document needs one');
    assert.deepEqual(
      documentStatusSchema().anyOf.map((literal) => literal.const),
      [...DOCUMENT_STATUSES],
      'the API lists the same statuses',
    );
  });

  for (const [name, move] of Object.entries(MOVES) as [
    keyof typeof MOVES,
    (typeof MOVES)[keyof typeof MOVES],
  ][]) {
    for (const from of DOCUMENT_STATUSES) {
      const allowed = mayMove(name, from);
      it(`${name} from ${from}: ${allowed ? `moves it to ${TRANSITIONS[name].to}` : 'is refused, the document unchanged'}`, async () => {
        // A batch item: an abandoned one stays listed as failed instead of being removed.
        const id = await documentIn(from, name === 'abandon' ? randomUUID() : null);
        const eventsBefore = eventsOf(id);
        await move(lifecycle, id, teamId);
        assert.equal(await statusOf(id), allowed ? TRANSITIONS[name].to : from);
        const events = eventsOf(id) - eventsBefore;
        const announces = name === 'succeed' || name === 'fail' || name === 'abandon';
        assert.equal(events, allowed && announces ? 1 : 0, 'one pdf.* event for an allowed final move');
      });
    }
  }

  it('a direct render inserts its final row in the status its outcome names, with one event each', async () => {
    const ok = newDocument(null);
    const row: DocumentRow = await lifecycle.transact((trx) =>
      lifecycle.finish(trx, { document: ok }, SUCCEEDED),
    );
    assert.equal(row.status, TRANSITIONS.succeed.to);
    assert.equal(await statusOf(ok.id), 'succeeded');
    assert.equal(eventsOf(ok.id), 1);
    const bad = newDocument(null);
    const failed = await lifecycle.transact((trx) => lifecycle.finish(trx, { document: bad }, FAILED));
    assert.equal(failed.status, TRANSITIONS.fail.to);
    assert.equal(failed.error_code, 'render_failed');
    assert.equal(failed.pages, null);
    assert.equal(eventsOf(bad.id), 1);
  });
});
