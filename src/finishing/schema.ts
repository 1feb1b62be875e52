import { type Static, Type } from 'typebox';
import { named, Uuid } from '../http/schemas.js';

/**
 * The finishing options (docs/pdf-output.md "Finishing options"): extensions of POST /v1/pdf, template
 * settings and batches. They never change a field the spec defines: the spec's `metadata` stays the
 * caller's key-values, `pdf_metadata` is what the PDF itself says.
 */
export const PdfALevel = Type.Union([
  Type.Literal('2b'),
  Type.Literal('2u'),
  Type.Literal('3b'),
  Type.Literal('3u'),
  Type.Literal('2a'),
  Type.Literal('3a'),
]);

const Text = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, description });

export const PdfMetadataBody = named(
  'PdfMetadata',
  Type.Object(
    {
      title: Type.Optional(
        Text(500, 'Info /Title and XMP dc:title; default the <title>, else the file name'),
      ),
      author: Type.Optional(Text(500, 'Info /Author and XMP dc:creator')),
      subject: Type.Optional(Text(1000, 'Info /Subject and XMP dc:description')),
      keywords: Type.Optional(Type.Array(Text(100, 'One keyword'), { maxItems: 50 })),
      language: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$',
          maxLength: 35,
          description: 'BCP 47 tag (catalog /Lang, XMP dc:language); default <html lang>',
        }),
      ),
      creator: Type.Optional(Text(200, 'Info /Creator and XMP xmp:CreatorTool; default Quire')),
    },
    {
      additionalProperties: false,
      description:
        "Extension: what the PDF itself says (Info and XMP). The spec's `metadata` stays the caller's key-values.",
    },
  ),
);

export const AfRelationship = Type.Union([
  Type.Literal('Source'),
  Type.Literal('Data'),
  Type.Literal('Alternative'),
  Type.Literal('Supplement'),
  Type.Literal('Unspecified'),
]);

export const MAX_ATTACHMENTS = 10;

export const AttachmentBody = named(
  'PdfAttachment',
  Type.Object(
    {
      filename: Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[^/\\\\\\x00-\\x1f]+$',
        description: 'Name shown by PDF readers; no path separators',
      }),
      content_base64: Type.String({ minLength: 1, description: 'The file, base64' }),
      mime_type: Type.String({
        pattern: '^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*$',
        maxLength: 127,
        description: 'e.g. text/csv, application/xml',
      }),
      description: Type.Optional(Type.String({ maxLength: 500 })),
      relationship: Type.Optional(AfRelationship),
    },
    { additionalProperties: false, description: 'Extension: one file embedded in the PDF.' },
  ),
);

const Permission = Type.Boolean({ description: 'Default true' });
/** No control characters: a password is one line of qpdf's argument file (finishing/protect.ts). */
const PASSWORD_PATTERN = '^[^\\x00-\\x1f\\x7f]*$';

const ProtectPermissions = Type.Object(
  {
    print: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('low'), Type.Literal('high')])),
    copy: Type.Optional(Permission),
    modify: Type.Optional(Permission),
    annotate: Type.Optional(Permission),
    fill_forms: Type.Optional(Permission),
    assemble: Type.Optional(Permission),
  },
  { additionalProperties: false },
);

export const ProtectBody = named(
  'PdfProtect',
  Type.Object(
    {
      owner_password: Type.String({
        minLength: 1,
        maxLength: 127,
        pattern: PASSWORD_PATTERN,
        description:
          'Needed to change the permissions. Never logged or returned; kept only sealed where a request or template is stored',
      }),
      user_password: Type.Optional(
        Type.String({
          maxLength: 127,
          pattern: PASSWORD_PATTERN,
          description: 'Needed to open the file; absent or empty: it opens without one',
        }),
      ),
      permissions: Type.Optional(ProtectPermissions),
    },
    {
      additionalProperties: false,
      description:
        'Extension: AES-256 encryption (qpdf). Passwords are never logged or returned; a queued request (async, batches) or a template keeps them only sealed with the server secret, erased with the job once the document is final. Not with pdf_a, sign or an e-invoice.',
    },
  ),
);

/** A template's stored `protect` as answers show it (and as a PUT sends it back to keep the passwords). */
export const ShownProtectBody = named(
  'PdfProtectShown',
  Type.Object(
    {
      permissions: Type.Optional(ProtectPermissions),
      owner_password_set: Type.Literal(true, { description: 'An owner password is stored (sealed)' }),
      user_password_set: Type.Boolean({ description: 'A user (open) password is stored (sealed)' }),
    },
    {
      additionalProperties: false,
      description:
        'Extension: a template’s protect without its passwords (never returned). Sent back unchanged in settings, it keeps the stored passwords.',
    },
  ),
);

export const StampBody = named(
  'PdfStamp',
  Type.Object(
    {
      text: Type.String({ minLength: 1, maxLength: 200 }),
      opacity: Type.Optional(Type.Number({ minimum: 0.05, maximum: 1, description: 'Default 0.25' })),
      angle: Type.Optional(Type.Number({ minimum: -360, maximum: 360, description: 'Degrees; default 45' })),
      font_size: Type.Optional(Type.Number({ minimum: 4, maximum: 200, description: 'Points; default 48' })),
      color: Type.Optional(
        Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb; default #888888' }),
      ),
      pages: Type.Optional(
        Type.Union([Type.Literal('all'), Type.Literal('first'), Type.Literal('rest')], {
          description: 'Default all',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'Extension: a text watermark on the chosen pages (the test-mode mark is drawn as well).',
    },
  ),
);

export const MAX_MERGE_SOURCES = 10;

export const MergeSourceBody = named(
  'PdfMergeSource',
  Type.Union(
    [
      Type.Object(
        {
          document_id: {
            ...Uuid,
            description:
              "One of the team's own stored, succeeded PDF documents of the same mode (test documents for a test document)",
          },
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          pdf_base64: Type.String({
            minLength: 1,
            description: 'A PDF, base64 (within the 5 MB request body); not encrypted',
          }),
        },
        { additionalProperties: false },
      ),
    ],
    {
      description:
        'Extension: one PDF merged into the document — a stored document by id, or the file itself.',
    },
  ),
);

/** A CSS length as page options take it (spec: "Page option values"; render/lengths.ts). */
const LENGTH_PATTERN = '^(?:0|(?:\\d+(?:\\.\\d+)?|\\.\\d+)(mm|cm|in|px|pt))$';
const BoxLength = (description: string) =>
  Type.String({ pattern: LENGTH_PATTERN, maxLength: 20, description: `${description}, e.g. 20mm` });

export const SignBody = named(
  'PdfSign',
  Type.Object(
    {
      certificate_id: Type.String({
        minLength: 1,
        maxLength: 100,
        description: "One of the team's certificates (POST /v1/certificates)",
      }),
      reason: Type.Optional(Text(200, 'The signature\'s /Reason, e.g. "Invoice issued"')),
      location: Type.Optional(Text(200, "The signature's /Location")),
      contact: Type.Optional(Text(200, "The signature's /ContactInfo")),
      visible: Type.Optional(
        Type.Object(
          {
            page: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Page number, from 1' }),
            x: BoxLength('From the left edge of the page'),
            y: BoxLength('From the top edge of the page'),
            width: BoxLength('Width'),
            height: BoxLength('Height'),
          },
          {
            additionalProperties: false,
            description:
              'Draw the signature: a framed box with the signer, the time and the reason. Absent: an invisible signature.',
          },
        ),
      ),
    },
    {
      additionalProperties: false,
      description:
        'Extension: a PAdES B-B signature (ETSI.CAdES.detached, SHA-256, signing-certificate-v2, the certificate chain embedded) with a team certificate (POST /v1/certificates), the last finishing step; the PDF stays PDF/A. With the operator’s QUIRE_TSA_URL, an RFC 3161 timestamp token is added (PAdES B-T); without it the signature carries the claimed signing time only. Not with protect.',
    },
  ),
);

const MergeSources = (where: string) =>
  Type.Optional(
    Type.Array(MergeSourceBody, {
      minItems: 1,
      maxItems: MAX_MERGE_SOURCES,
      description: `Extension: PDFs whose pages go ${where} the rendered pages, in this order. The merged document counts against the 50-page limit; every later finishing step (metadata, stamp, pdf_a, protect) applies to it.`,
    }),
  );

/** Spread into a request body (POST /pdf, batches) and template settings. */
export const FinishingFields = {
  pdf_a: Type.Optional({
    ...PdfALevel,
    description:
      'Extension: make the PDF PDF/A-2b, 2u, 3b or 3u, or level A (2a, 3a: tagged, Unicode, its structure checked) — checked before it is sent. Not with protect; attachments need level 3; level A not with tagged: false, prepend or append.',
  }),
  pdf_ua: Type.Optional(
    Type.Boolean({
      description:
        'Extension: PDF/UA — tagged, DisplayDocTitle, /Lang (from <html lang> or pdf_metadata.language, required) and pdfuaid in XMP.',
    }),
  ),
  tagged: Type.Optional(
    Type.Boolean({
      description:
        'Extension: a tagged PDF (a structure tree from the HTML, for screen readers). Default true: every PDF is tagged; `false` opts out.',
    }),
  ),
  outline: Type.Optional(
    Type.Boolean({ description: 'Extension: bookmarks from the headings (turns tagged on).' }),
  ),
  pdf_metadata: Type.Optional(PdfMetadataBody),
  attachments: Type.Optional(
    Type.Array(AttachmentBody, {
      maxItems: MAX_ATTACHMENTS,
      description:
        'Extension: files embedded in the PDF with their AFRelationship (with pdf_a: level 3 only).',
    }),
  ),
  protect: Type.Optional(ProtectBody),
  stamp: Type.Optional(StampBody),
  prepend: MergeSources('before'),
  append: MergeSources('after'),
  sign: Type.Optional(SignBody),
};

export const FinishingOptionsSchema = Type.Object(FinishingFields, { additionalProperties: false });
export type FinishingOptions = Static<typeof FinishingOptionsSchema>;
export type PdfMetadataOptions = NonNullable<FinishingOptions['pdf_metadata']>;
export type AttachmentOption = NonNullable<FinishingOptions['attachments']>[number];
export type ProtectOption = NonNullable<FinishingOptions['protect']>;
export type StampOption = NonNullable<FinishingOptions['stamp']>;
export type SignOption = NonNullable<FinishingOptions['sign']>;
export type PdfALevelName = Static<typeof PdfALevel>;
export type MergeSourceOption = Static<typeof MergeSourceBody>;
