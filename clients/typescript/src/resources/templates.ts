import { type PdfFile, readPdfFile } from '../binary.js';
import { unwrap } from '../core.js';
import { errorFrom } from '../errors.js';
import { offsetPages, type PagedList, singlePage } from '../pagination.js';
import type {
  Body,
  Query,
  Template,
  TemplateCreate,
  TemplateDraftPreview,
  TemplateDraftPreviewPages,
  TemplateFields,
  TemplatePreviewPages,
  TemplateStarter,
  TemplateSummary,
  TemplateUpdate,
  TemplateVersion,
} from '../types.js';
import { Resource } from './resource.js';

/** Stored Liquid templates and their versions: /templates… */
export class Templates extends Resource {
  readonly versions = new TemplateVersions(this.core);

  /** POST /templates: version 1 of a new template. */
  async create(body: TemplateCreate): Promise<Template> {
    return unwrap(this.core.api.POST('/templates', { body }));
  }

  /** GET /templates/{id}: the current version, or `{ version }`. */
  async retrieve(id: string, query: Query<'getTemplate'> = {}): Promise<Template> {
    return unwrap(this.core.api.GET('/templates/{id}', { params: { path: { id }, query } }));
  }

  /** GET /templates, every page (`{ limit }` sizes the pages). */
  list(query: Omit<Query<'listTemplates'>, 'offset'> = {}): PagedList<TemplateSummary, number> {
    return offsetPages((offset) =>
      unwrap(
        this.core.api.GET('/templates', { params: { query: { ...query, ...(offset ? { offset } : {}) } } }),
      ),
    );
  }

  /** PUT /templates/{id}: a change of html/css/sample_data/settings makes a new version; a rename does not. */
  async update(id: string, body: TemplateUpdate): Promise<Template> {
    return unwrap(this.core.api.PUT('/templates/{id}', { params: { path: { id } }, body }));
  }

  /** DELETE /templates/{id}. */
  async delete(id: string): Promise<void> {
    await unwrap(this.core.api.DELETE('/templates/{id}', { params: { path: { id } } }));
  }

  /** POST /templates/{id}/pin: renders use this version until unpinned (`null`). */
  async pin(id: string, version: number | null): Promise<TemplateSummary> {
    return unwrap(this.core.api.POST('/templates/{id}/pin', { params: { path: { id } }, body: { version } }));
  }

  /** GET /templates/{id}/fields: the data fields the template reads. */
  async fields(id: string, query: Query<'getTemplateFields'> = {}): Promise<TemplateFields> {
    return unwrap(this.core.api.GET('/templates/{id}/fields', { params: { path: { id }, query } }));
  }

  /** POST /templates/{id}/preview: a watermarked PDF of a stored version (counts nothing, stores nothing). */
  async preview(id: string, body: Body<'previewTemplate'> = {}): Promise<PdfFile> {
    const { data, error, response } = await this.core.api.POST('/templates/{id}/preview', {
      params: { path: { id } },
      body,
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || !response.ok) throw errorFrom(response, error);
    return readPdfFile(response, data as unknown as ArrayBuffer);
  }

  /** POST /templates/{id}/draft-preview: a watermarked PDF of unsaved html/css, as the editor shows it. */
  async previewDraft(id: string, body: TemplateDraftPreview): Promise<PdfFile> {
    const { data, error, response } = await this.core.api.POST('/templates/{id}/draft-preview', {
      params: { path: { id } },
      body,
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || !response.ok) throw errorFrom(response, error);
    return readPdfFile(response, data as unknown as ArrayBuffer);
  }

  /**
   * POST /templates/{id}/draft-preview/pages (extension): the same watermarked draft preview as base64 PNG
   * images of its first 10 pages (`image_width` pixels wide, default 1000).
   */
  async previewDraftPages(id: string, body: TemplateDraftPreviewPages): Promise<TemplatePreviewPages> {
    return unwrap(
      this.core.api.POST('/templates/{id}/draft-preview/pages', { params: { path: { id } }, body }),
    );
  }

  /**
   * GET /template-starters (extension): the gallery of starters shipped with Quire. Make a template from
   * one with `create({ name, html, css, sample_data, settings })` of the starter.
   */
  starters(): PagedList<TemplateStarter, never> {
    return singlePage(() => unwrap(this.core.api.GET('/template-starters')));
  }

  /** GET /template-starters/{id}/thumbnail.png (extension): the starter's first page as a PNG, 480 px wide. */
  async starterThumbnail(starterId: string): Promise<Uint8Array> {
    const { data, error, response } = await this.core.api.GET('/template-starters/{id}/thumbnail.png', {
      params: { path: { id: starterId } },
      parseAs: 'arrayBuffer',
    });
    if (error !== undefined || !response.ok) throw errorFrom(response, error);
    return new Uint8Array(data as unknown as ArrayBuffer); // parseAs: arrayBuffer
  }
}

/** /templates/{id}/versions. */
export class TemplateVersions extends Resource {
  /** GET /templates/{id}/versions, newest first. */
  list(templateId: string): PagedList<TemplateVersion, never> {
    return singlePage(() =>
      unwrap(this.core.api.GET('/templates/{id}/versions', { params: { path: { id: templateId } } })),
    );
  }
}
