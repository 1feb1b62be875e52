import type { ErrorCode, ErrorDetails } from '../shared/errors.js';
import type { StartStamp } from '../shared/task-deadline.js';
import type { RulesLocation } from './artefacts.js';
import type { ParseReport } from './parse.js';
import type { InboundProfile } from './plan.js';
import type { ValidationReport } from './validate.js';

/** Messages between the e-invoice pool (pool.ts) and its workers (worker.ts), as structured clones. */
export type InboundBody =
  | { kind: 'validate'; bytes: Uint8Array; profile: InboundProfile | undefined; rules: RulesLocation }
  | { kind: 'parse'; bytes: Uint8Array }
  | { kind: 'warm'; rules: RulesLocation };

export type InboundTask = StartStamp & InboundBody;

export type InboundReply =
  | { ok: true; value: ValidationReport | ParseReport | null }
  | { ok: false; code: ErrorCode; message: string; details: ErrorDetails | undefined }
  /** A stylesheet the check needs is missing or still being compiled (artefacts.ts, RulesNotReady). */
  | { ok: false; rulesNotReady: string };
