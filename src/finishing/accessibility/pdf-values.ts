import { PDFBool, PDFName, type PDFObject, PDFRef } from '@cantoo/pdf-lib';
import { pdfText } from '../../shared/pdf-objects.js';

/** The small readings of PDF objects the checks share. */

export function isTrue(value: PDFObject | undefined): boolean {
  return value instanceof PDFBool && value.asBoolean();
}

/** A text string with more than white space in it. */
export function nonEmptyText(value: PDFObject | undefined): string | undefined {
  const text = pdfText(value)?.trim();
  return text ? text : undefined;
}

export function nameOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFName ? value.decodeText() : undefined;
}

export function refKey(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFRef ? value.toString() : undefined;
}
