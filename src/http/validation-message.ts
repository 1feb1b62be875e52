import type { FastifySchemaValidationError } from 'fastify';

/** Turns the first schema violation into a sentence that names the field (spec: unknown fields rejected naming the field). */
export function describeValidationError(
  errors: FastifySchemaValidationError[],
  context: string | undefined,
): string {
  const first = errors[0];
  if (!first) return 'The request is invalid.';
  const where = context === 'body' ? 'body' : context === 'querystring' ? 'query' : (context ?? 'request');
  const base = pointerToPath(first.instancePath);
  const params = first.params as Record<string, unknown>;
  switch (first.keyword) {
    case 'additionalProperties':
      return `Unknown field "${join(base, String(params.additionalProperty))}" in the ${where}.`;
    case 'required':
      return `Missing required field "${join(base, String(params.missingProperty))}" in the ${where}.`;
    case 'type':
      return base
        ? `Field "${base}" must be ${describeType(params.type)}.`
        : `The ${where} must be ${describeType(params.type)}.`;
    case 'pattern':
      return base === 'id' || base.endsWith('_id') || base.endsWith('Id')
        ? `Field "${base}" must be a UUID.`
        : `Field "${base}" has an invalid format.`;
    case 'anyOf':
    case 'oneOf':
      return `Field "${base}" does not match any allowed form.`;
    default:
      return base
        ? `Field "${base}" ${first.message ?? 'is invalid'}.`
        : `The ${where} ${first.message ?? 'is invalid'}.`;
  }
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

function describeType(type: unknown): string {
  const t = Array.isArray(type) ? type.join(' or ') : String(type);
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}
