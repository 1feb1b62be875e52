import type { ThumbnailMaker } from '../documents/thumbnails.js';
import type { PdfRenderPort } from '../pdf/ports.js';
import { resolvePageOptions } from '../render/page-options.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { Db } from '../storage/db.js';
import type { TemplateEngine } from './engine-port.js';
import { contentOf } from './records.js';
import { findTemplateById, findVersion, setThumbnailKey, type VersionRow } from './repository.js';
import { parseCacheKey } from './template-port.js';

export interface TemplateThumbnailDeps {
  db: Db;
  blobs: BlobStore;
  engine: TemplateEngine;
  renderer: PdfRenderPort;
  make: ThumbnailMaker;
}

export function thumbnailBlobKey(templateId: string, version: number): string {
  return `thumbnails/templates/${templateId}/${version}.png`;
}

/**
 * Template thumbnails (spec: Thumbnails): page 1 of a version rendered from its sample data, 480 px wide.
 * Versions never change, so each is made once, on first request, and cached in the blob store; concurrent
 * first requests share one rendering.
 */
export class TemplateThumbnails {
  private readonly inFlight = new Map<string, Promise<Buffer | null>>();

  constructor(private readonly deps: TemplateThumbnailDeps) {}

  /** The PNG, or null when the template is deleted or the version no longer exists. */
  forVersion(templateId: string, version: number): Promise<Buffer | null> {
    const key = thumbnailBlobKey(templateId, version);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const work = this.load(templateId, version).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private async load(templateId: string, version: number): Promise<Buffer | null> {
    const { db, blobs } = this.deps;
    const template = await findTemplateById(db, templateId);
    const row = template && template.deleted_at === null ? await findVersion(db, templateId, version) : null;
    if (!row) return null;
    if (row.thumbnail_key) {
      const cached = await blobs.get(row.thumbnail_key);
      if (cached) return cached;
    }
    const png = await this.make(row);
    const key = thumbnailBlobKey(templateId, version);
    await blobs.put(key, png);
    await setThumbnailKey(db, templateId, version, key);
    return png;
  }

  private async make(row: VersionRow): Promise<Buffer> {
    const { engine, renderer } = this.deps;
    const content = contentOf(row);
    const key = parseCacheKey(row.template_id, row.version);
    const { html } = await engine.renderStored(key, content.html, content.sampleData ?? {});
    const page = resolvePageOptions({}, content.settings, 'print');
    // A picture of the template itself, not a document: no watermark, nothing recorded or counted.
    const result = await renderer.render({ html, css: content.css, page, watermark: false });
    return this.deps.make(result.pdf);
  }
}
