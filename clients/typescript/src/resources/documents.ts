import { sleep, unwrap } from '../core.js';
import { clientError } from '../errors.js';
import { beforePages, type PagedList } from '../pagination.js';
import type { Document, DocumentActivity, Query } from '../types.js';
import { Resource } from './resource.js';

export interface PollOptions {
  /** Wait between reads in ms (default 1000). */
  intervalMs?: number;
  /** Give up after this many ms (default 120000) with QuireError `wait_timeout`. */
  timeoutMs?: number;
}

/** Reads `read()` until `done` says so, or throws `wait_timeout`. */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions,
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline) throw clientError('wait_timeout', `${what} is not finished yet.`);
    await sleep(options.intervalMs ?? 1000);
  }
}

/** The document log: GET /pdf/{id}, GET /documents, GET /pdf/{id}/activity. */
export class Documents extends Resource {
  /** GET /pdf/{id}: status, pages and (while stored) the signed `url`. */
  async retrieve(id: string): Promise<Document> {
    return unwrap(this.core.api.GET('/pdf/{id}', { params: { path: { id } } }));
  }

  /** GET /documents, newest first, every page: `{ status, template_id, from, to, limit }` filter and size pages. */
  list(query: Omit<Query<'listDocuments'>, 'before'> = {}): PagedList<Document, string> {
    return beforePages((before) =>
      unwrap(
        this.core.api.GET('/documents', { params: { query: { ...query, ...(before ? { before } : {}) } } }),
      ),
    );
  }

  /** GET /pdf/{id}/activity: what happened to the document (created, downloaded, emailed, …). */
  async activity(id: string): Promise<DocumentActivity> {
    return unwrap(this.core.api.GET('/pdf/{id}/activity', { params: { path: { id } } }));
  }

  /** Reads the document until it is no longer queued or processing (succeeded, failed or canceled). */
  async waitFor(id: string, options: PollOptions = {}): Promise<Document> {
    return pollUntil(
      `Document ${id}`,
      () => this.retrieve(id),
      (document) => document.status !== 'queued' && document.status !== 'processing',
      options,
    );
  }

  /** The stored PDF through the document's signed link (`document_expired` once it is gone). */
  async download(document: Pick<Document, 'id' | 'url'>): Promise<Uint8Array> {
    if (!document.url) throw clientError('document_expired', `Document ${document.id} has no download link.`);
    return this.core.download(document.url);
  }
}
