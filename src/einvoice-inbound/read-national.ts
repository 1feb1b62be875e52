import { FR_BILLING_MODES, HR_CIUS_ID, splitUblNote } from '../einvoice/index.js';
import type { XmlNode } from './xml-dom.js';
import { all, at, compact, text } from './xml-path.js';

/** HR-CIUS process types (HR-BR-34). */
const HR_PROCESS = /^(P([1-9]|1[0-2])|P99:.+)$/;

/**
 * BT-23 as the model's `billing_mode`: a French billing mode or a Croatian process type. Other processes
 * (Peppol's billing process, which XRechnung and Peppol BIS fix) are the standard's, not the invoice's.
 */
function billingModeOf(process: string | undefined): string | undefined {
  if (process === undefined) return undefined;
  return (FR_BILLING_MODES as readonly string[]).includes(process) || HR_PROCESS.test(process)
    ? process
    : undefined;
}

type Note = string | { text: string; subject_code: string };

/** Notes keep their own spacing; one with a subject code (BT-21) becomes `{ text, subject_code }`. */
function notesOf(notes: Note[]): { notes?: Note[] } {
  return notes.length > 0 ? { notes } : {};
}

/** BG-1 notes with their subject codes and BT-23 of a CII document. */
export function ciiNational(root: XmlNode, doc: XmlNode | undefined) {
  const notes = all(doc, 'ram:IncludedNote').flatMap((n): Note[] => {
    const content = at(n, 'ram:Content')?.textContent ?? '';
    if (content.trim() === '') return [];
    const subject = text(n, 'ram:SubjectCode');
    return [subject ? { text: content, subject_code: subject } : content];
  });
  const process = text(
    root,
    'rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID',
  );
  return compact({ ...notesOf(notes), billing_mode: billingModeOf(process) });
}

/**
 * BG-1 notes (`#CODE#text` carries the subject code in UBL) and BT-23 of a UBL document, and for HR-CIUS its
 * issue time (HR-BT-2) and operator (HR-BT-4/HR-BT-5).
 */
export function ublNational(root: XmlNode) {
  const notes = all(root, 'cbc:Note').flatMap((n): Note[] => {
    const note = splitUblNote(n.textContent ?? '');
    if (note.text.trim() === '') return [];
    return [note.subject_code ? { text: note.text, subject_code: note.subject_code } : note.text];
  });
  const hr = text(root, 'cbc:CustomizationID') === HR_CIUS_ID;
  const contact = at(root, 'cac:AccountingSupplierParty/cac:SellerContact');
  const operator =
    hr && contact ? compact({ name: text(contact, 'cbc:Name'), id: text(contact, 'cbc:ID') }) : undefined;
  return compact({
    ...notesOf(notes),
    billing_mode: billingModeOf(text(root, 'cbc:ProfileID')),
    issue_time: hr ? text(root, 'cbc:IssueTime') : undefined,
    operator,
  });
}
