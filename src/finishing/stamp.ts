import { readFileSync } from 'node:fs';
import fontkit from '@cantoo/fontkit';
import { degrees, type PDFDocument, type PDFFont, rgb } from '@cantoo/pdf-lib';
import { AppError } from '../shared/errors.js';
import type { StampOption } from './schema.js';

/**
 * The stamp's typeface: an embedded (subset) font, as PDF/A requires — the 14 standard fonts are not
 * embedded. Liberation Sans and DejaVu Sans are what the Chromium image ships.
 */
const FONT_FILES = [
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
];

let fontBytes: Buffer | undefined;
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
let parsedFont: ReturnType<Fontkit['create']> | undefined;

/**
 * fontkit that parses the stamp font once per process: pdf-lib calls `create` for every document, and
 * parsing the TrueType file was most of the stamp's cost. Subsetting reads the parsed font and leaves it
 * unchanged, so one parse serves every document.
 */
const cachingFontkit: Fontkit = {
  create: (bytes) => {
    parsedFont ??= fontkit.create(bytes);
    return parsedFont;
  },
};

function stampFontBytes(): Buffer {
  if (fontBytes) return fontBytes;
  for (const file of FONT_FILES) {
    try {
      fontBytes = readFileSync(file);
      return fontBytes;
    } catch {
      // try the next one
    }
  }
  throw new AppError('render_failed', 'No font for "stamp" is installed (Liberation Sans or DejaVu Sans).');
}

function hexColor(hex: string): ReturnType<typeof rgb> {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** Page indexes the stamp goes on (`pages`: all, first, rest). */
export function stampedPages(count: number, pages: StampOption['pages']): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  if (pages === 'first') return all.slice(0, 1);
  if (pages === 'rest') return all.slice(1);
  return all;
}

/**
 * `stamp`: the text drawn once across the middle of each chosen page, rotated about its own centre.
 * Real text in an embedded font: it can be found, copied, and survives PDF/A conversion.
 */
/** The stamp's typeface embedded (subset) in `doc`: also the text of a visible signature. */
export async function embedTextFont(doc: PDFDocument): Promise<PDFFont> {
  doc.registerFontkit(cachingFontkit);
  return doc.embedFont(stampFontBytes(), { subset: true });
}

export async function drawStamp(doc: PDFDocument, stamp: StampOption): Promise<void> {
  let font: PDFFont;
  try {
    font = await embedTextFont(doc);
    font.encodeText(stamp.text);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('invalid_request', '"stamp.text" has characters the stamp font cannot draw.', {
      field: 'stamp/text',
    });
  }
  const size = stamp.font_size ?? 48;
  const angle = stamp.angle ?? 45;
  const radians = (angle * Math.PI) / 180;
  const width = font.widthOfTextAtSize(stamp.text, size);
  const height = font.heightAtSize(size, { descender: false });
  const pages = doc.getPages();
  for (const index of stampedPages(pages.length, stamp.pages)) {
    const page = pages[index]!;
    const { width: pw, height: ph } = page.getSize();
    // The text's baseline start, so that its centre lands on the page's centre after rotation.
    const x = pw / 2 - (width / 2) * Math.cos(radians) + (height / 2) * Math.sin(radians);
    const y = ph / 2 - (width / 2) * Math.sin(radians) - (height / 2) * Math.cos(radians);
    page.drawText(stamp.text, {
      x,
      y,
      size,
      font,
      color: hexColor(stamp.color ?? '#888888'),
      opacity: stamp.opacity ?? 0.25,
      rotate: degrees(angle),
    });
  }
}

/** The test-document mark's colour and opacity (render/watermark.ts draws the same on rendered pages). */
const TEST_MARK = { color: rgb(204 / 255, 26 / 255, 26 / 255), opacity: 0.3, diagonalShare: 0.75 };

/**
 * Spec "Test documents" on pages Chromium did not print (PDFs merged into a test document): `text`
 * across each page's diagonal, as the renderer's mark is, in the embedded stamp font.
 */
export async function drawTestMark(doc: PDFDocument, pageIndexes: number[], text: string): Promise<void> {
  doc.registerFontkit(cachingFontkit);
  const font = await doc.embedFont(stampFontBytes(), { subset: true });
  const pages = doc.getPages();
  for (const index of pageIndexes) {
    const page = pages[index];
    if (!page) continue;
    const { width: pw, height: ph } = page.getSize();
    const radians = Math.atan2(ph, pw);
    const size = (TEST_MARK.diagonalShare * Math.hypot(pw, ph)) / font.widthOfTextAtSize(text, 1);
    const width = font.widthOfTextAtSize(text, size);
    const height = font.heightAtSize(size, { descender: false });
    page.drawText(text, {
      x: pw / 2 - (width / 2) * Math.cos(radians) + (height / 2) * Math.sin(radians),
      y: ph / 2 - (width / 2) * Math.sin(radians) - (height / 2) * Math.cos(radians),
      size,
      font,
      color: TEST_MARK.color,
      opacity: TEST_MARK.opacity,
      rotate: degrees((radians * 180) / Math.PI),
    });
  }
}
