import type { PDFStream } from '@cantoo/pdf-lib';
import { decodedStream } from '../../shared/pdf-objects.js';
import { PdfDecodeLimitError } from '../../shared/pdf-stream-decode.js';

/**
 * decodedStream for a check: a stream past `maxBytes` or its filter limit (PdfDecodeLimitError) throws
 * an error naming `what`, which fails the check that decodes it ("could not be checked: page 2's content
 * stream was not decoded: the stream decodes to more than … bytes") and only that check.
 */
export function decodedForCheck(
  stream: PDFStream | undefined,
  maxBytes: number,
  what: string,
): Uint8Array | undefined {
  try {
    return decodedStream(stream, maxBytes);
  } catch (err) {
    if (err instanceof PdfDecodeLimitError)
      throw new Error(`${what} was not decoded: ${err.message}`, { cause: err });
    throw err;
  }
}
