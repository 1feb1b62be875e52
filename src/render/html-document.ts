/**
 * Builds the one HTML document a page loads from a job's HTML (fragment or full document) and CSS.
 * Spec (POST /pdf, `css`): "added as stylesheet before the HTML", so the request's CSS comes first in the
 * cascade and the document's own rules win at equal specificity.
 */

// A full document starts (after a BOM, whitespace and comments) with a doctype or an <html> tag.
const FULL_DOCUMENT = /^(?:\uFEFF)?(?:\s|<!--[\s\S]*?-->)*<(?:!doctype\b|html\b)/i;
const HEAD_OPEN = /<head\b[^>]*>/i;
const HTML_OPEN = /<html\b[^>]*>/i;
const DOCTYPE = /<!doctype\b[^>]*>/i;

export function isFullDocument(html: string): boolean {
  return FULL_DOCUMENT.test(html);
}

/** A `<style>` element whose text cannot close the element early. */
export function styleElement(css: string): string {
  // `<\/style` is the same text to the CSS parser but no end tag to the HTML tokenizer.
  return `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
}

function insertAfter(html: string, pattern: RegExp, insert: string): string | null {
  const match = pattern.exec(html);
  if (!match) return null;
  const end = match.index + match[0].length;
  return html.slice(0, end) + insert + html.slice(end);
}

/**
 * Fragments are wrapped in a standards-mode document (a bare fragment would render in quirks mode);
 * full documents get the stylesheet as the first element of their <head>.
 */
export function composeDocument(html: string, css?: string | null, headExtra = ''): string {
  const head = (css ? styleElement(css) : '') + headExtra;
  if (!isFullDocument(html)) {
    return `<!DOCTYPE html><html><head><meta charset="utf-8">${head}</head><body>${html}</body></html>`;
  }
  if (head === '') return html;
  return (
    insertAfter(html, HEAD_OPEN, head) ??
    insertAfter(html, HTML_OPEN, `<head>${head}</head>`) ??
    insertAfter(html, DOCTYPE, `<head>${head}</head>`) ??
    head + html
  );
}
