import type { FastifyReply } from 'fastify';
import type { DocumentJson, DocumentRow } from '../documents/index.js';

/**
 * A transformed PDF answered as POST /v1/pdf answers a document (spec: POST /pdf responses): the file with
 * its document id and page count, or the Document with its signed link. (pdf/respond.ts is the POST /pdf
 * route's own: no folder but app.ts imports pdf/.)
 */
export interface RecordedFile {
  file: Buffer;
  pages: number | null;
  metadata: Record<string, unknown> | null;
  row: DocumentRow;
}

export function sendFile(reply: FastifyReply, result: RecordedFile): FastifyReply {
  if (result.pages !== null) reply.header('x-pages', String(result.pages));
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${result.row.filename}"`)
    .header('x-document-id', result.row.id)
    .header('x-blocked-resources', '0')
    .header('x-warnings', '[]')
    .header('cache-control', 'no-store')
    .send(result.file);
}

export function urlAnswer(result: RecordedFile, present: (row: DocumentRow) => DocumentJson) {
  return {
    ...present(result.row),
    filename: result.row.filename,
    metadata: result.metadata,
    warnings: [],
    blocked_resources: [],
  };
}

/** The first answer again, from the stored file (spec: Idempotency). */
export function replayed(row: DocumentRow, file: Buffer): RecordedFile {
  return {
    file,
    pages: row.pages,
    metadata: row.metadata_json ? (JSON.parse(row.metadata_json) as Record<string, unknown>) : null,
    row,
  };
}
