import { brotliDecompressSync } from 'node:zlib';
import { AppError } from '../shared/errors.js';
import { type RasterFormat, type RasterHeader, rasterFormat, readRasterHeader } from './raster-header.js';
import { rasteriseSvg } from './svg.js';

/** Size limits of the decoded file (README "Brand assets"); the JSON body's 5 MB bounds the base64 anyway. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const MAX_FONT_BYTES = 3 * 1024 * 1024;
/** A raster logo's sides: Chromium decodes it whole for every render that shows it. */
const MAX_LOGO_SIDE_PX = 8192;
/** What a WOFF2's tables may decompress to (real fonts: a few MB); see assertWoff2Bounded. */
export const MAX_WOFF2_SFNT_BYTES = 30 * 1024 * 1024;

/** What is stored and served for an uploaded file. */
export interface StoredFile {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg' | 'font/woff2' | 'font/ttf' | 'font/otf';
  ext: 'png' | 'jpg' | 'woff2' | 'ttf' | 'otf';
  /** A font's family name as the file declares it; null for a logo. */
  family: string | null;
}

function refuse(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('invalid_request', message, { field: 'content_base64', ...details });
}

function assertSize(bytes: Buffer, max: number, what: string): void {
  if (bytes.length > max)
    throw refuse(
      `The ${what} is ${bytes.length} bytes; at most ${max} bytes (${max / 1024 / 1024} MB) are accepted.`,
      {
        max_bytes: max,
      },
    );
}

/** The raster formats a logo is stored as it is (Chromium shows them); GIF and WebP are not accepted. */
const RASTER_LOGO = {
  PNG: { contentType: 'image/png', ext: 'png' },
  JPEG: { contentType: 'image/jpeg', ext: 'jpg' },
} as const;

function assertRasterSize(header: RasterHeader | null, kind: RasterFormat): void {
  if (!header) throw refuse(`The ${kind} image is damaged: its size cannot be read.`);
  for (const size of header.sizes)
    if (size.width > MAX_LOGO_SIDE_PX || size.height > MAX_LOGO_SIDE_PX)
      throw refuse(
        `The logo is ${size.width}×${size.height} px; at most ${MAX_LOGO_SIDE_PX} px per side are accepted.`,
      );
}

/** A logo: PNG and JPEG are kept as they are (after checking their header); SVG becomes PNG. */
export async function inspectLogo(bytes: Buffer): Promise<StoredFile> {
  assertSize(bytes, MAX_LOGO_BYTES, 'logo');
  const format = rasterFormat(bytes);
  if (format === 'PNG' || format === 'JPEG') {
    assertRasterSize(readRasterHeader(bytes), format);
    return { bytes, ...RASTER_LOGO[format], family: null };
  }
  return { bytes: rasteriseSvg(bytes), contentType: 'image/png', ext: 'png', family: null };
}

type FontFormat = Pick<StoredFile, 'contentType' | 'ext'>;

/** The font format from its first four bytes (magic), or a refusal naming what is accepted. */
function fontFormat(bytes: Buffer): FontFormat {
  const magic = bytes.toString('latin1', 0, 4);
  if (magic === 'wOF2') {
    assertWoff2Bounded(bytes);
    return { contentType: 'font/woff2', ext: 'woff2' };
  }
  if (magic === '\x00\x01\x00\x00' || magic === 'true') return { contentType: 'font/ttf', ext: 'ttf' };
  if (magic === 'OTTO') return { contentType: 'font/otf', ext: 'otf' };
  if (magic === 'wOFF') throw refuse('WOFF 1 fonts are not accepted; upload the WOFF2, TTF or OTF file.');
  if (magic === 'ttcf') throw refuse('Font collections (.ttc) are not accepted; upload one TTF or OTF font.');
  throw refuse('The file is not a WOFF2, TTF or OTF font.');
}

/** WOFF2 table tags with a known index (WOFF2 spec 5.1); index 63 means a 4-byte tag follows. */
const WOFF2_KNOWN_TAGS = 63;
const WOFF2_HEADER_BYTES = 48;

function lyingWoff2(what: string): AppError {
  return refuse(`The WOFF2 font is inconsistent: ${what}; export the font again.`, { limit: 'woff2_tables' });
}

/** A WOFF2 UIntBase128 at `at`: its value and the offset after it (spec: at most 5 bytes, no leading zeros). */
function base128(bytes: Buffer, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= bytes.length) throw lyingWoff2('its table directory is cut short');
    const byte = bytes[at + i] as number;
    if ((i === 0 && byte === 0x80) || value > 0x1ffffff)
      throw lyingWoff2('its table directory has a bad length');
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  throw lyingWoff2('its table directory has a bad length');
}

/**
 * Bounds what a WOFF2 decompresses to by its table directory, and checks the compressed data holds
 * exactly that (test/integration/untrusted/hostile-files.test.ts): fontkit allocates what the directory
 * declares and inflates the brotli stream into it, so a lying directory or a brotli bomb would cost
 * memory before any check. Here the declared tables must sum to at most MAX_WOFF2_SFNT_BYTES and Node's
 * brotli, stopped one byte past that sum, must produce exactly it.
 */
export function assertWoff2Bounded(bytes: Buffer): void {
  if (bytes.length < WOFF2_HEADER_BYTES) throw lyingWoff2('its header is cut short');
  if (bytes.toString('latin1', 4, 8) === 'ttcf')
    throw refuse('Font collections (.ttc) are not accepted; upload one TTF or OTF font.');
  if (bytes.readUInt32BE(8) !== bytes.length)
    throw lyingWoff2(`its header says ${bytes.readUInt32BE(8)} bytes but the file has ${bytes.length}`);
  const tables = bytes.readUInt16BE(12);
  const compressedSize = bytes.readUInt32BE(20);
  let at = WOFF2_HEADER_BYTES;
  let stream = 0;
  let original = 0;
  for (let i = 0; i < tables; i++) {
    if (at >= bytes.length) throw lyingWoff2('its table directory is cut short');
    const flags = bytes[at] as number;
    at += 1;
    let tag = '';
    if ((flags & 0x3f) === WOFF2_KNOWN_TAGS) {
      tag = bytes.toString('latin1', at, at + 4);
      at += 4;
    }
    const version = flags >> 6;
    let length: number;
    [length, at] = base128(bytes, at);
    const glyfOrLoca = (flags & 0x3f) === 10 || (flags & 0x3f) === 11 || tag === 'glyf' || tag === 'loca';
    const transformed = glyfOrLoca ? version === 0 : version !== 0;
    original += length;
    if (transformed) [length, at] = base128(bytes, at);
    stream += length;
  }
  const limit = MAX_WOFF2_SFNT_BYTES;
  if (original > limit || stream > limit || bytes.readUInt32BE(16) > limit)
    throw refuse(`The WOFF2 font's tables declare more than ${limit / 1024 / 1024} MB of font data.`, {
      limit: 'woff2_sfnt_bytes',
      max: limit,
    });
  if (at + compressedSize > bytes.length)
    throw lyingWoff2('its compressed data runs past the end of the file');
  let inflated: Buffer;
  try {
    inflated = brotliDecompressSync(bytes.subarray(at, at + compressedSize), { maxOutputLength: stream + 1 });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
      throw lyingWoff2(
        `its compressed data holds more than the ${stream} bytes its table directory declares`,
      );
    throw lyingWoff2('its compressed data is damaged');
  }
  if (inflated.length !== stream)
    throw lyingWoff2(
      `its table directory declares ${stream} bytes but the compressed data holds ${inflated.length}`,
    );
}

/** A font: recognised by its magic bytes, then parsed with fontkit (names, glyphs, character map). */
export async function inspectFont(bytes: Buffer): Promise<StoredFile> {
  assertSize(bytes, MAX_FONT_BYTES, 'font');
  const format = fontFormat(bytes);
  const fontkit = await import('@cantoo/fontkit');
  let family: string | null;
  try {
    const font = fontkit.create(bytes);
    if (!('numGlyphs' in font)) throw new Error('a font collection');
    if (font.numGlyphs < 1 || font.characterSet.length < 1) throw new Error('it has no glyphs');
    family = font.familyName;
  } catch (err) {
    throw refuse(`The font could not be read (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (!family) throw refuse('The font has no family name in its name table.');
  return { bytes, ...format, family };
}

/**
 * Reads an uploaded logo or font off the main thread on a time and memory budget (the untrusted-file pool,
 * wired in app.ts), in the uploading team's share of it (`team`). A port, so brand does not depend on the
 * pool that runs its own readers.
 */
export interface UploadReader {
  logo(team: string, bytes: Uint8Array, field: string): Promise<StoredFile>;
  font(team: string, bytes: Uint8Array, field: string): Promise<StoredFile>;
}
