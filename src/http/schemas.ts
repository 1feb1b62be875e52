import { type TSchema, Type } from 'typebox';
import { UUID_REGEX_SOURCE } from '../shared/ids.js';

/** Shared TypeBox schemas: one definition drives validation, static types and the OpenAPI document. */

export const Uuid = Type.String({ pattern: UUID_REGEX_SOURCE, description: 'UUID (8-4-4-4-12 hex digits)' });

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      docs_url: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { description: 'The error object (see /docs/errors)' },
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
