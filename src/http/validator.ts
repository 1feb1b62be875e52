import { Ajv, type Options, type ValidateFunction } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { SchemaMemo } from './schema-memo.js';
import { deferCompile } from './schema-warm-up.js';

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
const bodyValidators = new SchemaMemo<ValidateFunction>((schema) => bodyAjv.compile(schema));
const textValidators = new SchemaMemo<ValidateFunction>((schema) => textAjv.compile(schema));

/**
 * Compiles each route's schema on its first request rather than at start: compiling every schema of every
 * route was a large share of the server's start-up, and most routes are not called in the first seconds.
 * Fastify reads `errors` from the function it was given, so the wrapper carries the compiled one's.
 */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({
  schema,
  httpPart,
  method,
  url,
}) => {
  const validators = httpPart === 'body' ? bodyValidators : textValidators;
  let compiled: ValidateFunction | undefined;
  deferCompile(method, url, () => {
    compiled ??= validators.get(schema as object);
  });
  const validate = (data: unknown) => {
    compiled ??= validators.get(schema as object);
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate as ReturnType<FastifySchemaCompiler<FastifySchema>>;
};
