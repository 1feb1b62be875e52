import type { Plan } from '../accounts/index.js';
import type { ThumbnailMaker } from '../documents/index.js';
import type { Production } from '../production/index.js';
import { type AppError, isAppError } from '../shared/errors.js';
import type { BlobStore, Db } from '../storage/index.js';
import { findTemplateById, findVersion, setThumbnailKey, type VersionRow } from './repository.js';

export interface TemplateThumbnailDeps {
  db: Db;
  blobs: BlobStore;
  production: Pick<Production, 'produce'>;
  /** The owning team's plan (its render slots), or null when the team is gone. */
  planOf(teamId: string): Promise<Plan | null>;
  make: ThumbnailMaker;
  /** Aborts when the server begins to shut down. */
  shutdown: AbortSignal;
}

export function thumbnailBlobKey(templateId: string, version: number): string {
  return `thumbnails/templates/${templateId}/${version}.png`;
}

/** Failures that say something about the version itself (not a busy moment), remembered per version. */
const LASTING_FAILURES = new Set([
  'render_failed',
  'render_timeout',
  'content_lost',
  'document_too_large',
  'template_render_error',
]);
const MAX_REMEMBERED_FAILURES = 10_000;

/**
 * How thumbnails take a team render slot: as background work does, leaving one for direct requests (a
 * customer's POST /pdf is not refused because someone opened the dashboard's template list), and waiting
 * for a free one rather than failing the image (a page of cards asks for many at once) — but not past the
 * start of a shutdown, which waits for requests in flight.
 */
export function thumbnailSlot(shutdown: AbortSignal) {
  return { slotWait: { ms: 30_000, stop: shutdown } } as const;
}

/**
 * Template thumbnails (spec: Thumbnails): page 1 of a version rendered from its sample data, 480 px wide,
 * through the one production use case (a slot of the owning team, see thumbnailSlot; no watermark, nothing recorded).
 * Versions never change, so each is made once, on first request, and cached in the blob store; concurrent
 * first requests share one rendering, and a version that failed is not rendered again by this process
 * (the links need no key, so a failing template must not be able to occupy the renderer over and over).
 */
export class TemplateThumbnails {
  private readonly inFlight = new Map<string, Promise<Buffer | null>>();
  private readonly failed = new Map<string, AppError>();

  constructor(private readonly deps: TemplateThumbnailDeps) {}

  /** The PNG, or null when the template is deleted or the version no longer exists. */
  forVersion(templateId: string, version: number): Promise<Buffer | null> {
    const key = thumbnailBlobKey(templateId, version);
    const failure = this.failed.get(key);
    if (failure) return Promise.reject(failure);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const work = this.load(templateId, version)
      .catch((err: unknown) => {
        this.remember(key, err);
        throw err;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private remember(key: string, err: unknown): void {
    if (!isAppError(err) || !LASTING_FAILURES.has(err.code)) return;
    if (this.failed.size >= MAX_REMEMBERED_FAILURES) this.failed.clear();
    this.failed.set(key, err);
  }

  private async load(templateId: string, version: number): Promise<Buffer | null> {
    const { db, blobs } = this.deps;
    const template = await findTemplateById(db, templateId);
    const row = template && template.deleted_at === null ? await findVersion(db, templateId, version) : null;
    if (!template || !row) return null;
    if (row.thumbnail_key) {
      const cached = await blobs.get(row.thumbnail_key);
      if (cached) return cached;
    }
    const png = await this.make(template.team_id, row);
    if (!png) return null;
    const key = thumbnailBlobKey(templateId, version);
    await blobs.put(key, png);
    await setThumbnailKey(db, templateId, version, key);
    return png;
  }

  private async make(teamId: string, row: VersionRow): Promise<Buffer | null> {
    const plan = await this.deps.planOf(teamId);
    if (!plan) return null;
    const produced = await this.deps.production.produce({
      caller: { teamId, plan },
      request: { template_id: row.template_id, template_version: row.version },
      purpose: { kind: 'thumbnail' },
      test: false,
      ...thumbnailSlot(this.deps.shutdown),
    });
    return this.deps.make(produced.file);
  }
}
