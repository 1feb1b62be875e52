import Papa from 'papaparse';
import type { SheetData } from 'read-excel-file/node';
import { AppError } from '../shared/errors.js';

/**
 * Reading a spreadsheet (spec: POST /spreadsheets/parse, `spreadsheet` batches): CSV (RFC 4180, UTF-8
 * with or without BOM, `,` `;` or tab detected) or the first sheet of an XLSX. The first row names the
 * columns; rows left entirely empty are skipped. Every refusal is `invalid_request` naming the problem.
 */
export type Cell = string | number | boolean | null;

export interface Sheet {
  format: 'csv' | 'xlsx';
  columns: string[];
  /** Data rows (header excluded), each as long as `columns`. */
  rows: Cell[][];
}

/** Spec: Spreadsheet mapping, 500 entries — a sheet wider than that could not be mapped anyway. */
export const MAX_COLUMNS = 500;
/** An XLSX may unpack to at most this much (a zip bomb is refused before it is inflated). */
export const MAX_XLSX_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;
const MAX_XLSX_ENTRIES = 10_000;
/** Cells of one sheet (rows × columns), so a wide and long sheet cannot exhaust memory. */
export const MAX_CELLS = 2_000_000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (whitespace allowed between characters): anything else says so, never a garbled file. */
export function decodeBase64(content: string): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw new AppError(
      'invalid_request',
      'content_base64 is not valid base64; encode the file bytes with standard base64.',
    );
  }
  return Buffer.from(compact, 'base64');
}

/** Reads the file as CSV or XLSX (by its bytes: an XLSX is a ZIP) and checks the header and the row limit. */
export async function readSpreadsheet(bytes: Buffer, maxRows: number): Promise<Sheet> {
  const isZip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  const table = isZip ? await readXlsx(bytes) : readCsv(bytes);
  const nonEmpty = table.filter((row) => row.some((cell) => cell !== null && cell !== ''));
  const [header, ...rows] = nonEmpty;
  if (!header)
    throw new AppError('invalid_request', 'The spreadsheet is empty; its first row must name the columns.');
  const columns = checkHeader(header);
  if (rows.length === 0)
    throw new AppError('invalid_request', 'The spreadsheet has a header row but no data rows.');
  if (rows.length > maxRows) {
    throw new AppError(
      'invalid_request',
      `The spreadsheet has ${rows.length} data rows; at most ${maxRows} are allowed (the plan's batch limit). Split the file.`,
      { limit: 'batch_max_items', max: maxRows },
    );
  }
  if (rows.length * columns.length > MAX_CELLS)
    throw new AppError(
      'invalid_request',
      `The spreadsheet has more than ${MAX_CELLS} cells; split the file.`,
    );
  return {
    format: isZip ? 'xlsx' : 'csv',
    columns,
    rows: rows.map((row, i) => fitRow(row, columns.length, i)),
  };
}

function checkHeader(header: Cell[]): string[] {
  if (header.length > MAX_COLUMNS)
    throw new AppError(
      'invalid_request',
      `The spreadsheet has ${header.length} columns; at most ${MAX_COLUMNS} are allowed.`,
    );
  const columns = header.map((cell) => (cell === null ? '' : String(cell).trim()));
  // Trailing empty header cells are no columns (spreadsheet tools leave them); empty ones between are errors.
  while (columns.length > 0 && columns[columns.length - 1] === '') columns.pop();
  const seen = new Map<string, number>();
  for (const [i, name] of columns.entries()) {
    if (name === '')
      throw new AppError(
        'invalid_request',
        `Column ${columnLabel(i)} of the header row has no name; name every column.`,
      );
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new AppError(
        'invalid_request',
        `The header names "${name}" twice (columns ${columnLabel(earlier)} and ${columnLabel(i)}); column names must be unique.`,
      );
    }
    seen.set(name, i);
  }
  return columns;
}

/** Pads a short row with nulls; a row with values beyond the named columns is refused with its row number. */
function fitRow(row: Cell[], width: number, index: number): Cell[] {
  const extra = row.slice(width).some((cell) => cell !== null && cell !== '');
  if (extra) {
    throw new AppError(
      'invalid_request',
      `Row ${index + 2} has values beyond the ${width} named columns; give those columns a name in the header row.`,
    );
  }
  return Array.from({ length: width }, (_, i) => row[i] ?? null);
}

/** A1-style letters for column index `i` (0 → A), as spreadsheet users see them. */
export function columnLabel(i: number): string {
  let n = i + 1;
  let label = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    label = String.fromCharCode(65 + rem) + label;
    n = Math.floor((n - 1) / 26);
  }
  return label;
}

function readCsv(bytes: Buffer): Cell[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw notASpreadsheet();
  }
  // Binary files (PDF, images, old .xls) are not text: NUL bytes never occur in a CSV.
  if (text.includes('\u0000')) throw notASpreadsheet();
  const parsed = Papa.parse<string[]>(text, { delimiter: detectDelimiter(text), skipEmptyLines: false });
  const broken = parsed.errors.find((e) => e.type === 'Quotes');
  if (broken) {
    throw new AppError(
      'invalid_request',
      `The CSV has an unclosed quoted field starting in record ${(broken.row ?? 0) + 1}; close the quote (write "" for a quote inside a field).`,
    );
  }
  return parsed.data.map((row) => row.map((cell) => cell));
}

const DELIMITERS = [',', ';', '\t'] as const;

/** Records looked at to choose the separator. */
const SNIFF_RECORDS = 20;

/**
 * The separator is the one that splits the header row into the most named columns while the first
 * records split into that many fields too (quoted fields parsed as quoted); ties go to `,`, then `;`.
 * A one-column file reads the same with any. (Papa's own guess misjudges short files with quoted line
 * breaks.)
 */
export function detectDelimiter(text: string): string {
  let best: string = ',';
  let bestColumns = 1;
  for (const delimiter of DELIMITERS) {
    const sample = Papa.parse<string[]>(text, {
      delimiter,
      preview: SNIFF_RECORDS,
      skipEmptyLines: 'greedy',
    });
    if (sample.errors.some((e) => e.type === 'Quotes')) continue;
    const [header = [], ...rows] = sample.data;
    const named = header.filter((name) => name.trim() !== '').length;
    if (named <= bestColumns || rows.some((row) => row.length !== header.length)) continue;
    best = delimiter;
    bestColumns = named;
  }
  return best;
}

function notASpreadsheet(): AppError {
  return new AppError(
    'invalid_request',
    'The file is neither CSV (UTF-8 text) nor XLSX; export the sheet as CSV or XLSX.',
  );
}

async function readXlsx(bytes: Buffer): Promise<Cell[][]> {
  assertZipBounded(bytes);
  let data: SheetData;
  try {
    // Loaded with the first XLSX, not at every start.
    const { readSheet } = await import('read-excel-file/node');
    data = await readSheet(bytes, 1);
  } catch {
    throw new AppError(
      'invalid_request',
      'The file is a ZIP but not a readable XLSX workbook; save it again as .xlsx.',
    );
  }
  return data.map((row) => row.map(xlsxCell));
}

/** Typed cells: numbers and booleans stay typed, dates become ISO text (date only at midnight UTC). */
function xlsxCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

/**
 * Refuses a ZIP whose central directory declares more than MAX_XLSX_UNCOMPRESSED_BYTES or too many entries
 * (a zip bomb), before anything is inflated. ZIP64 archives are refused: no real XLSX needs them.
 */
export function assertZipBounded(bytes: Buffer): void {
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0)
    throw new AppError('invalid_request', 'The file looks like a ZIP but is damaged; save the XLSX again.');
  const entries = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  if (entries > MAX_XLSX_ENTRIES) throw zipTooLarge();
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50)
      throw new AppError(
        'invalid_request',
        'The XLSX file is damaged (its ZIP directory is broken); save it again.',
      );
    const size = bytes.readUInt32LE(offset + 24);
    if (size === 0xffffffff) throw zipTooLarge();
    total += size;
    if (total > MAX_XLSX_UNCOMPRESSED_BYTES) throw zipTooLarge();
    offset +=
      46 +
      bytes.readUInt16LE(offset + 28) +
      bytes.readUInt16LE(offset + 30) +
      bytes.readUInt16LE(offset + 32);
  }
}

function zipTooLarge(): AppError {
  return new AppError(
    'invalid_request',
    `The XLSX unpacks to more than ${MAX_XLSX_UNCOMPRESSED_BYTES / 1024 / 1024} MB; split the workbook or send CSV.`,
  );
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const earliest = Math.max(0, bytes.length - 22 - 65_535);
  for (let i = bytes.length - 22; i >= earliest; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}
