import { Type } from 'typebox';
import { DateTime, Nullable, named } from '../http/schemas.js';
import { newId } from '../shared/ids.js';
import { chunks, type Db, deleteOlderThan } from '../storage/index.js';
import { documentStatusSchema } from './states.js';
import type { DocumentActivityTable, DocumentStatus } from './tables.js';

/** Spec: Retention facts, "Activity log (warnings, status, timing, page count): 30 days". */
export const ACTIVITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** Where a status sits in the lifecycle: orders entries written within the same millisecond. */
const STEP: Record<DocumentStatus, number> = {
  queued: 0,
  processing: 1,
  succeeded: 2,
  failed: 2,
  canceled: 2,
};

/** Render timing in milliseconds: the whole render call and its stages (src/render RenderResult.timings). */
export interface RenderTimings {
  render: number;
  load: number;
  analyze: number;
  pdf: number;
  post: number;
}

/** What is known at a transition; only what applies is written. */
export interface ActivityDetails {
  pages?: number | null;
  warnings?: readonly unknown[];
  timings_ms?: RenderTimings;
  error_code?: string;
  error_message?: string;
}

/** One activity row, ready to insert in the transition's own transaction. */
export function activityRow(
  doc: { id: string; teamId: string },
  status: DocumentStatus,
  at: Date | string,
  details: ActivityDetails | null = null,
): DocumentActivityTable {
  const hasDetails = details !== null && Object.keys(details).length > 0;
  return {
    id: newId(),
    document_id: doc.id,
    team_id: doc.teamId,
    status,
    step: STEP[status],
    at: typeof at === 'string' ? at : at.toISOString(),
    details_json: hasDetails ? JSON.stringify(details) : null,
  };
}

/** One multi-row insert per chunk (a batch's queued items arrive together). */
export async function insertActivity(trx: Db, rows: readonly DocumentActivityTable[]): Promise<void> {
  for (const chunk of chunks([...rows])) await trx.insertInto('document_activity').values(chunk).execute();
}

export async function listActivity(db: Db, documentId: string): Promise<DocumentActivityTable[]> {
  return db
    .selectFrom('document_activity')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('at')
    .orderBy('step')
    .execute();
}

/** Deletes entries older than 30 days; the document rows keep their own retention. */
export async function sweepActivity(db: Db, now: Date): Promise<number> {
  return deleteOlderThan(db.deleteFrom('document_activity'), 'at', ACTIVITY_DAYS * DAY_MS, now);
}

const Timings = Type.Object(
  {
    render: Type.Number({ description: 'The whole render call, including the wait for a browser page' }),
    load: Type.Number(),
    analyze: Type.Number(),
    pdf: Type.Number(),
    post: Type.Number(),
  },
  { description: 'Render timing in milliseconds' },
);

export const ActivityEntrySchema = named(
  'ActivityEntry',
  Type.Object({
    status: documentStatusSchema(),
    at: DateTime,
    duration_ms: Nullable(
      Type.Integer({ description: 'Milliseconds since the previous entry; null for the first' }),
    ),
    pages: Type.Optional(Nullable(Type.Integer())),
    warnings: Type.Optional(Type.Array(Type.Unknown())),
    timings_ms: Type.Optional(Timings),
    error_code: Type.Optional(Type.String()),
    error_message: Type.Optional(Type.String()),
  }),
);

export const ActivitySchema = named(
  'DocumentActivity',
  Type.Object({
    document_id: Type.String(),
    data: Type.Array(ActivityEntrySchema, { description: 'Status transitions, oldest first (30 days)' }),
  }),
);

/** ActivityDetails as read back from JSON (a fresh, mutable array). */
type StoredDetails = Omit<ActivityDetails, 'warnings'> & { warnings?: unknown[] };
type ActivityEntryJson = { status: DocumentStatus; at: string; duration_ms: number | null } & StoredDetails;

export function presentActivity(rows: readonly DocumentActivityTable[]): ActivityEntryJson[] {
  return rows.map((row, i) => {
    const previous = rows[i - 1];
    const details = row.details_json ? (JSON.parse(row.details_json) as StoredDetails) : {};
    return {
      status: row.status,
      at: row.at,
      duration_ms: previous ? Date.parse(row.at) - Date.parse(previous.at) : null,
      ...details,
    };
  });
}
