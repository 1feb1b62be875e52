import { Ajv, type Options } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default: { default?: AddFormats } & AddFormats })
  .default.default ?? (addFormatsModule as unknown as { default: AddFormats }).default) as AddFormats;

/**
 * Two Ajv instances, because the spec's rules differ by part: bodies must be rejected on unknown fields and
 * never type-coerced (Fastify's default silently drops unknown fields and turns "5" into 5); query strings
 * and path parameters arrive as text and need coercion.
 */
function makeAjv(options: Options): Ajv {
  // verbose: errors carry their schema and data, so messages can list allowed values and every unknown field.
  const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, verbose: true, ...options });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ removeAdditional: false, coerceTypes: false });
const textAjv = makeAjv({ removeAdditional: false, coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>;
};
