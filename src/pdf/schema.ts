import { type Static, Type } from 'typebox';
import { DocumentSchema } from '../documents/index.js';
import { FinishingFields } from '../finishing/index.js';
import { documentedAs, named, Uuid } from '../http/schemas.js';
import {
  AccessibilityReportField,
  CaptureFields,
  DeliverBody,
  PageOptionFields,
} from '../production/index.js';

const JsonObject = Type.Record(Type.String(), Type.Unknown());

/**
 * The `e_invoice` envelope: its own fields are request fields, so an unknown one is `invalid_request` like
 * anywhere else in the body (spec: Conventions). Their values, and everything inside `invoice`, are checked
 * by the e-invoice validator, whose messages list the allowed standards and profiles and whose
 * `invalid_e_invoice` issues carry paths.
 */
const EInvoiceEnvelope = documentedAs(
  'EInvoice',
  Type.Object(
    {
      standard: Type.Optional(
        Type.Unknown({
          description:
            'factur-x, zugferd, xrechnung-cii or xrechnung-ubl (required); extensions: peppol, en16931-ubl, en16931-cii',
        }),
      ),
      profile: Type.Optional(Type.Unknown({ description: "Profile; default the standard's" })),
      invoice: Type.Optional(Type.Unknown({ description: 'The invoice (required)' })),
    },
    { additionalProperties: false },
  ),
);

/** POST /pdf body (spec: POST /pdf). Cross-field rules live in request-rules.ts. */
export const PdfRequestBody = named(
  'PdfRequest',
  Type.Object(
    {
      template_id: Type.Optional(Uuid),
      template_version: Type.Optional(Type.Integer({ minimum: 1 })),
      html: Type.Optional(Type.String({ minLength: 1 })),
      css: Type.Optional(Type.String()),
      data: Type.Optional(JsonObject),
      merge_data: Type.Optional(JsonObject),
      ...PageOptionFields,
      filename: Type.Optional(Type.String({ maxLength: 100 })),
      response: Type.Optional(Type.Union([Type.Literal('binary'), Type.Literal('url')])),
      metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 20 })),
      async: Type.Optional(Type.Boolean()),
      test: Type.Optional(Type.Boolean()),
      deliver: Type.Optional(DeliverBody),
      e_invoice: Type.Optional(EInvoiceEnvelope),
      ...FinishingFields,
      ...CaptureFields,
      ...AccessibilityReportField,
    },
    { additionalProperties: false },
  ),
);

export type PdfRequest = Static<typeof PdfRequestBody>;

const WarningSchema = named(
  'Warning',
  Type.Object({
    code: Type.String(),
    path: Type.Optional(Type.String()),
    selector: Type.Optional(Type.String()),
    page: Type.Optional(Type.Integer()),
    message: Type.Optional(
      Type.String({ description: 'Extension, script_error: the first line of the page error' }),
    ),
  }),
);

/** The `response: url` answer: the Document plus the request-specific fields. */
export const PdfUrlResponse = named(
  'DocumentResult',
  Type.Intersect([
    DocumentSchema,
    Type.Object({
      filename: Type.String(),
      metadata: Type.Union([JsonObject, Type.Null()]),
      warnings: Type.Array(WarningSchema),
      blocked_resources: Type.Array(Type.String()),
      e_invoice: Type.Optional(
        Type.Object({ standard: Type.String(), profile: Type.String(), xml_filename: Type.String() }),
      ),
    }),
  ]),
);

export const PdfQueuedResponse = named(
  'QueuedDocument',
  Type.Object({
    id: Type.String(),
    status: Type.Literal('queued'),
    created_at: Type.String(),
  }),
);
