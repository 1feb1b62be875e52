import type { Plan, PlanId } from '../accounts/plans.js';
import { type DocumentRow, findDocumentById, updateDocument } from '../documents/repository.js';
import type { Clock } from '../shared/clock.js';
import type { ErrorCode } from '../shared/errors.js';
import type { TeamSlots } from '../shared/team-slots.js';
import type { Db } from '../storage/db.js';
import type { EventDocument } from '../webhooks/events.js';
import { recordPdfEvent } from '../webhooks/pdf-events.js';
import type { RenderJobPayload } from './enqueue-render.js';
import { backoffTable, type JobHandler, type JobKindOptions, type JobOutcome } from './registry.js';

/**
 * The background render (spec: Document status table): queued → processing → succeeded/failed, with
 * render_timeout and service_busy retried after 30 s and 2 min (3 attempts in all), other errors final.
 * The final document state, usage counting and the pdf.* event commit together with the job, once.
 */
export type RenderAttempt =
  /** Rendered and stored; `changes` complete the document row (pages, bytes, mode, blob, counted…). */
  | { ok: true; changes: Partial<DocumentRow> }
  /** `rendered: false` = failed before rendering (e.g. plan limit): no document record remains. */
  | { ok: false; code: ErrorCode; message: string; rendered: boolean };

type RenderFailure = Extract<RenderAttempt, { ok: false }>;

export interface BackgroundRenderer {
  render(input: { document: DocumentRow; request: unknown; signal: AbortSignal }): Promise<RenderAttempt>;
}

export interface RenderJobDeps {
  clock: Clock;
  plans: Record<PlanId, Plan>;
  slots: TeamSlots;
  renderer: BackgroundRenderer;
  /** The spec's Document object for event data (signed url etc.), from the documents capability. */
  present: (row: DocumentRow) => EventDocument;
}

export const MAX_RENDER_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [30_000, 120_000];

const RETRIED_CODES: ReadonlySet<ErrorCode> = new Set(['render_timeout', 'service_busy']);
const NO_SLOT_WAIT_MS = 1_000;

/** The render kind's retry policy, applied by the worker; `abandon` fails the document of a job given up on. */
export function renderJobOptions(deps: RenderJobDeps): JobKindOptions {
  return {
    maxAttempts: MAX_RENDER_ATTEMPTS,
    backoff: backoffTable(RETRY_DELAYS_MS),
    abandon: async (trx, job) => {
      const document = await findDocumentById(trx, (job.payload as RenderJobPayload).documentId);
      if (document) await finalFailure(deps, document, crashed()).commit(trx);
    },
  };
}

export function createRenderJobHandler(deps: RenderJobDeps): JobHandler {
  return async (job, ctx) => {
    const payload = job.payload as RenderJobPayload;
    const document = await findDocumentById(ctx.db, payload.documentId);
    if (!document) return { kind: 'failed', error: 'document record missing', retryable: false };
    const plan = await planOf(ctx.db, deps.plans, document.team_id);
    // Background renders share the team's slots and leave one for direct requests (spec: Limits).
    const slot = deps.slots.tryAcquire(document.team_id, plan?.render_concurrency ?? 1, 'background');
    if (!slot) return { kind: 'defer', delayMs: NO_SLOT_WAIT_MS };
    try {
      await updateDocument(ctx.db, document.id, {
        status: 'processing',
        updated_at: ctx.clock.now().toISOString(),
      });
      const attempt = await deps.renderer.render({ document, request: payload.request, signal: ctx.signal });
      return decide(deps, document, attempt);
    } finally {
      slot.release();
    }
  };
}

function crashed(): RenderFailure {
  return {
    ok: false,
    code: 'render_failed',
    message: 'The render stopped its worker repeatedly.',
    rendered: true,
  };
}

async function planOf(db: Db, plans: Record<PlanId, Plan>, teamId: string): Promise<Plan | null> {
  const team = await db.selectFrom('teams').select('plan').where('id', '=', teamId).executeTakeFirst();
  return team ? (plans[team.plan as PlanId] ?? null) : null;
}

function decide(deps: RenderJobDeps, document: DocumentRow, attempt: RenderAttempt): JobOutcome {
  if (attempt.ok) return success(deps, document, attempt.changes);
  const final = finalFailure(deps, document, attempt);
  return {
    kind: 'failed',
    error: final.error,
    retryable: RETRIED_CODES.has(attempt.code),
    // The document fails only with the job's last attempt; before a retry it stays `processing`.
    commit: async (trx, next) => {
      if (next.retryAt === null) await final.commit(trx);
    },
  };
}

function success(deps: RenderJobDeps, document: DocumentRow, changes: Partial<DocumentRow>): JobOutcome {
  return {
    kind: 'succeeded',
    commit: async (trx) => {
      const now = deps.clock.now().toISOString();
      await updateDocument(trx, document.id, {
        ...changes,
        status: 'succeeded',
        error_code: null,
        updated_at: now,
      });
      const row = await findDocumentById(trx, document.id);
      if (row) await emit(trx, deps, row, 'pdf.created');
    },
  };
}

function finalFailure(
  deps: RenderJobDeps,
  document: DocumentRow,
  attempt: RenderFailure,
): { error: string; commit: (trx: Db) => Promise<void> } {
  return {
    error: `${attempt.code}: ${attempt.message}`,
    commit: async (trx) => {
      const now = deps.clock.now().toISOString();
      const failed = {
        status: 'failed' as const,
        error_code: attempt.code,
        pages: null,
        bytes: null,
        updated_at: now,
      };
      if (attempt.rendered) {
        await updateDocument(trx, document.id, failed);
        const row = await findDocumentById(trx, document.id);
        if (row) await emit(trx, deps, row, 'pdf.failed');
        return;
      }
      // Failed before rendering: no document record exists; the event says why in words (spec).
      await trx.deleteFrom('documents').where('id', '=', document.id).execute();
      await emit(trx, deps, { ...document, ...failed }, 'pdf.failed', attempt.message);
    },
  };
}

async function emit(
  trx: Db,
  deps: RenderJobDeps,
  row: DocumentRow,
  type: 'pdf.created' | 'pdf.failed',
  errorMessage?: string,
): Promise<void> {
  await recordPdfEvent(trx, deps.clock, {
    type,
    teamId: row.team_id,
    test: row.test === 1,
    document: deps.present(row),
    filename: row.filename,
    metadata: row.metadata_json ? (JSON.parse(row.metadata_json) as Record<string, unknown>) : null,
    batchId: row.batch_id,
    ...(errorMessage === undefined ? {} : { errorMessage }),
  });
}
