import { addressKey, type EmailRequest, isPlainAddress } from '../email/index.js';
import { decodeBase64 } from '../shared/base64.js';
import { AppError } from '../shared/errors.js';
import type { BatchRequest } from './schema.js';
import type { ItemInput } from './service.js';
import type { Cell, Sheet } from './spreadsheet.js';

/** Reads a sheet's bytes with at most `maxRows` data rows (the server: UntrustedFiles, off the main thread). */
export type SheetReader = (bytes: Buffer, maxRows: number) => Promise<Sheet>;

type SpreadsheetBody = NonNullable<BatchRequest['spreadsheet']>;

/** Path segments that would reach an object's prototype instead of a data key. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The rows of a `spreadsheet` batch as items (semantics ours, see README):
 * - `mapping` column → data path: dotted paths build nested objects (`customer.name`); only mapped
 *   columns are used. Without `mapping`, every column is a top-level key named exactly as the column.
 * - cells keep the sheet's types (XLSX numbers, booleans, dates as ISO text; CSV text); empty cells are null.
 * - `defaults` (extension): the data every row starts from; mapped cells are set over it.
 * - `email_column`: each row's address becomes that item's `deliver.email.to`, with the batch's subject,
 *   message and reply_to; a row with an empty cell gets the batch's `deliver` as is.
 */
export async function spreadsheetItems(
  spreadsheet: SpreadsheetBody,
  maxRows: number,
  batchDeliver: { email?: EmailRequest } | undefined,
  read: SheetReader,
): Promise<ItemInput[]> {
  const sheet = await read(decodeBase64(spreadsheet.content_base64, 'spreadsheet.content_base64'), maxRows);
  const targets = mappingTargets(sheet, spreadsheet.mapping);
  const emailAt =
    spreadsheet.email_column === undefined
      ? -1
      : columnIndex(sheet, spreadsheet.email_column, 'email_column');
  return sheet.rows.map((row, r) => {
    // A copy per row: setPath writes into nested objects of the defaults.
    const data: Record<string, unknown> = spreadsheet.defaults ? structuredClone(spreadsheet.defaults) : {};
    for (const { column, path } of targets) setPath(data, path, row[column] ?? null);
    const to = emailAt < 0 ? null : emailOf(row[emailAt] ?? null, r, spreadsheet.email_column as string);
    return to === null ? { data } : { data, deliver: { email: { ...batchDeliver?.email, to } } };
  });
}

function columnIndex(sheet: Sheet, name: string, field: string): number {
  const at = sheet.columns.indexOf(name);
  if (at < 0) {
    throw new AppError(
      'invalid_request',
      `${field} names "${name}", which is not a column of the sheet; its columns are: ${sheet.columns.join(', ')}.`,
    );
  }
  return at;
}

/** Which column fills which data path, with the paths checked against each other. */
function mappingTargets(
  sheet: Sheet,
  mapping: Record<string, string> | undefined,
): { column: number; path: string[] }[] {
  const entries = mapping
    ? Object.entries(mapping).map(([column, path]) => ({
        column: columnIndex(sheet, column, 'mapping'),
        path: parsePath(column, path),
      }))
    : sheet.columns.map((column, i) => ({ column: i, path: [column] }));
  for (const [i, a] of entries.entries()) {
    for (const b of entries.slice(i + 1)) {
      if (isPrefix(a.path, b.path) || isPrefix(b.path, a.path)) {
        throw new AppError(
          'invalid_request',
          `mapping sends columns "${sheet.columns[a.column]}" and "${sheet.columns[b.column]}" to overlapping paths (${a.path.join('.')}, ${b.path.join('.')}); map each column to its own field.`,
        );
      }
    }
  }
  return entries;
}

function isPrefix(short: readonly string[], long: readonly string[]): boolean {
  return short.length <= long.length && short.every((key, i) => long[i] === key);
}

function parsePath(column: string, path: string): string[] {
  const segments = path.split('.');
  if (path === '' || segments.some((s) => s === '' || FORBIDDEN_KEYS.has(s))) {
    throw new AppError(
      'invalid_request',
      `mapping for column "${column}" is "${path}", which is not a field path; use keys separated by dots, such as customer.name.`,
    );
  }
  return segments;
}

function setPath(data: Record<string, unknown>, path: readonly string[], value: Cell): void {
  let node = data;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else {
      const child: Record<string, unknown> = {};
      node[key] = child;
      node = child;
    }
  }
  node[path[path.length - 1] as string] = value;
}

function emailOf(cell: Cell, rowIndex: number, column: string): string | null {
  if (cell === null || String(cell).trim() === '') return null;
  const address = String(cell).trim();
  if (address.length < 3 || address.length > 254 || !isPlainAddress(address)) {
    throw new AppError(
      'invalid_request',
      `Row ${rowIndex + 2}, column "${column}": "${address.slice(0, 80)}" is not one plain email address (name@example.com, without a display name, comments or a list).`,
      { field: 'spreadsheet.email_column' },
    );
  }
  return addressKey(address);
}

/** The suggested mapping (spec: parse result): column → a template field path when their names match. */
export function suggestMapping(
  columns: readonly string[],
  fields: readonly string[],
): Record<string, string | null> {
  const byPath = new Map(fields.map((f) => [normalize(f), f]));
  const byLastKey = new Map<string, string | null>();
  for (const field of fields) {
    const last = normalize(field.split('.').pop() ?? field);
    // A last key shared by two fields (billing.city, shipping.city) suggests neither.
    byLastKey.set(last, byLastKey.has(last) ? null : field);
  }
  const mapping: Record<string, string | null> = {};
  for (const column of columns) {
    const key = normalize(column);
    mapping[column] = byPath.get(key) ?? byLastKey.get(key) ?? null;
  }
  return mapping;
}

/** Case- and punctuation-insensitive form: "Customer Name", "customer_name", "customer.name" agree. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}
