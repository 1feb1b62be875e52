import { type Static, Type } from 'typebox';
import { DocumentSchema } from '../documents/index.js';
import { FinishingFields } from '../finishing/index.js';
import { DateTime, Nullable, named, Uuid } from '../http/schemas.js';
import { CaptureFields, DeliverBody, PageOptionFields } from '../production/index.js';

const JsonObject = Type.Record(Type.String(), Type.Unknown());
const Metadata = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 20 });

/** One `items` entry (spec: POST /batches): no unknown fields. */
export const BatchItemBody = Type.Object(
  {
    data: Type.Optional(JsonObject),
    filename: Type.Optional(Type.String({ maxLength: 100 })),
    metadata: Type.Optional(Metadata),
    deliver: Type.Optional(DeliverBody),
  },
  { additionalProperties: false },
);

/** `spreadsheet` (spec: POST /batches): a CSV or XLSX file whose rows become the items. */
export const SpreadsheetBody = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255 }),
    content_base64: Type.String({
      minLength: 1,
      description:
        'The CSV or XLSX file in standard base64. Read off the main thread within limits (docs/api-behaviours.md "Batches and spreadsheets", docs/security.md); a file past one is invalid_request with details.field and details.limit.',
    }),
    mapping: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: 255 }), { maxProperties: 500 }),
    ),
    email_column: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    defaults: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Extension: data every row starts from (e.g. the template sample values of fields no column fills); each mapped cell then sets its path over it, so a cell wins, an empty cell included (null).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** POST /batches body (spec: Batches). Exactly one of items/spreadsheet is checked in the route. */
export const BatchRequestBody = named(
  'BatchRequest',
  Type.Object(
    {
      template_id: Uuid,
      template_version: Type.Optional(Type.Integer({ minimum: 1 })),
      items: Type.Optional(Type.Array(BatchItemBody, { minItems: 1, maxItems: 10_000 })),
      spreadsheet: Type.Optional(SpreadsheetBody),
      filename_pattern: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      ...PageOptionFields,
      ...FinishingFields,
      deliver: Type.Optional(DeliverBody),
      metadata: Type.Optional(Metadata),
      test: Type.Optional(Type.Boolean()),
      wait_for: CaptureFields.wait_for,
    },
    { additionalProperties: false },
  ),
);

export type BatchRequest = Static<typeof BatchRequestBody>;

const Count = Type.Integer({ minimum: 0 });

export const BatchSchema = named(
  'Batch',
  Type.Object({
    id: Type.String(),
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('processing'),
      Type.Literal('completed'),
      Type.Literal('canceled'),
    ]),
    template_id: Type.String(),
    template_version: Nullable(Type.Integer()),
    test: Type.Boolean(),
    counts: Type.Object({
      total: Count,
      queued: Count,
      processing: Count,
      succeeded: Count,
      failed: Count,
      canceled: Count,
    }),
    metadata: Nullable(JsonObject),
    created_at: DateTime,
    completed_at: Nullable(DateTime),
    zip: Nullable(Type.Object({ url: Type.String(), expires_at: DateTime })),
  }),
);

/** Spec: Batch item — the item's Document plus `index`, `filename`, `error_message`, `document_url`. */
export const BatchItemSchema = named(
  'BatchItem',
  Type.Object({
    ...DocumentSchema.properties,
    index: Type.Integer(),
    filename: Nullable(Type.String()),
    error_message: Nullable(Type.String()),
    document_url: Nullable(Type.String()),
  }),
);
