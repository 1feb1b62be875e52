import { PDFDict, type PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { decodedForCheck } from './capped-decode.js';
import type { Outcome } from './outcome.js';
import { isTrue, nonEmptyText } from './pdf-values.js';

/** The checks of the catalog and document information: tagging, language and title. */

/** Whether the document says it is tagged (/MarkInfo /Marked true) and has a structure tree; never throws. */
export function isTagged(doc: PDFDocument): boolean {
  try {
    const markInfo = doc.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
    return isTrue(markInfo?.get(PDFName.of('Marked'))) && hasStructTreeRoot(doc);
  } catch {
    return false;
  }
}

function hasStructTreeRoot(doc: PDFDocument): boolean {
  return doc.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict) !== undefined;
}

export function checkStructureTree(doc: PDFDocument): Outcome {
  const problems: string[] = [];
  const markInfo = doc.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
  if (!isTrue(markInfo?.get(PDFName.of('Marked'))))
    problems.push('the catalog has no /MarkInfo /Marked true');
  if (!hasStructTreeRoot(doc)) problems.push('the catalog has no /StructTreeRoot');
  if (isTrue(markInfo?.get(PDFName.of('Suspects')))) problems.push('/MarkInfo /Suspects is true');
  return { count: problems.length, detail: problems.length > 0 ? problems.join('; ') : undefined };
}

export function checkLanguage(doc: PDFDocument): Outcome {
  const lang = nonEmptyText(doc.catalog.lookup(PDFName.of('Lang')));
  return lang
    ? { count: 0, detail: `/Lang (${lang})` }
    : { count: 1, detail: 'the catalog has no non-empty /Lang' };
}

/** An XMP packet is a few KB; the cap keeps a damaged or hostile Length from costing more. */
export const MAX_XMP_BYTES = 4 * 1024 * 1024;

/**
 * The text of the catalog's XMP dc:title (its first rdf:li, or its content), undefined without one. A
 * packet past MAX_XMP_BYTES throws, failing the title check with a detail that says so.
 */
function xmpTitle(doc: PDFDocument): string | undefined {
  const metadata = doc.catalog.lookupMaybe(PDFName.of('Metadata'), PDFStream);
  const bytes = decodedForCheck(metadata, MAX_XMP_BYTES, 'the XMP metadata stream');
  if (bytes === undefined) return undefined;
  const xmp = Buffer.from(bytes).toString('utf8');
  const title = /<dc:title(?:\s[^>]*)?>([\s\S]*?)<\/dc:title>/.exec(xmp)?.[1];
  const text = title?.replace(/<[^>]*>/g, '').trim();
  return text ? text : undefined;
}

/**
 * PDF/UA wants the title in XMP dc:title (06-003); Quire's rule also takes the Info /Title, which is
 * what viewers show, and says in the detail when only that one is there.
 */
export function checkTitleDisplayed(doc: PDFDocument): Outcome {
  const problems: string[] = [];
  const info = doc.context.lookupMaybe(doc.context.trailerInfo.Info, PDFDict);
  const infoTitle = nonEmptyText(info?.lookup(PDFName.of('Title')));
  const xmp = xmpTitle(doc);
  if (!infoTitle && !xmp) problems.push('no title in the Info dictionary or XMP dc:title');
  const prefs = doc.catalog.lookupMaybe(PDFName.of('ViewerPreferences'), PDFDict);
  const display = prefs?.get(PDFName.of('DisplayDocTitle'));
  if (!isTrue(display))
    problems.push(
      display ? '/ViewerPreferences /DisplayDocTitle is not true' : 'no /ViewerPreferences /DisplayDocTitle',
    );
  if (problems.length > 0) return { count: problems.length, detail: problems.join('; ') };
  return {
    count: 0,
    detail: xmp ? undefined : 'the title is in the Info dictionary only, not in XMP dc:title',
  };
}
