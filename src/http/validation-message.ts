import type { FastifySchemaValidationError } from 'fastify';
import { didYouMean } from './did-you-mean.js';

/**
 * Turns Ajv's schema violations into one sentence that names the field and says how to fix it: the allowed
 * values of an enum, every unknown field with a did-you-mean for near misses, the limit that was crossed.
 * Never Ajv's own phrasing ("must be equal to constant", "must NOT have fewer than 1 characters").
 * The validators run with `verbose`, so each error carries its schema, parent schema and data.
 */

type Schema = Record<string, unknown>;

export interface SchemaError extends FastifySchemaValidationError {
  schema?: unknown;
  parentSchema?: Schema;
  data?: unknown;
}

/** At most this many unknown fields are named in one message. */
const MAX_NAMED_FIELDS = 5;

export function describeValidationError(
  errors: FastifySchemaValidationError[],
  context: string | undefined,
): string {
  const where = context === 'body' ? 'body' : context === 'querystring' ? 'query' : (context ?? 'request');
  try {
    const first = pickError(errors as SchemaError[]);
    if (first) return describe(first, where);
  } catch {
    // A schema shape this code does not foresee must still give a 400, never a failing error handler.
  }
  return `The ${where} is invalid.`;
}

/**
 * Ajv lists the failures inside a union (`anyOf`) before the union's own error. A union is described as a
 * whole ("must be one of …"), unless the value's JSON type fits exactly one structured alternative (an object
 * for `format`): then that alternative's own first failure is the useful one.
 */
function pickError(errors: SchemaError[]): SchemaError | undefined {
  const first = errors[0];
  if (!first) return undefined;
  const union = errors
    .filter((e) => isUnion(e) && first.schemaPath.startsWith(`${e.schemaPath}/`))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
  if (!union) return first;
  const alternatives = (Array.isArray(union.schema) ? union.schema : []) as Schema[];
  const fitting = alternatives
    .map((schema, index) => ({ schema, index }))
    .filter(({ schema }) => acceptsTypeOf(schema, union.data));
  const only = fitting.length === 1 ? fitting[0] : undefined;
  if (!only || isLiteralChoice(only.schema)) return union;
  const inside = errors.filter((e) => e.schemaPath.startsWith(`${union.schemaPath}/${only.index}/`));
  return pickError(inside) ?? union;
}

function isUnion(error: SchemaError): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf';
}

function alternativesOf(schema: Schema): Schema[] | null {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? (list as Schema[]) : null;
}

/** A fixed value or a choice among fixed values: described by listing them. */
function isLiteralChoice(schema: Schema): boolean {
  if (schema.const !== undefined || Array.isArray(schema.enum)) return true;
  return alternativesOf(schema)?.every(isLiteralChoice) ?? false;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Whether `schema` could accept a value of `value`'s JSON type (its other rules aside). */
function acceptsTypeOf(schema: Schema, value: unknown): boolean {
  const nested = alternativesOf(schema);
  if (nested) return nested.some((s) => acceptsTypeOf(s, value));
  if (schema.const !== undefined) return jsonTypeOf(schema.const) === jsonTypeOf(value);
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return true;
  const actual = jsonTypeOf(value);
  return types.some(
    (t) => t === actual || (t === 'integer' && actual === 'number' && Number.isInteger(value)),
  );
}

/** "a", "b" or "c". */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** How one alternative of a union reads in a sentence: a literal, `null`, a type, an object's fields. */
function describeAlternative(schema: Schema): string[] {
  const nested = alternativesOf(schema);
  if (nested) return nested.flatMap(describeAlternative);
  if (schema.const !== undefined) return [JSON.stringify(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v));
  if (schema.type === 'null') return ['null'];
  if (schema.type === 'object' && typeof schema.properties === 'object' && schema.properties !== null) {
    return [`an object {${Object.keys(schema.properties).join(', ')}}`];
  }
  return [
    withArticle(Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'value')),
  ];
}

function describeUnion(error: SchemaError): string {
  const alternatives = (Array.isArray(error.schema) ? error.schema : []) as Schema[];
  const literal = alternatives.some(isLiteralChoice);
  const described = [...new Set(alternatives.flatMap(describeAlternative))];
  return `must be ${literal ? 'one of ' : ''}${orList(described)}`;
}

function describe(error: SchemaError, where: string): string {
  const base = pointerToPath(error.instancePath);
  const subject = base ? `Field "${base}"` : `The ${where}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return describeUnknownFields(error, base, where);
    case 'required':
      return describeMissingField(error, String(params.missingProperty), base, where);
    case 'pattern':
      return base === 'id' || base.endsWith('_id') || base.endsWith('Id')
        ? `${subject} must be a UUID.`
        : `${subject} has an invalid format.`;
    case 'anyOf':
    case 'oneOf':
      return `${subject} ${describeUnion(error)}.`;
    default:
      return `${subject} ${describeRule(error.keyword, params)}.`;
  }
}

/** The single-keyword rules, each stated as what the value must be. */
function describeRule(keyword: string, params: Record<string, unknown>): string {
  const limit = Number(params.limit);
  switch (keyword) {
    case 'type':
      return `must be ${withArticle(Array.isArray(params.type) ? params.type.join(' or ') : String(params.type))}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `must be one of ${orList(((params.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)))}`;
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`;
    case 'maxLength':
      return `must be at most ${limit} characters long`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'multipleOf':
      return `must be a multiple of ${Number(params.multipleOf)}`;
    case 'minProperties':
      return `must have at least ${plural(limit, 'field')}`;
    case 'maxProperties':
      return `must have at most ${plural(limit, 'key')}`;
    case 'minItems':
      return `must have at least ${plural(limit, 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(limit, 'item')}`;
    case 'uniqueItems':
      return 'must not contain the same item twice';
    case 'format':
      return `must be ${FORMAT_WORDS[String(params.format)] ?? `a valid ${String(params.format)}`}`;
    default:
      return 'does not have an allowed value';
  }
}

const FORMAT_WORDS: Record<string, string> = {
  'date-time': 'a date and time like "2026-01-31T12:00:00Z"',
  date: 'a date like "2026-01-31"',
  email: 'an email address',
  uri: 'an absolute URL',
  uuid: 'a UUID',
};

/** Every unknown key of the object (not just Ajv's first), each with a did-you-mean when one is close. */
function describeUnknownFields(error: SchemaError, base: string, where: string): string {
  const params = error.params as Record<string, unknown>;
  const known = Object.keys((error.parentSchema?.properties as Schema | undefined) ?? {});
  const sent = typeof error.data === 'object' && error.data !== null ? Object.keys(error.data) : [];
  const unknown = sent.filter((k) => !known.includes(k));
  if (unknown.length === 0) unknown.push(String(params.additionalProperty));
  const named = unknown.slice(0, MAX_NAMED_FIELDS).map((key) => {
    const suggestion = didYouMean(key, known);
    return {
      field: `"${join(base, key)}"`,
      hint: suggestion ? `did you mean "${join(base, suggestion)}"?` : '',
    };
  });
  const more = unknown.length > MAX_NAMED_FIELDS ? `, and ${unknown.length - MAX_NAMED_FIELDS} more` : '';
  const [only] = named;
  if (named.length === 1 && only)
    return `Unknown field ${only.field} in the ${where}${only.hint ? `; ${only.hint}` : '.'}`;
  const list = named.map((n) => (n.hint ? `${n.field} (${n.hint})` : n.field)).join(', ');
  return `Unknown fields in the ${where}: ${list}${more}.`;
}

/** A missing field, pointing at a sent key that looks like a misspelling of it. */
function describeMissingField(error: SchemaError, missing: string, base: string, where: string): string {
  const message = `Missing required field "${join(base, missing)}" in the ${where}`;
  const sent = typeof error.data === 'object' && error.data !== null ? Object.keys(error.data) : [];
  const known = Object.keys((error.parentSchema?.properties as Schema | undefined) ?? {});
  const lookalike = sent.find((k) => !known.includes(k) && didYouMean(k, [missing]) !== null);
  return lookalike
    ? `${message}; "${join(base, lookalike)}" was sent, did you mean "${missing}"?`
    : `${message}.`;
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[');
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

function withArticle(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
