import { AppError } from '../shared/errors.js';
import { rasteriseSvg } from './svg.js';

/** Size limits of the decoded file (README "Brand assets"); the JSON body's 5 MB bounds the base64 anyway. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const MAX_FONT_BYTES = 3 * 1024 * 1024;
/** A raster logo's sides: Chromium decodes it whole for every render that shows it. */
const MAX_LOGO_SIDE_PX = 8192;
/** WOFF2 declares its decompressed size: refuse a compression bomb before fontkit inflates it. */
const MAX_WOFF2_SFNT_BYTES = 30 * 1024 * 1024;

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

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function isPng(bytes: Buffer): boolean {
  return bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

function isJpeg(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** Width and height from the PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Width and height from the JPEG's first start-of-frame marker (SOF0–SOF15 except DHT, JPG, DAC). */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return null;
}

function assertRasterSize(size: { width: number; height: number } | null, kind: string): void {
  if (!size || size.width < 1 || size.height < 1)
    throw refuse(`The ${kind} image is damaged: its size cannot be read.`);
  if (size.width > MAX_LOGO_SIDE_PX || size.height > MAX_LOGO_SIDE_PX)
    throw refuse(
      `The logo is ${size.width}×${size.height} px; at most ${MAX_LOGO_SIDE_PX} px per side are accepted.`,
    );
}

/** A logo: PNG and JPEG are kept as they are (after checking their header); SVG becomes PNG. */
export async function inspectLogo(bytes: Buffer): Promise<StoredFile> {
  assertSize(bytes, MAX_LOGO_BYTES, 'logo');
  if (isPng(bytes)) {
    assertRasterSize(pngSize(bytes), 'PNG');
    return { bytes, contentType: 'image/png', ext: 'png', family: null };
  }
  if (isJpeg(bytes)) {
    assertRasterSize(jpegSize(bytes), 'JPEG');
    return { bytes, contentType: 'image/jpeg', ext: 'jpg', family: null };
  }
  return { bytes: await rasteriseSvg(bytes), contentType: 'image/png', ext: 'png', family: null };
}

type FontFormat = Pick<StoredFile, 'contentType' | 'ext'>;

/** The font format from its first four bytes (magic), or a refusal naming what is accepted. */
function fontFormat(bytes: Buffer): FontFormat {
  const magic = bytes.toString('latin1', 0, 4);
  if (magic === 'wOF2') {
    if (bytes.length < 20 || bytes.readUInt32BE(16) > MAX_WOFF2_SFNT_BYTES)
      throw refuse('The WOFF2 font declares more than 30 MB of font data.');
    return { contentType: 'font/woff2', ext: 'woff2' };
  }
  if (magic === '\x00\x01\x00\x00' || magic === 'true') return { contentType: 'font/ttf', ext: 'ttf' };
  if (magic === 'OTTO') return { contentType: 'font/otf', ext: 'otf' };
  if (magic === 'wOFF') throw refuse('WOFF 1 fonts are not accepted; upload the WOFF2, TTF or OTF file.');
  if (magic === 'ttcf') throw refuse('Font collections (.ttc) are not accepted; upload one TTF or OTF font.');
  throw refuse('The file is not a WOFF2, TTF or OTF font.');
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
