import { sql } from 'kysely';
import type { PageCursor } from '../shared/page-cursor.js';
import { dayAfter } from '../shared/utc-days.js';
import {
  countPerCreatedDay,
  type Db,
  inKeyScope,
  keyScopedFinder,
  newestFirstPage,
} from '../storage/index.js';
import type { DocumentStatus, DocumentsTable } from './tables.js';

export type DocumentRow = Omit<DocumentsTable, 'stored_bytes' | 'counted' | 'signed'> & {
  stored_bytes: number;
  counted: number;
  signed: number;
};

/** The cached first-page PNG of a stored document (not a status change). */
export async function setDocumentThumbnail(db: Db, id: string, key: string): Promise<void> {
  await db.updateTable('documents').set({ thumbnail_key: key }).where('id', '=', id).execute();
}

/** A team's document, optionally restricted to test documents (test keys see only those). */
export const findDocument = keyScopedFinder<'documents', DocumentRow>((db) =>
  db.selectFrom('documents').selectAll(),
);

export async function findDocumentById(db: Db, id: string): Promise<DocumentRow | null> {
  return (
    ((await db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst()) as
      | DocumentRow
      | undefined) ?? null
  );
}

/** Narrows the document log (an extension of GET /documents); days are UTC `YYYY-MM-DD`, both inclusive. */
export interface DocumentFilter {
  status?: DocumentStatus;
  templateId?: string;
  fromDay?: string;
  toDay?: string;
  /** A document id (exact), or text found in the file name or the metadata (case-insensitive). */
  search?: string;
}

/** `text` as a LIKE pattern that matches it literally anywhere (with ESCAPE '\\'). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Matches the search text the way the dashboard's search box promises: the whole id, or part of the file
 * name, or part of a metadata key or value. Metadata is stored as JSON text, so the text is looked for in
 * its JSON-escaped form (a quote in a value is stored as \"). lower() folds ASCII on SQLite and all
 * letters on PostgreSQL.
 */
function searchCondition(search: string) {
  const needle = search.toLowerCase();
  const inJson = JSON.stringify(needle).slice(1, -1);
  return sql<boolean>`(id = ${search} or lower(filename) like ${containsPattern(needle)} escape '\\' or lower(metadata_json) like ${containsPattern(inJson)} escape '\\')`;
}

/** Newest first; the (created_at, id) cursor stays stable when documents are inserted meanwhile. */
export async function listDocuments(
  db: Db,
  teamId: string,
  options: { testOnly: boolean; limit: number; before: PageCursor | null; filter?: DocumentFilter },
): Promise<DocumentRow[]> {
  let query = inKeyScope(db.selectFrom('documents').selectAll(), { teamId, testOnly: options.testOnly });
  const filter = options.filter ?? {};
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.templateId) query = query.where('template_id', '=', filter.templateId);
  // created_at is an ISO string in UTC, so a day bound compares as text.
  if (filter.fromDay) query = query.where('created_at', '>=', filter.fromDay);
  if (filter.toDay) query = query.where('created_at', '<', dayAfter(filter.toDay));
  if (filter.search) query = query.where(searchCondition(filter.search));
  return (await newestFirstPage(query, options.before, options.limit).execute()) as DocumentRow[];
}

/**
 * Succeeded test documents per UTC day from `fromDay` to `toDay` (inclusive), for the usage chart (test
 * documents are never counted, so the ledger has none; their records live 120 days). Portable SQL: the
 * day is the ISO text's first ten characters on SQLite and PostgreSQL alike.
 */
export async function testDocumentsPerDay(
  db: Db,
  teamId: string,
  fromDay: string,
  toDay: string,
): Promise<Map<string, number>> {
  const succeededTests = db
    .selectFrom('documents')
    .where('team_id', '=', teamId)
    .where('test', '=', 1)
    .where('status', '=', 'succeeded');
  return countPerCreatedDay(succeededTests, fromDay, toDay);
}

/**
 * Bytes of stored files: live documents for the plan quota, or test documents for the 200 MB cap. One row of
 * the running total that triggers on `documents` keep (migration 0021), so the check costs the same whatever
 * the size of the team's log.
 */
export async function storedBytes(db: Db, teamId: string, test: boolean): Promise<number> {
  const row = await db
    .selectFrom('team_stored_bytes')
    .select('bytes')
    .where('team_id', '=', teamId)
    .where('test', '=', test ? 1 : 0)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Documents whose stored file has passed its expiry, oldest first (the retention sweep's batch). */
export async function findExpiredFiles(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('documents')
    .select('id')
    .where('blob_key', 'is not', null)
    .where('expires_at', '<=', now.toISOString())
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
