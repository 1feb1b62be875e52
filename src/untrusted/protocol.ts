import type { Sheet } from '../batches/index.js';
import type { StoredFile } from '../brand/index.js';
import type { ReadPkcs12 } from '../certificates/index.js';
import type { ErrorCode, ErrorDetails } from '../shared/errors.js';
import type { StartStamp } from '../shared/task-deadline.js';

/**
 * Messages between the untrusted-file pool (pool.ts) and its workers (worker.ts), as structured clones:
 * the bytes are copied once each way and errors travel as plain fields (an AppError's class does not
 * survive the copy).
 */
export type ParseBody =
  | { kind: 'spreadsheet'; bytes: Uint8Array; maxRows: number }
  | { kind: 'logo'; bytes: Uint8Array }
  | { kind: 'font'; bytes: Uint8Array }
  | { kind: 'certificate'; bytes: Uint8Array; passphrase: string; nowMs: number };

export type ParseKind = ParseBody['kind'];

export type ParseTask = StartStamp & ParseBody;

/** What each kind of task answers. */
export interface ParseResults {
  spreadsheet: Sheet;
  logo: StoredFile;
  font: StoredFile;
  certificate: ReadPkcs12;
}

export type ParseReply =
  | { ok: true; value: ParseResults[ParseKind] }
  | { ok: false; code: ErrorCode; message: string; details: ErrorDetails | undefined };
