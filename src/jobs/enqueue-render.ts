import type { Plan } from '../accounts/plans.js';
import { insertDocument } from '../documents/repository.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/db.js';
import { assertWithinJobLimits } from './limits.js';
import { enqueueJob } from './queue.js';

export const RENDER_JOB = 'render';

/** What the render job carries: the queued document and the validated request for the renderer. */
export interface RenderJobPayload {
  documentId: string;
  /** The validated POST /pdf body (or batch item), opaque to the queue. */
  request: unknown;
}

export interface EnqueueRenderInput {
  plan: Plan;
  teamId: string;
  test: boolean;
  /** The future document's id (spec: Document id of a background PDF). */
  documentId: string;
  filename: string;
  contentType: string;
  templateId: string | null;
  metadata: Record<string, unknown> | null;
  batchId: string | null;
  request: unknown;
}

/**
 * Queues a background render after all validation passed (spec: POST /pdf async → 202): a `queued`
 * document record and its job in one transaction, refused with `rate_limited` over open_jobs or
 * test_jobs_per_day. Returns the 202 body; the caller adds `Location: /v1/pdf/<id>`.
 */
export async function enqueueRender(
  db: Db,
  clock: Clock,
  input: EnqueueRenderInput,
): Promise<{ id: string; status: 'queued'; created_at: string }> {
  const createdAt = clock.now().toISOString();
  await db.transaction().execute(async (trx) => {
    await enqueueJob(trx, clock, {
      kind: RENDER_JOB,
      teamId: input.teamId,
      test: input.test,
      payload: { documentId: input.documentId, request: input.request } satisfies RenderJobPayload,
    });
    await assertWithinJobLimits(trx, clock, { plan: input.plan, teamId: input.teamId, test: input.test });
    await insertDocument(trx, queuedDocument(input, createdAt));
  });
  return { id: input.documentId, status: 'queued', created_at: createdAt };
}

function queuedDocument(input: EnqueueRenderInput, createdAt: string) {
  return {
    id: input.documentId,
    team_id: input.teamId,
    status: 'queued' as const,
    mode: null,
    test: input.test ? 1 : 0,
    template_id: input.templateId,
    template_version: null,
    error_code: null,
    pages: null,
    bytes: null,
    filename: input.filename,
    content_type: input.contentType,
    metadata_json: input.metadata ? JSON.stringify(input.metadata) : null,
    e_invoice_json: null,
    delivery_json: null,
    batch_id: input.batchId,
    blob_key: null,
    stored_bytes: 0,
    counted: 0,
    expires_at: null,
    thumbnail_key: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}
