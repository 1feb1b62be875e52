import type { ErrorCode, ErrorDetails } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import type { CacheBytes } from './renderer.js';

/**
 * Messages between the Liquid pool (engine.ts, main thread) and its workers (worker.ts). Both are
 * structured clones: the data object is copied once per task, and errors travel as plain fields
 * because an AppError's class does not survive the copy.
 */

/** Written by the worker when it starts a task, so the hard limit does not count queue time. */
export interface StartStamp {
  /** Date.now() on the main thread when the task was submitted. */
  submittedAt: number;
  /** One Int32 over a SharedArrayBuffer: 0 while queued, then 1 + ms from submission to start. */
  started: Int32Array;
}

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

export function markStarted(stamp: StartStamp): void {
  Atomics.store(stamp.started, 0, Date.now() - stamp.submittedAt + 1);
}

/** Milliseconds from submission to start, or undefined while the task is still queued. */
export function startedAfter(stamp: StartStamp): number | undefined {
  const value = Atomics.load(stamp.started, 0);
  return value === 0 ? undefined : value - 1;
}

export function newStartStamp(): StartStamp {
  return { submittedAt: Date.now(), started: new Int32Array(new SharedArrayBuffer(4)) };
}
