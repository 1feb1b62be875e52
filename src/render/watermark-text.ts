/**
 * Spec "Test documents": a visible, diagonal mark on every page (drawn by Chromium at print time,
 * watermark.ts). On its own so callers can name the text without loading the render engine.
 */
export const WATERMARK_TEXT = 'TEST DOCUMENT';
