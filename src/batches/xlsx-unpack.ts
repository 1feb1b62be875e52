import { crc32, inflateRawSync } from 'node:zlib';
import { Parser } from 'saxen';
import { AppError } from '../shared/errors.js';

/**
 * The XML parts of an XLSX that reading its first sheet needs, inflated here with a byte budget on what
 * actually comes out (docs/api-behaviours.md "Batches and spreadsheets"). A ZIP's sizes are claims:
 * the central directory, each local header and the deflate stream itself can disagree, and a reader
 * that trusts one of them can be made to inflate gigabytes from a few hundred KB. So every part read
 * must agree in both headers, inflate to exactly its declared size (zlib stops one byte past it), and
 * match its CRC; and all parts read together stay within MAX_XLSX_UNPACKED_BYTES.
 */

/** What the parts read (workbook, relationships, styles, shared strings, first sheet) may unpack to. */
export const MAX_XLSX_UNPACKED_BYTES = 64 * 1024 * 1024;
/** Entries in the ZIP's directory (a real workbook has tens; each costs a little to list). */
const MAX_XLSX_ENTRIES = 10_000;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DATA_DESCRIPTOR = 0x8;
const ZIP64 = 0xffffffff;

interface Entry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function damaged(what: string): AppError {
  return new AppError('invalid_request', `The XLSX file is damaged (${what}); save it again.`);
}

function tooLarge(): AppError {
  return new AppError(
    'invalid_request',
    `The XLSX unpacks to more than ${MAX_XLSX_UNPACKED_BYTES / 1024 / 1024} MB (its workbook, styles, shared strings and first sheet together); split the workbook or send CSV.`,
    { limit: 'xlsx_unpacked_bytes', max: MAX_XLSX_UNPACKED_BYTES },
  );
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const earliest = Math.max(0, bytes.length - 22 - 65_535);
  for (let i = bytes.length - 22; i >= earliest; i--) {
    if (bytes.readUInt32LE(i) === SIG_END) return i;
  }
  return -1;
}

/** The central directory's entries, each checked to lie inside the file. ZIP64 is refused (no XLSX needs it). */
function centralDirectory(bytes: Buffer): { entries: Entry[]; directoryStart: number } {
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) throw damaged('it has no ZIP directory');
  const count = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryStart = bytes.readUInt32LE(end + 16);
  let offset = directoryStart;
  if (count === 0xffff || offset === ZIP64 || directorySize === ZIP64) throw damaged('it is a ZIP64 archive');
  if (count > MAX_XLSX_ENTRIES)
    throw new AppError(
      'invalid_request',
      `The XLSX has more than ${MAX_XLSX_ENTRIES} files inside; save it again.`,
    );
  if (offset + directorySize > end) throw damaged('its ZIP directory points outside the file');
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > end || bytes.readUInt32LE(offset) !== SIG_CENTRAL)
      throw damaged('its ZIP directory is broken');
    const nameLength = bytes.readUInt16LE(offset + 28);
    const entry: Entry = {
      flags: bytes.readUInt16LE(offset + 8),
      method: bytes.readUInt16LE(offset + 10),
      crc: bytes.readUInt32LE(offset + 16),
      compressedSize: bytes.readUInt32LE(offset + 20),
      size: bytes.readUInt32LE(offset + 24),
      localOffset: bytes.readUInt32LE(offset + 42),
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLength),
    };
    if (entry.size === ZIP64 || entry.compressedSize === ZIP64 || entry.localOffset === ZIP64)
      throw damaged('it is a ZIP64 archive');
    entries.push(entry);
    offset += 46 + nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  return { entries, directoryStart };
}

/**
 * The entry's stored bytes, after checking that its local header says what the central directory says
 * (name, method, and, unless sizes follow the data, CRC and both sizes).
 */
function storedData(bytes: Buffer, entry: Entry, directoryStart: number): Buffer {
  const at = entry.localOffset;
  if (at + 30 > directoryStart || bytes.readUInt32LE(at) !== SIG_LOCAL)
    throw damaged(`the local header of ${entry.name} is missing`);
  const nameLength = bytes.readUInt16LE(at + 26);
  const dataStart = at + 30 + nameLength + bytes.readUInt16LE(at + 28);
  const flags = bytes.readUInt16LE(at + 6);
  const local = {
    method: bytes.readUInt16LE(at + 8),
    crc: bytes.readUInt32LE(at + 14),
    compressedSize: bytes.readUInt32LE(at + 18),
    size: bytes.readUInt32LE(at + 22),
  };
  const sizesFollow = (flags & FLAG_DATA_DESCRIPTOR) !== 0;
  const disagrees =
    bytes.toString('utf8', at + 30, at + 30 + nameLength) !== entry.name ||
    local.method !== entry.method ||
    (!sizesFollow &&
      (local.crc !== entry.crc ||
        local.compressedSize !== entry.compressedSize ||
        local.size !== entry.size));
  if (disagrees)
    throw new AppError(
      'invalid_request',
      `The XLSX's ZIP is inconsistent: the local header of ${entry.name} disagrees with the ZIP directory about its sizes; save the file again.`,
      { limit: 'zip_consistency' },
    );
  if (dataStart + entry.compressedSize > directoryStart)
    throw damaged(`${entry.name} runs past the ZIP directory`);
  return bytes.subarray(dataStart, dataStart + entry.compressedSize);
}

/** Inflates one entry to exactly its declared size, never a byte more than `budget`. */
function inflateEntry(bytes: Buffer, entry: Entry, directoryStart: number, budget: number): Uint8Array {
  if (entry.size > budget) throw tooLarge();
  if ((entry.flags & FLAG_ENCRYPTED) !== 0) throw damaged(`${entry.name} is encrypted`);
  const data = storedData(bytes, entry, directoryStart);
  let out: Buffer;
  if (entry.method === 0) out = data;
  else if (entry.method === 8) {
    try {
      // One byte of room past the declared size: a stream that produces it lied, and stops there.
      out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new AppError(
          'invalid_request',
          `The XLSX's ZIP is inconsistent: ${entry.name} inflates to more than the ${entry.size} bytes its headers declare; save the file again.`,
          { limit: 'zip_consistency' },
        );
      throw damaged(`${entry.name} does not inflate`);
    }
  } else throw damaged(`${entry.name} uses an unknown compression method`);
  if (out.length !== entry.size || crc32(out) !== entry.crc)
    throw damaged(`${entry.name} does not match its size or checksum`);
  return out;
}

/** Attributes of every element named `tag` (any namespace prefix) in a small XML part. */
function elements(xml: Uint8Array, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const parser = new Parser();
  parser.on('openTag', (name: string, attrs: () => Record<string, string>) => {
    if (name === tag || name.endsWith(`:${tag}`)) found.push(attrs());
  });
  parser.on('error', () => {
    throw damaged('its workbook is not valid XML');
  });
  parser.parse(Buffer.from(xml).toString('utf8'));
  return found;
}

/** `target` of a relationship in xl/_rels/workbook.xml.rels as a path inside the ZIP. */
function partPath(target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';

/**
 * The parts read-excel-file reads for the first sheet, by path. Read in two steps: the workbook and
 * its relationships name the first sheet, the styles and the shared strings; then only those are
 * inflated. Another sheet, an image or a printer setting is never inflated.
 */
export function unpackXlsx(bytes: Buffer): Record<string, Uint8Array> {
  const { entries, directoryStart } = centralDirectory(bytes);
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const parts: Record<string, Uint8Array> = {};
  let used = 0;
  const take = (name: string): Uint8Array | undefined => {
    const entry = byName.get(name);
    if (!entry || parts[name]) return parts[name];
    const out = inflateEntry(bytes, entry, directoryStart, MAX_XLSX_UNPACKED_BYTES - used);
    used += out.length;
    parts[name] = out;
    return out;
  };
  const workbook = take(WORKBOOK);
  const rels = take(WORKBOOK_RELS);
  if (!workbook || !rels)
    throw new AppError(
      'invalid_request',
      'The file is a ZIP but not a readable XLSX workbook; save it again as .xlsx.',
    );
  const targets = new Map(elements(rels, 'Relationship').map((r) => [r.Id ?? '', r]));
  const firstSheet = elements(workbook, 'sheet')[0];
  const sheetRelation = firstSheet && Object.entries(firstSheet).find(([key]) => /(^|:)id$/.test(key))?.[1];
  const sheetTarget = sheetRelation === undefined ? undefined : targets.get(sheetRelation)?.Target;
  if (sheetTarget) take(partPath(sheetTarget));
  for (const relation of targets.values()) {
    if (/\/(styles|sharedStrings)$/.test(relation.Type ?? '') && relation.Target)
      take(partPath(relation.Target));
  }
  // read-excel-file falls back to these paths when the relationships do not name them.
  take('xl/styles.xml');
  take('xl/sharedStrings.xml');
  return parts;
}
