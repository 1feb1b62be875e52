import { unwrap } from '../core.js';
import { clientError } from '../errors.js';
import { afterPages, beforePages, type PagedList } from '../pagination.js';
import type { Batch, BatchItem, BatchRequest, Query } from '../types.js';
import { type PollOptions, pollUntil } from './documents.js';
import { Resource } from './resource.js';

/** Batches (one template, many items, one ZIP): /batches… */
export class Batches extends Resource {
  readonly items = new BatchItems(this.core);

  /** POST /batches: queued; follow it with `waitFor` or the `batch.completed` webhook. */
  async create(body: BatchRequest): Promise<Batch> {
    return unwrap(this.core.api.POST('/batches', { body }));
  }

  /** GET /batches/{id}: status, counts and (once completed) the signed `zip.url`. */
  async retrieve(id: string): Promise<Batch> {
    return unwrap(this.core.api.GET('/batches/{id}', { params: { path: { id } } }));
  }

  /** GET /batches, newest first, every page. */
  list(query: Omit<Query<'listBatches'>, 'before'> = {}): PagedList<Batch, string> {
    return beforePages((before) =>
      unwrap(
        this.core.api.GET('/batches', { params: { query: { ...query, ...(before ? { before } : {}) } } }),
      ),
    );
  }

  /** POST /batches/{id}/cancel: items not started yet are canceled; finished ones stay in the ZIP. */
  async cancel(id: string): Promise<Batch> {
    return unwrap(this.core.api.POST('/batches/{id}/cancel', { params: { path: { id } } }));
  }

  /** Reads the batch until it is completed or canceled. */
  async waitFor(id: string, options: PollOptions = {}): Promise<Batch> {
    return pollUntil(
      `Batch ${id}`,
      () => this.retrieve(id),
      (batch) => batch.status === 'completed' || batch.status === 'canceled',
      options,
    );
  }

  /** The ZIP of a completed batch through its signed link. */
  async downloadZip(batch: Pick<Batch, 'id' | 'zip'>): Promise<Uint8Array> {
    if (!batch.zip) throw clientError('batch_not_completed', `Batch ${batch.id} has no ZIP yet.`);
    return this.core.download(batch.zip.url);
  }
}

/** /batches/{id}/items. */
export class BatchItems extends Resource {
  /** GET /batches/{id}/items in item order, every page. */
  list(batchId: string, query: Omit<Query<'listBatchItems'>, 'after'> = {}): PagedList<BatchItem, string> {
    return afterPages((after) =>
      unwrap(
        this.core.api.GET('/batches/{id}/items', {
          params: { path: { id: batchId }, query: { ...query, ...(after ? { after } : {}) } },
        }),
      ),
    );
  }
}
