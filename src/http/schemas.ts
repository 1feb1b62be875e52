import { type TSchema, Type } from 'typebox';
import { UUID_REGEX_SOURCE } from '../shared/ids.js';

/** Shared TypeBox schemas: one definition drives validation, static types and the OpenAPI document. */

/** Vendor keyword naming a schema; the document transform moves it to `components.schemas[name]`. */
export const COMPONENT_KEY = 'x-quire-component';

/**
 * The same schema, named for the OpenAPI document (src/docs/openapi-transform.ts). Named with a vendor
 * keyword rather than `$id`: every route compiles into one shared Ajv instance per part, where a repeated
 * `$id` is an error; Ajv runs with `strict: false`, so the keyword changes no validation.
 */
export function named<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [COMPONENT_KEY]: name };
}

/** Vendor keyword: the OpenAPI document shows the named component instead of this (looser) schema. */
export const DOCUMENTED_AS_KEY = 'x-quire-documented-as';

/**
 * The schema validates as is, but the document describes it as the named component (a schema Ajv never
 * sees, passed to the document transform), e.g. `e_invoice`, which the e-invoice validator checks.
 */
export function documentedAs<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [DOCUMENTED_AS_KEY]: name };
}

export const Uuid = Type.String({ pattern: UUID_REGEX_SOURCE, description: 'UUID (8-4-4-4-12 hex digits)' });

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const ErrorResponse = named(
  'Error',
  Type.Object(
    {
      error: Type.Object({
        code: Type.String(),
        message: Type.String(),
        docs_url: Type.String(),
        details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
    },
    { description: 'The error object (see /docs/errors)' },
  ),
);

export const DateTime = Type.String({ format: 'date-time' });

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Query `limit` 1–100 with a default (spec: document, batch and delivery lists). */
export function LimitQuery(defaultValue: number) {
  return Type.Integer({ minimum: 1, maximum: 100, default: defaultValue });
}

/** Error responses every authenticated route may give, for the OpenAPI document. */
export const COMMON_ERRORS = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  429: ErrorResponse,
  500: ErrorResponse,
} as const;

/**
 * Fixed-value headers that successful responses carry, for the OpenAPI document (src/docs/sent-headers.ts
 * says which operation sends which): `no-store` on answers that hold signed links or secrets (spec:
 * Conventions 8); signed downloads may be kept privately for the link's first minutes and are never sniffed;
 * a stored file is sandboxed so a PDF or XML opened in the browser runs no script in Quire's origin.
 */
export const SENT_HEADER = {
  noStore: Type.Literal('no-store', {
    description: 'Not to be stored by any cache (the answer holds signed links or secrets).',
  }),
  privateCache: Type.Literal('private, max-age=300', {
    description: 'A browser may keep the file for 5 minutes; shared caches must not.',
  }),
  sandbox: Type.Literal('sandbox', {
    description: 'The file opens in a sandbox: no script runs in this origin.',
  }),
  noSniff: Type.Literal('nosniff', { description: 'Browsers must use the declared content type.' }),
} as const;
