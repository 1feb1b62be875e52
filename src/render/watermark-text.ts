/**
 * Spec "Test documents": a visible, diagonal mark on every page. Apart from watermark.ts, which loads
 * pdf-lib and fontkit only when a test document is first marked.
 */
export const WATERMARK_TEXT = 'TEST DOCUMENT';
