import type { ErrorCode, ErrorDetails } from '../shared/errors.js';
import type { StartStamp } from '../shared/task-deadline.js';
import type { Warning } from '../shared/warnings.js';
import type { CacheBytes } from './renderer.js';

/**
 * Messages between the Liquid pool (engine.ts, main thread) and its workers (worker.ts). Both are
 * structured clones: the data object is copied once per task, and errors travel as plain fields
 * because an AppError's class does not survive the copy.
 */

/** What to do: parse only, render raw html, or render a stored version cached under `key`. */
export type TaskBody =
  | { kind: 'check'; source: string }
  | { kind: 'source'; source: string; data: Record<string, unknown> }
  | { kind: 'stored'; key: string; source: string; data: Record<string, unknown> };

export type LiquidTask = StartStamp & TaskBody;

/** Settings every worker's renderer is built with (Piscina workerData). */
export interface WorkerSettings {
  locale: string;
  timeZone: string;
  renderMs: number;
  cacheEntries: number;
  cacheBytes: number;
}

export interface TaskFacts {
  /** Whether this task parsed the source (a check, raw html, or a stored template not in this worker's cache). */
  parsed: boolean;
  /** This worker's cache sizes after the task. */
  cache: CacheBytes;
}

export type LiquidReply = TaskFacts &
  (
    | { ok: true; html: string; warnings: Warning[] }
    | { ok: false; code: ErrorCode; message: string; details: ErrorDetails | undefined }
  );
