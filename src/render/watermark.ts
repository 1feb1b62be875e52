import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import fontkit from '@cantoo/fontkit';
import {
  degrees,
  PDFContentStream,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rgb,
} from '@cantoo/pdf-lib';

import { WATERMARK_TEXT } from './watermark-text.js';

/**
 * An embedded TrueType font, never one of the standard 14: those are not embedded, which PDF/A
 * (e-invoices may be watermarked as test documents) forbids.
 */
const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
];

/** The mark spans this share of the page diagonal. */
const DIAGONAL_SHARE = 0.75;
const COLOR = rgb(0.8, 0.1, 0.1);
const OPACITY = 0.3;

let fontBytes: Promise<Buffer> | null = null;

function loadFont(): Promise<Buffer> {
  const path = FONT_CANDIDATES.find((p) => existsSync(p));
  if (!path)
    return Promise.reject(new Error(`no watermark font found (tried ${FONT_CANDIDATES.join(', ')})`));
  fontBytes ??= readFile(path);
  return fontBytes;
}

/**
 * Chromium's page content changes the coordinate system without restoring it (a y-flip), so the
 * existing streams are wrapped in q … Q before anything is drawn after them.
 */
function isolateExistingContent(doc: PDFDocument, page: PDFPage): void {
  const stream = (op: ReturnType<typeof pushGraphicsState>) =>
    doc.context.register(PDFContentStream.of(doc.context.obj({}), [op]));
  page.node.normalize();
  page.node.wrapContentStreams(stream(pushGraphicsState()), stream(popGraphicsState()));
}

function drawMark(page: PDFPage, font: PDFFont): void {
  const { width, height } = page.getSize();
  const angle = Math.atan2(height, width);
  const size = (DIAGONAL_SHARE * Math.hypot(width, height)) / font.widthOfTextAtSize(WATERMARK_TEXT, 1);
  const textWidth = font.widthOfTextAtSize(WATERMARK_TEXT, size);
  const capHeight = font.heightAtSize(size, { descender: false });
  // Text is drawn from its baseline start and rotated about it: shift so the middle of the text
  // lands on the middle of the page.
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  page.drawText(WATERMARK_TEXT, {
    x: width / 2 - (textWidth / 2) * cos + (capHeight / 2) * sin,
    y: height / 2 - (textWidth / 2) * sin - (capHeight / 2) * cos,
    size,
    font,
    color: COLOR,
    opacity: OPACITY,
    rotate: degrees((angle * 180) / Math.PI),
  });
}

/**
 * Draws the watermark over every page of a finished PDF. It is added after Chromium printed the
 * document, on top of its content, so nothing in the document's HTML or CSS can hide or remove it.
 */
export async function applyWatermark(pdf: Uint8Array): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await loadFont(), { subset: true });
  for (const page of doc.getPages()) {
    isolateExistingContent(doc, page);
    drawMark(page, font);
  }
  return Buffer.from(await doc.save());
}
