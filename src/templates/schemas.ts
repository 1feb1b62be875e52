import { Type } from 'typebox';
import { AccessibilityReportSchema } from '../finishing/index.js';
import { DateTime, Nullable, named } from '../http/schemas.js';
import { TemplateSettingsSchema } from './settings.js';

/** Request schemas of the template routes (spec: Templates). Sizes in bytes are checked in content.ts. */

const Name = Type.String({ minLength: 1, maxLength: 100, description: '1 to 100 characters' });
const Html = Type.String({ minLength: 1, description: 'Liquid HTML, at most 500 KB; parsed on save' });
const Css = Type.String({ description: 'At most 500 KB' });
const SampleData = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Example data for previews, thumbnails and default renders; at most 1 MB as JSON',
});
const VersionNumber = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Message = Type.String({
  maxLength: 500,
  description:
    'Extension: a note on the version this request makes (plain text, at most 500 characters), shown as the version’s `message`. Ignored when no version is made.',
});

export const CreateTemplateBody = named(
  'TemplateCreate',
  Type.Object(
    {
      name: Name,
      html: Html,
      css: Type.Optional(Css),
      sample_data: Type.Optional(SampleData),
      settings: Type.Optional(TemplateSettingsSchema),
      message: Type.Optional(Message),
    },
    { additionalProperties: false },
  ),
);

export const UpdateTemplateBody = named(
  'TemplateUpdate',
  Type.Object(
    {
      name: Type.Optional(Name),
      html: Type.Optional(Html),
      css: Type.Optional(Nullable(Css)),
      sample_data: Type.Optional(SampleData),
      settings: Type.Optional(TemplateSettingsSchema),
      message: Type.Optional(Message),
    },
    {
      additionalProperties: false,
      minProperties: 1,
      description:
        'At least one field. Changing html, css, sample_data or settings makes a new version (settings are replaced as a whole; css null removes the stylesheet); a name-only change makes none.',
    },
  ),
);

export const PinBody = Type.Object(
  { version: Nullable(VersionNumber) },
  { additionalProperties: false, description: 'A version number to pin, or null to unpin' },
);

export const PreviewBody = Type.Object(
  {
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    version: Type.Optional(VersionNumber),
  },
  {
    additionalProperties: false,
    description:
      "Optional (an absent or empty body is {}). data defaults to the version's sample_data; version to the pinned one, else the current one. Page options are not accepted: the template's settings apply.",
  },
);

export const DraftPreviewBody = named(
  'TemplateDraftPreview',
  Type.Object(
    {
      html: Html,
      css: Type.Optional(Css),
      settings: Type.Optional(TemplateSettingsSchema),
      data: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), { description: 'At most 1 MB as JSON' }),
      ),
    },
    {
      additionalProperties: false,
      description:
        "Unsaved editor content, rendered as a preview and never saved. Omitted css and settings are the current version's; data defaults to its sample_data. Limits and the Liquid parse are those of saving.",
    },
  ),
);

/** The draft preview's body plus the page images' width (POST /templates/<id>/draft-preview/pages). */
export const DraftPreviewPagesBody = named(
  'TemplateDraftPreviewPages',
  Type.Object(
    {
      ...DraftPreviewBody.properties,
      accessibility_report: Type.Optional(
        Type.Boolean({
          description:
            'Extension: also check the preview PDF against the machine-checkable PDF/UA-1 conditions and answer the report as `accessibility` (the editor shows it beside the layout warnings).',
        }),
      ),
      image_width: Type.Optional(
        Type.Integer({
          minimum: 100,
          maximum: 1000,
          description: 'Width of each page image in pixels (100 to 1000; default 1000)',
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        "Unsaved editor content, as for draft-preview, and the width of the page images. Omitted css and settings are the current version's; data defaults to its sample_data.",
    },
  ),
);

const PreviewPageImage = Type.Object(
  {
    page: Type.Integer({ minimum: 1, description: '1-based page number' }),
    width: Type.Integer({ description: 'Pixels' }),
    height: Type.Integer({ description: 'Pixels' }),
    png_base64: Type.String({ description: 'The page as a PNG, base64-encoded' }),
  },
  { additionalProperties: false },
);

export const DraftPreviewPagesResponse = named(
  'TemplatePreviewPages',
  Type.Object(
    {
      page_count: Type.Integer({ minimum: 0, description: 'Pages of the whole preview PDF' }),
      pages: Type.Array(PreviewPageImage, {
        description: 'Images of the first pages, at most 10, in page order',
      }),
      truncated: Type.Boolean({
        description: 'True when pages holds fewer pages than page_count (the 10-page or size cap)',
      }),
      accessibility: Type.Optional(AccessibilityReportSchema),
    },
    { additionalProperties: false },
  ),
);

export const ListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  },
  { additionalProperties: false },
);

export const VersionQuery = Type.Object(
  { version: Type.Optional(VersionNumber) },
  { additionalProperties: false },
);

export const VersionList = named(
  'TemplateVersionList',
  Type.Object({
    data: Type.Array(
      named(
        'TemplateVersion',
        Type.Object({
          version: Type.Integer(),
          created_at: DateTime,
          message: Nullable(
            Type.String({ description: 'Extension: the note it was saved with (`message`), or null' }),
          ),
          author: Nullable(
            Type.String({
              description:
                'Extension: who saved it, the dashboard user’s email or the API key’s name and prefix; null for versions saved before this was recorded',
            }),
          ),
        }),
      ),
    ),
  }),
);
