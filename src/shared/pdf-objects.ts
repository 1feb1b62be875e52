import { PDFHexString, PDFRawStream, type PDFStream, PDFString } from '@cantoo/pdf-lib';
import { decodeStreamCapped } from './pdf-stream-decode.js';

/** A PDF text string, literal or hex, as a JS string; undefined for any other object. */
export function pdfText(value: unknown): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  return undefined;
}

/**
 * A stream's bytes with its filters undone, never more than `maxBytes` (decodeStreamCapped throws
 * PdfDecodeLimitError while it decodes); undefined when it is absent or not a plain stream object.
 */
export function decodedStream(stream: PDFStream | undefined, maxBytes: number): Uint8Array | undefined {
  if (!(stream instanceof PDFRawStream)) return undefined;
  return decodeStreamCapped(stream, maxBytes);
}
