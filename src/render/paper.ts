import { expandMargins, lengthToInches } from './lengths.js';
import type { PageOptions, PdfOptions } from './types.js';

/** Exact paper sizes (ISO 216 in mm, ANSI in inches); Chromium's own table rounds A4 to 8.27 × 11.7 in. */
const PAPER: Record<string, { width: string; height: string }> = {
  a3: { width: '297mm', height: '420mm' },
  a4: { width: '210mm', height: '297mm' },
  a5: { width: '148mm', height: '210mm' },
  a6: { width: '105mm', height: '148mm' },
  letter: { width: '8.5in', height: '11in' },
  legal: { width: '8.5in', height: '14in' },
  tabloid: { width: '11in', height: '17in' },
  ledger: { width: '17in', height: '11in' },
};

/** The paper of a page-options value as two lengths, already turned for landscape. */
export function paperLengths(
  format: PageOptions['format'],
  orientation: PageOptions['orientation'],
): { width: string; height: string } {
  const size = typeof format === 'object' ? format : PAPER[format.toLowerCase()];
  if (!size) throw new Error(`unknown paper format ${String(format)}`);
  return orientation === 'landscape' ? { width: size.height, height: size.width } : { ...size };
}

export function paperInches(
  format: PageOptions['format'],
  orientation: PageOptions['orientation'],
): { width: number; height: number } {
  const size = paperLengths(format, orientation);
  return { width: inches(size.width), height: inches(size.height) };
}

/**
 * Page options as Chromium print options: explicit width/height (landscape already applied, so
 * `landscape` stays unset) and the margins shorthand expanded to four sides.
 */
export function pageOptionsToPdfOptions(page: PageOptions, preferCSSPageSize: boolean): PdfOptions {
  const margin = expandMargins(page.margins);
  if (!margin) throw new Error(`margins were not validated: ${page.margins}`);
  return { ...paperLengths(page.format, page.orientation), margin, preferCSSPageSize, printBackground: true };
}

/** Spec lengths, plus bare numbers as px the way playwright's page.pdf() reads them. */
function inches(value: string): number {
  const parsed = /^\d+(\.\d+)?$/.test(value) ? Number(value) / 96 : lengthToInches(value);
  if (parsed === null) throw new Error(`not a length: ${value}`);
  return parsed;
}

/** The subset of CDP `Page.printToPDF` parameters Quire sets. */
export interface PrintToPdfParams {
  paperWidth: number;
  paperHeight: number;
  marginTop: number;
  marginRight: number;
  marginBottom: number;
  marginLeft: number;
  landscape: false;
  preferCSSPageSize: boolean;
  printBackground: boolean;
}

/** Mode-strategy PDF options → CDP parameters in inches (format names are case-insensitive). */
export function toPrintToPdfParams(options: PdfOptions): PrintToPdfParams {
  const named = options.format ? paperLengths(options.format as PageOptions['format'], 'portrait') : null;
  let width = inches(options.width ?? named?.width ?? PAPER.a4!.width);
  let height = inches(options.height ?? named?.height ?? PAPER.a4!.height);
  // Turned here rather than with CDP's `landscape` so the numbers sent are the paper actually printed.
  if (options.landscape) [width, height] = [height, width];
  const m = options.margin;
  return {
    paperWidth: width,
    paperHeight: height,
    marginTop: m ? inches(m.top) : 0,
    marginRight: m ? inches(m.right) : 0,
    marginBottom: m ? inches(m.bottom) : 0,
    marginLeft: m ? inches(m.left) : 0,
    landscape: false,
    preferCSSPageSize: options.preferCSSPageSize,
    printBackground: options.printBackground,
  };
}
