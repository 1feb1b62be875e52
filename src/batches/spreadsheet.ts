import { zipSync } from 'fflate';
import Papa from 'papaparse';
import type { SheetData } from 'read-excel-file/universal';
import { AppError } from '../shared/errors.js';
import { unpackXlsx } from './xlsx-unpack.js';

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
/** Cells of one sheet (rows × columns), so a wide and long sheet cannot exhaust memory. */
export const MAX_CELLS = 2_000_000;

/**
 * Reads the file as CSV or XLSX (by its bytes: an XLSX is a ZIP) and checks the header and the limits.
 * Runs in an untrusted-file worker (src/untrusted): rows are taken one at a time and reading stops at
 * the first limit passed, so no file is parsed whole before it is refused.
 */
export async function readSpreadsheet(bytes: Buffer, maxRows: number): Promise<Sheet> {
  const isZip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  const sheet = new SheetBuilder(maxRows);
  if (isZip) for (const row of await readXlsx(bytes)) sheet.add(row);
  else readCsv(bytes, sheet);
  return { format: isZip ? 'xlsx' : 'csv', ...sheet.finish() };
}

/** Collects rows as they are read: the header first, then data rows fitted to it, within the limits. */
class SheetBuilder {
  readonly #maxRows: number;
  #columns: string[] | undefined;
  readonly #rows: Cell[][] = [];

  constructor(maxRows: number) {
    this.#maxRows = maxRows;
  }

  /** Takes the next row; rows left entirely empty are skipped. */
  add(row: readonly Cell[]): void {
    if (!row.some((cell) => cell !== null && cell !== '')) return;
    if (this.#columns === undefined) {
      this.#columns = checkHeader(row);
      return;
    }
    if (this.#rows.length >= this.#maxRows) {
      throw new AppError(
        'invalid_request',
        `The spreadsheet has at least ${this.#maxRows + 1} data rows; at most ${this.#maxRows} are allowed (the plan's batch limit). Split the file.`,
        { limit: 'batch_max_items', max: this.#maxRows },
      );
    }
    if ((this.#rows.length + 1) * this.#columns.length > MAX_CELLS)
      throw new AppError(
        'invalid_request',
        `The spreadsheet has more than ${MAX_CELLS} cells; split the file.`,
        {
          limit: 'cells',
          max: MAX_CELLS,
        },
      );
    this.#rows.push(fitRow(row, this.#columns.length, this.#rows.length));
  }

  finish(): { columns: string[]; rows: Cell[][] } {
    if (!this.#columns)
      throw new AppError('invalid_request', 'The spreadsheet is empty; its first row must name the columns.');
    if (this.#rows.length === 0)
      throw new AppError('invalid_request', 'The spreadsheet has a header row but no data rows.');
    return { columns: this.#columns, rows: this.#rows };
  }
}

function checkHeader(header: readonly Cell[]): string[] {
  // Trailing empty header cells are no columns (spreadsheet tools leave them); empty ones between are errors.
  let width = header.length;
  while (width > 0 && (header[width - 1] === null || String(header[width - 1]).trim() === '')) width -= 1;
  if (width > MAX_COLUMNS)
    throw new AppError(
      'invalid_request',
      `The spreadsheet has ${width} columns; at most ${MAX_COLUMNS} are allowed.`,
      { limit: 'columns', max: MAX_COLUMNS },
    );
  const columns = header.slice(0, width).map((cell) => (cell === null ? '' : String(cell).trim()));
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
function fitRow(row: readonly Cell[], width: number, index: number): Cell[] {
  for (let i = width; i < row.length; i++) {
    const cell = row[i];
    if (cell !== null && cell !== '' && cell !== undefined)
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

/** Streams the CSV's records into `sheet` one at a time; the first limit passed stops the parse. */
function readCsv(bytes: Buffer, sheet: SheetBuilder): void {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw notASpreadsheet();
  }
  // Binary files (PDF, images, old .xls) are not text: NUL bytes never occur in a CSV.
  if (text.includes('\u0000')) throw notASpreadsheet();
  let stopped: unknown;
  let record = 0;
  Papa.parse<string[]>(text, {
    delimiter: detectDelimiter(text),
    skipEmptyLines: false,
    step: (result, parser) => {
      record += 1;
      const broken = result.errors.find((e) => e.type === 'Quotes');
      try {
        if (broken)
          throw new AppError(
            'invalid_request',
            `The CSV has an unclosed quoted field starting in record ${record}; close the quote (write "" for a quote inside a field).`,
          );
        sheet.add(result.data);
      } catch (err) {
        stopped = err;
        parser.abort();
      }
    },
  });
  if (stopped !== undefined) throw stopped;
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

/**
 * The first sheet's rows. The parts it needs are unpacked by unpackXlsx (every inflated byte counted,
 * the ZIP's local headers checked against its directory), then handed to read-excel-file as a new,
 * uncompressed ZIP of those parts only, so the library never inflates anything a client wrote.
 */
async function readXlsx(bytes: Buffer): Promise<Cell[][]> {
  const parts = unpackXlsx(bytes);
  const clean = zipSync(parts, { level: 0 });
  let data: SheetData;
  try {
    // Loaded with the first XLSX, not at every start.
    const { readSheet } = await import('read-excel-file/universal');
    data = await readSheet(clean.buffer.slice(clean.byteOffset, clean.byteOffset + clean.byteLength), 1);
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
 * Reads a spreadsheet off the main thread on a time and memory budget (the untrusted-file pool, wired in
 * app.ts), in the uploading team's share of it (`team`). A port, so batches does not depend on the pool
 * that runs its own reader.
 */
export interface SpreadsheetReader {
  spreadsheet(team: string, bytes: Uint8Array, maxRows: number, field: string): Promise<Sheet>;
}
