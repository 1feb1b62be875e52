import { AppError } from '../shared/errors.js';
import { expandMargins, isLength, lengthToInches } from './lengths.js';
import { paperInches } from './paper.js';
import type { NamedFormat, PageOptions, RenderMode } from './types.js';

/** Page options as a request sends them (already JSON, not yet checked). */
export interface PageOptionsInput {
  mode?: unknown;
  format?: unknown;
  orientation?: unknown;
  margins?: unknown;
}

/** A template's stored page defaults (spec "Template": `settings`, with `margin` singular). */
export interface PageDefaults {
  mode?: unknown;
  format?: unknown;
  orientation?: unknown;
  margin?: unknown;
}

const MODES: readonly RenderMode[] = ['fast', 'print'];
const FORMATS: readonly NamedFormat[] = ['A4', 'A5', 'Letter', 'Legal'];
const ORIENTATIONS = ['portrait', 'landscape'] as const;
/** PDF's largest page side (200 in = 14,400 pt); anything larger is an "unusable page option". */
const MAX_SIDE_INCHES = 200;

/** The first value that was sent; an explicit null counts as sent (and is then refused). */
function pick(...values: unknown[]): unknown {
  return values.find((v) => v !== undefined);
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field });
}

function checkMode(value: unknown): RenderMode {
  if (MODES.includes(value as RenderMode)) return value as RenderMode;
  throw invalid('mode', 'mode must be "fast" or "print".');
}

function checkSide(value: unknown, side: 'width' | 'height'): string {
  const inches = isLength(value) ? lengthToInches(value) : null;
  if (inches === null || inches <= 0 || inches > MAX_SIDE_INCHES) {
    throw invalid(
      'format',
      `format.${side} must be a length above 0 and at most 200in, like "210mm" (units mm, cm, in, px, pt).`,
    );
  }
  return value as string;
}

function checkFormat(value: unknown): PageOptions['format'] {
  if (typeof value === 'string' && FORMATS.includes(value as NamedFormat)) return value as NamedFormat;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const extra = keys.filter((k) => k !== 'width' && k !== 'height');
    if (extra.length === 0 && keys.length === 2) {
      const box = value as { width: unknown; height: unknown };
      return { width: checkSide(box.width, 'width'), height: checkSide(box.height, 'height') };
    }
  }
  throw invalid('format', 'format must be "A4", "A5", "Letter", "Legal" or an object {width, height}.');
}

function checkOrientation(value: unknown): PageOptions['orientation'] {
  if (ORIENTATIONS.includes(value as PageOptions['orientation'])) return value as PageOptions['orientation'];
  throw invalid('orientation', 'orientation must be "portrait" or "landscape".');
}

function checkMargins(value: unknown, field: string): string {
  if (typeof value === 'string' && expandMargins(value) !== null) return value;
  throw invalid(
    field,
    `${field} must be one to four lengths separated by single spaces, each a bare 0 or a number with mm, cm, in, px or pt (e.g. "20mm" or "10mm 15mm").`,
  );
}

/** Spec: margins that leave no printable area are unusable page options, so invalid_request. */
function checkMarginsFit(page: PageOptions): void {
  const paper = paperInches(page.format, page.orientation);
  const box = expandMargins(page.margins);
  if (!box) return;
  const inch = (v: string) => lengthToInches(v) ?? 0;
  if (inch(box.left) + inch(box.right) >= paper.width || inch(box.top) + inch(box.bottom) >= paper.height) {
    throw invalid('margins', 'margins leave no printable area on the page.');
  }
}

/**
 * Validates request page options and fills the defaults of spec "Page option values": each option is
 * the request's, else the template's, else mode `fallbackMode` (print for templates, fast for HTML),
 * format A4, orientation portrait, margins 20mm. Throws invalid_request naming the option.
 */
export function resolvePageOptions(
  input: PageOptionsInput,
  defaults: PageDefaults = {},
  fallbackMode: RenderMode = 'fast',
): PageOptions {
  const format = checkFormat(pick(input.format, defaults.format, 'A4'));
  // Checked even when it will not apply, so a misspelt value is still named.
  const requested = checkOrientation(pick(input.orientation, defaults.orientation, 'portrait'));
  // Spec: orientation applies to the named formats only; a custom size is used as {width, height} say.
  const orientation = typeof format === 'object' ? 'portrait' : requested;
  const page: PageOptions = {
    mode: checkMode(pick(input.mode, defaults.mode, fallbackMode)),
    format,
    orientation,
    margins:
      input.margins !== undefined
        ? checkMargins(input.margins, 'margins')
        : checkMargins(pick(defaults.margin, '20mm'), defaults.margin !== undefined ? 'margin' : 'margins'),
  };
  checkMarginsFit(page);
  return page;
}
