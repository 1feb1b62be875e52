import { Type } from 'typebox';
import type { LinkSigner } from '../documents/index.js';
import { DateTime, Nullable, named, Uuid } from '../http/schemas.js';
import { settingsToShow } from './protect-settings.js';
import { contentOf } from './records.js';
import type { TemplateRow, VersionRow } from './repository.js';
import { TemplateSettingsSchema } from './settings.js';

/** How long a template thumbnail link stays valid; every template response carries a fresh one. */
export const THUMBNAIL_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const ThumbnailUrl = Type.String({
  description: 'Signed link to a 480 px wide PNG of page 1 of this version, rendered from its sample data',
});

const SummaryFields = {
  id: Uuid,
  name: Type.String(),
  current_version: Type.Integer(),
  pinned_version: Nullable(Type.Integer()),
  updated_at: DateTime,
};

export const TemplateSummarySchema = named(
  'TemplateSummary',
  Type.Object(
    {
      ...SummaryFields,
      thumbnail_url: Type.Optional(ThumbnailUrl),
    },
    {
      description:
        'Template without content; thumbnail_url shows the version renders use (pinned, else current)',
    },
  ),
);

export const TemplateSchema = named(
  'Template',
  Type.Object({
    ...SummaryFields,
    version: Type.Integer({ description: 'Version whose content is returned' }),
    html: Type.String(),
    css: Nullable(Type.String()),
    sample_data: Nullable(Type.Record(Type.String(), Type.Unknown())),
    settings: TemplateSettingsSchema,
    thumbnail_url: ThumbnailUrl,
  }),
);

export interface LinkContext {
  signer: LinkSigner;
  publicUrl: string;
  nowMs: number;
}

/** Resource `tthumb:<id>:<version>`: a link is valid for that one version only. */
export function thumbnailResource(id: string, version: number): string {
  return `tthumb:${id}:${version}`;
}

export function thumbnailUrl(id: string, version: number, links: LinkContext): string {
  const expires = new Date(links.nowMs + THUMBNAIL_LINK_TTL_MS);
  const query = links.signer.query(thumbnailResource(id, version), expires, `v=${version}&`);
  return `${links.publicUrl}/v1/thumbnails/templates/${id}.png${query}`;
}

export function presentSummary(row: TemplateRow, links: LinkContext) {
  return {
    id: row.id,
    name: row.name,
    current_version: row.current_version,
    pinned_version: row.pinned_version,
    updated_at: row.updated_at,
    thumbnail_url: thumbnailUrl(row.id, row.pinned_version ?? row.current_version, links),
  };
}

/** The full Template: `version` and content from `version`, the rest from the template (spec: Template). */
export function presentTemplate(row: TemplateRow, version: VersionRow, links: LinkContext) {
  const content = contentOf(version);
  return {
    ...presentSummary(row, links),
    version: version.version,
    html: content.html,
    css: content.css,
    sample_data: content.sampleData,
    settings: settingsToShow(content.settings),
    thumbnail_url: thumbnailUrl(row.id, version.version, links),
  };
}
