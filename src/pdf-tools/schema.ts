import { type Static, type TObject, Type } from 'typebox';
import {
  AttachmentBody,
  MAX_ATTACHMENTS,
  MAX_MERGE_SOURCES,
  MergeSourceBody,
  PdfALevel,
  PdfMetadataBody,
  ProtectBody,
  SignBody,
  StampBody,
} from '../finishing/index.js';
import { Nullable, named, Uuid } from '../http/schemas.js';

/**
 * The PDF tools' bodies (docs/pdf-tools.md): extensions under /v1/pdf/…, none of them a spec field. A step
 * of the POST /v1/pdf finishing fields takes that field's shape (and rules) with `op` added.
 */

export const PdfSourceBody = named(
  'PdfToolSource',
  Type.Union(
    [
      Type.Object(
        {
          document_id: {
            ...Uuid,
            description: "One of your team's stored, succeeded PDF documents of the key's mode",
          },
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          pdf_base64: Type.String({
            minLength: 1,
            description: 'The PDF, base64 (within the 5 MB request body)',
          }),
        },
        { additionalProperties: false },
      ),
    ],
    { description: 'Extension: the PDF to work on — a stored document by id, or the file itself.' },
  ),
);

const Password = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 127,
    pattern: '^[^\\x00-\\x1f\\x7f]*$',
    description: 'Opens an encrypted source (its user or owner password). Never logged or returned',
  }),
);

/** A page selection: `3,1-2,5-` (1-based, open ranges, `last`). */
export const PAGE_SELECTION_PATTERN =
  '^\\s*(\\d+|last)(\\s*-\\s*(\\d+|last)?)?(\\s*,\\s*(\\d+|last)(\\s*-\\s*(\\d+|last)?)?)*\\s*$';

const Selection = (description: string) =>
  Type.String({ minLength: 1, maxLength: 1000, pattern: PAGE_SELECTION_PATTERN, description });

/** `{op, ...fields}`: a finishing field's object shape as a step. */
function opWith<Op extends string, T extends TObject>(op: Op, body: T, description: string) {
  const properties: T['properties'] = body.properties;
  return Type.Object({ op: Type.Literal(op), ...properties }, { additionalProperties: false, description });
}

const FillValue = Type.Union([
  Type.String({ maxLength: 10_000 }),
  Type.Boolean(),
  Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 100 }),
]);

export const TransformStepBody = named(
  'PdfTransformStep',
  Type.Union(
    [
      Type.Object(
        {
          op: Type.Literal('pages'),
          select: Selection('Pages to keep, in this order: `3,1-2,5-` (1-based; `5-` to the end; `last`)'),
        },
        { additionalProperties: false, description: 'Keep and reorder pages.' },
      ),
      Type.Object(
        {
          op: Type.Literal('rotate'),
          pages: Type.Union([Type.Literal('all'), Selection('Pages to turn, e.g. `2,4`')]),
          degrees: Type.Union([Type.Literal(90), Type.Literal(180), Type.Literal(270)], {
            description: 'Clockwise',
          }),
        },
        { additionalProperties: false, description: 'Turn pages clockwise.' },
      ),
      Type.Object(
        {
          op: Type.Literal('merge'),
          prepend: Type.Optional(Type.Array(MergeSourceBody, { minItems: 1, maxItems: MAX_MERGE_SOURCES })),
          append: Type.Optional(Type.Array(MergeSourceBody, { minItems: 1, maxItems: MAX_MERGE_SOURCES })),
        },
        {
          additionalProperties: false,
          description: 'PDFs before and after the pages, as `prepend`/`append` take them.',
        },
      ),
      Type.Object(
        {
          op: Type.Literal('fill'),
          fields: Type.Record(Type.String({ minLength: 1, maxLength: 500 }), FillValue, {
            minProperties: 1,
            maxProperties: 500,
            description:
              'AcroForm fields by full name: text for text fields, true/false for check boxes, an option for radio groups and choices (several for a multi-select list)',
          }),
        },
        {
          additionalProperties: false,
          description: 'Fill form fields; appearances regenerated, the form stays a form.',
        },
      ),
      Type.Object(
        { op: Type.Literal('flatten') },
        { additionalProperties: false, description: 'Draw the form fields into the pages and remove them.' },
      ),
      opWith('stamp', StampBody, 'A text watermark, as POST /v1/pdf `stamp`.'),
      opWith('metadata', PdfMetadataBody, 'Info and XMP, as POST /v1/pdf `pdf_metadata`.'),
      Type.Object(
        {
          op: Type.Literal('attach'),
          attachments: Type.Array(AttachmentBody, { minItems: 1, maxItems: MAX_ATTACHMENTS }),
        },
        { additionalProperties: false, description: 'Embedded files, as POST /v1/pdf `attachments`.' },
      ),
      Type.Object(
        { op: Type.Literal('pdf_a'), level: PdfALevel },
        {
          additionalProperties: false,
          description:
            'Convert to PDF/A (OutputIntent, XMP), checked; a file that cannot be made conformant is refused with the reasons.',
        },
      ),
      opWith('protect', ProtectBody, 'AES-256 encryption, as POST /v1/pdf `protect`; the last step.'),
      opWith(
        'sign',
        SignBody,
        'A PAdES signature with a team certificate, as POST /v1/pdf `sign`; the last step.',
      ),
    ],
    { description: 'Extension: one step of a transform, by `op`.' },
  ),
);

export type TransformStep = Static<typeof TransformStepBody>;

export const MAX_STEPS = 20;

export const InspectBody = named(
  'PdfInspectRequest',
  Type.Object(
    {
      source: PdfSourceBody,
      password: Password,
      text: Type.Optional(Type.Boolean({ description: 'Also return the text of each page' })),
    },
    { additionalProperties: false },
  ),
);

export const TransformBody = named(
  'PdfTransformRequest',
  Type.Object(
    {
      source: PdfSourceBody,
      password: Password,
      steps: Type.Array(TransformStepBody, { minItems: 1, maxItems: MAX_STEPS, description: 'Run in order' }),
      filename: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'The file name; default the source’s' }),
      ),
      response: Type.Optional(
        Type.Union([Type.Literal('binary'), Type.Literal('url')], {
          description: '`binary` (default): the file; `url`: the Document JSON with a signed link',
        }),
      ),
      metadata: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), { description: 'Your key-values, kept on the document' }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type TransformRequest = Static<typeof TransformBody>;

export const SplitBody = named(
  'PdfSplitRequest',
  Type.Object(
    {
      source: PdfSourceBody,
      password: Password,
      ranges: Type.Optional(
        Type.Array(Selection('The pages of one part, e.g. `2-3`'), { minItems: 1, maxItems: 100 }),
      ),
      every: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 10_000, description: 'Parts of this many pages' }),
      ),
    },
    { additionalProperties: false, description: 'Send `ranges` or `every`.' },
  ),
);

const Text = Nullable(Type.String());

export const InspectResponse = named(
  'PdfInspection',
  Type.Object({
    pages: Type.Integer(),
    page_sizes: Type.Array(
      Type.Object({ width_pt: Type.Number(), height_pt: Type.Number(), rotation: Type.Integer() }),
    ),
    pdf_version: Text,
    encrypted: Type.Boolean(),
    tagged: Type.Boolean(),
    pdf_a: Nullable(Type.Object({ part: Type.Integer(), conformance: Text })),
    pdf_ua: Nullable(Type.Object({ part: Type.Integer() })),
    metadata: Type.Object({
      title: Text,
      author: Text,
      subject: Text,
      keywords: Text,
      creator: Text,
      producer: Text,
      created_at: Text,
      modified_at: Text,
      language: Text,
    }),
    attachments: Type.Array(
      Type.Object({
        filename: Type.String(),
        mime_type: Text,
        size: Nullable(Type.Integer()),
        relationship: Text,
      }),
    ),
    form_fields: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.String({ description: 'text, checkbox, radio, choice, signature or button' }),
        value: Type.Union([Type.String(), Type.Boolean(), Type.Array(Type.String()), Type.Null()]),
        options: Type.Optional(Type.Array(Type.String())),
      }),
    ),
    signatures: Type.Array(
      Type.Object({
        field: Type.String(),
        signer: Text,
        signed_at: Text,
        reason: Text,
        covers_whole_document: Type.Boolean(),
        valid: Type.Boolean({
          description: "The signature matches the bytes it covers (the signer's trust is not judged)",
        }),
      }),
    ),
    fonts: Type.Array(Type.Object({ name: Type.String(), embedded: Type.Boolean() })),
    text: Type.Optional(Type.Array(Type.String(), { description: 'With `text: true`: each page’s text' })),
  }),
);
