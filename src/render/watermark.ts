import { WATERMARK_TEXT } from './watermark-text.js';

/** The mark spans this share of the page diagonal. */
const DIAGONAL_SHARE = 0.75;
/** Advance width of WATERMARK_TEXT in Liberation Sans Bold at 1 px (the glyphs' widths in em, summed). */
const TEXT_EM_WIDTH = 8.611;
/** CSS pixels per inch (the print parameters are in inches). */
const PX_PER_IN = 96;

/** What Page.printToPDF needs to print the test-document mark on every page. */
export interface WatermarkParams {
  displayHeaderFooter: true;
  headerTemplate: string;
  footerTemplate: string;
}

/**
 * Spec "Test documents": a visible diagonal mark on every page, drawn by Chromium at print time as the
 * page's header template. Chromium renders that template in a document of its own, page-sized and painted
 * over each printed page after the page's content, so nothing in the document — CSS (z-index, overlays,
 * `visibility`, `!important`) or script — can reach, hide or remove it; it repeats on every page in
 * fast and print mode alike (Paged.js pages are printed pages too). The text is an SVG <text>: real,
 * extractable text in an embedded (subset) Liberation Sans Bold, which PDF/A allows. It replaced a
 * pdf-lib stamp of the finished PDF (tens of ms of Node CPU per test document).
 *
 * `paper` is the sheet in inches; the template's own viewport is the printed sheet, and the SVG keeps
 * the text's proportions if the two differ (print mode: a document's own `@page size`).
 */
export function watermarkParams(paper: { paperWidth: number; paperHeight: number }): WatermarkParams {
  const width = paper.paperWidth * PX_PER_IN;
  const height = paper.paperHeight * PX_PER_IN;
  // Rising from bottom-left to top-right: a negative rotation in the y-down SVG coordinates.
  const angle = (-Math.atan2(height, width) * 180) / Math.PI;
  const fontPx = (DIAGONAL_SHARE * Math.hypot(width, height)) / TEXT_EM_WIDTH;
  const [cx, cy] = [width / 2, height / 2].map((n) => n.toFixed(2));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width.toFixed(2)} ${height.toFixed(2)}"` +
    ' preserveAspectRatio="xMidYMid meet" style="display:block;width:100%;height:100%">' +
    `<text x="${cx}" y="${cy}" text-anchor="middle" dominant-baseline="central"` +
    ` transform="rotate(${angle.toFixed(3)} ${cx} ${cy})"` +
    ` style="font:700 ${fontPx.toFixed(2)}px 'Liberation Sans','DejaVu Sans',sans-serif;fill:rgb(204,26,26);fill-opacity:0.3">` +
    `${WATERMARK_TEXT}</text></svg>`;
  return {
    displayHeaderFooter: true,
    headerTemplate: `<div style="position:fixed;left:0;top:0;width:100vw;height:100vh;margin:0;padding:0">${svg}</div>`,
    // Without an explicit empty footer Chromium prints its default one (the page number and URL).
    footerTemplate: '<span></span>',
  };
}
