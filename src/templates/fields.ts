import { type TSchema, Type } from 'typebox';
import { named } from '../http/schemas.js';

/**
 * `GET /templates/<id>/fields` (spec "Templates"): the fields a no-code form shows, read from a
 * version's sample data.
 *
 * Response layout:
 * - `fields`: flat list. Scalars by path (`customer.address.city`, type text/number/boolean/date),
 *   arrays of scalars as one `list` field, arrays of objects as one `line_items` field whose
 *   `fields` describe one item (the union of the keys of its first 20 items, paths like
 *   `items[].unit_price`). Objects themselves are not fields; their members are.
 * - `tree`: the same fields nested as the data is, each node with its exact `key`; objects appear as
 *   `type: "object"` nodes with `children`, line items keep their item fields in `children`.
 * - `truncated`: true when fields past 200, or deeper than 6 levels (a top-level key is level 1),
 *   were left out. Empty objects are left out; null values are `text` fields with example null.
 * Paths use the same notation as missing_variable warnings: `.key` for identifier keys,
 * `["a.b"]` for any other key (so a key `a.b` stays one key), `[]` for a list's items.
 */

export type ScalarType = 'text' | 'number' | 'boolean' | 'date';
export type FieldType = ScalarType | 'list' | 'line_items';
export type Example = string | number | boolean | null;

export interface TemplateField {
  path: string;
  key: string;
  type: FieldType;
  label: string;
  /** Scalars: the sample value (strings cut at 200 characters); lists: their first element. */
  example?: Example;
  /** Lists only: the type of their first non-null element. */
  item_type?: ScalarType;
  /** Line items only: the fields of one item. */
  fields?: TemplateField[];
}

export interface TemplateFieldNode extends Omit<TemplateField, 'type' | 'fields'> {
  type: FieldType | 'object';
  children?: TemplateFieldNode[];
}

export interface TemplateFields {
  fields: TemplateField[];
  tree: TemplateFieldNode[];
  truncated: boolean;
}

export const MAX_FIELDS = 200;
export const MAX_LEVELS = 6;
const ITEMS_SAMPLED = 20;
const MAX_EXAMPLE_CHARS = 200;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*\??$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function appendKey(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** `unit_price` → "Unit price", `vatId` → "Vat id". */
function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? key : words.charAt(0).toUpperCase() + words.slice(1);
}

function scalarType(value: unknown): ScalarType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string' && ISO_DATE.test(value)) return 'date';
  return 'text';
}

function example(value: unknown): Example {
  if (typeof value === 'string') return value.slice(0, MAX_EXAMPLE_CHARS);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}

/** One item holding every key seen in the first items (the first non-null value of a key wins). */
function unionItem(items: unknown[]): Json {
  const union: Json = {};
  for (const item of items.slice(0, ITEMS_SAMPLED)) {
    if (!isObject(item)) continue;
    for (const [key, value] of Object.entries(item)) {
      const seen = Object.hasOwn(union, key) ? union[key] : undefined;
      if (seen === undefined || seen === null) {
        Object.defineProperty(union, key, { value, enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return union;
}

class Walk {
  count = 0;
  truncated = false;

  object(obj: Json, path: string, level: number): TemplateFieldNode[] {
    const nodes: TemplateFieldNode[] = [];
    for (const [key, value] of Object.entries(obj)) {
      if (level > MAX_LEVELS || this.count >= MAX_FIELDS) {
        this.truncated = true;
        break;
      }
      const node = this.node(key, value, appendKey(path, key), level);
      if (node !== undefined) nodes.push(node);
    }
    return nodes;
  }

  node(key: string, value: unknown, path: string, level: number): TemplateFieldNode | undefined {
    const base = (type: TemplateFieldNode['type']) => ({ path, key, type, label: labelOf(key) });
    if (isObject(value)) {
      const children = this.object(value, path, level + 1);
      return children.length > 0 ? { ...base('object'), children } : undefined;
    }
    this.count += 1;
    if (!Array.isArray(value)) return { ...base(scalarType(value)), example: example(value) };
    const first = value.find((v) => v !== null && v !== undefined);
    if (isObject(first)) {
      return { ...base('line_items'), children: this.object(unionItem(value), `${path}[]`, level + 1) };
    }
    if (first === undefined || Array.isArray(first)) return base('list');
    return { ...base('list'), example: example(first), item_type: scalarType(first) };
  }
}

function flatten(nodes: TemplateFieldNode[]): TemplateField[] {
  const out: TemplateField[] = [];
  for (const { children, type, ...rest } of nodes) {
    if (type === 'object') out.push(...flatten(children ?? []));
    else if (type === 'line_items') out.push({ type, ...rest, fields: flatten(children ?? []) });
    else out.push({ type, ...rest });
  }
  return out;
}

/** The fields of `sampleData` (see the layout above); no sample data gives empty lists. */
export function templateFields(sampleData: Json | null | undefined): TemplateFields {
  if (!isObject(sampleData)) return { fields: [], tree: [], truncated: false };
  const walk = new Walk();
  const tree = walk.object(sampleData, '', 1);
  return { fields: flatten(tree), tree, truncated: walk.truncated };
}

const ExampleSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const ScalarTypeSchema = Type.Union(['text', 'number', 'boolean', 'date'].map((t) => Type.Literal(t)));

function commonProperties(types: string[]): Record<string, TSchema> {
  return {
    path: Type.String({ description: 'Liquid path, e.g. customer.address.city or items[].name' }),
    key: Type.String({ description: 'The key exactly as in the sample data' }),
    type: Type.Union(types.map((t) => Type.Literal(t))),
    label: Type.String(),
    example: Type.Optional(ExampleSchema),
    item_type: Type.Optional(ScalarTypeSchema),
  };
}

/** Nesting is at most 6 levels, so the schemas are unrolled rather than recursive ($ref-free). */
function fieldSchema(levels: number): TSchema {
  const types = ['text', 'number', 'boolean', 'date', 'list', 'line_items'];
  const nested: Record<string, TSchema> =
    levels > 1 ? { fields: Type.Optional(Type.Array(fieldSchema(levels - 1))) } : {};
  return Type.Object({ ...commonProperties(types), ...nested }, { additionalProperties: false });
}

function nodeSchema(levels: number): TSchema {
  const types = ['object', 'text', 'number', 'boolean', 'date', 'list', 'line_items'];
  const nested: Record<string, TSchema> =
    levels > 1 ? { children: Type.Optional(Type.Array(nodeSchema(levels - 1))) } : {};
  return Type.Object({ ...commonProperties(types), ...nested }, { additionalProperties: false });
}

/** Response schema of `GET /templates/<id>/fields`. */
export const TemplateFieldsSchema = named(
  'TemplateFields',
  Type.Object(
    {
      fields: Type.Array(fieldSchema(MAX_LEVELS + 1), { maxItems: MAX_FIELDS }),
      tree: Type.Array(nodeSchema(MAX_LEVELS + 1)),
      truncated: Type.Boolean({ description: 'Fields past 200 or deeper than 6 levels were left out' }),
    },
    { additionalProperties: false, description: 'Form fields read from the sample data' },
  ),
);
