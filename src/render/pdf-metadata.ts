import { quireVersion } from '../shared/version.js';

/** What a document's Info dictionary and catalog should say beyond what Chromium writes. */
export interface PdfMetadataInput {
  /** Used when the HTML has no <title> (Chromium then writes the page URL, `about:blank`). */
  fallbackTitle: string;
  html: string;
}

/** `<html lang="de-CH">` → `de-CH` (BCP 47 shape only: the value lands in the PDF catalog). */
const HTML_LANG = /<html\b[^>]*?\slang\s*=\s*["']?([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)["'\s>]/i;

export function htmlLanguage(html: string): string | null {
  return HTML_LANG.exec(html.slice(0, 64 * 1024))?.[1] ?? null;
}

/**
 * Title (Chromium's from <title>, else the fallback instead of `about:blank`), Producer and Creator naming
 * Quire, and /Lang from <html lang> (screen readers pick the voice from it).
 *
 * Written as an incremental update (PDF 32000-1 §7.5.6): the new Info dictionary and catalog are appended
 * after Chromium's bytes with an xref section pointing at them, so nothing before is parsed or rewritten.
 * Loading and saving the whole file with pdf-lib instead cost 5–30 ms of CPU per document on the hot path.
 * A file of another shape (an xref stream, e.g. after pdf-lib saved it) goes through pdf-lib.
 */
export async function applyPdfMetadata(pdf: Buffer, input: PdfMetadataInput): Promise<Buffer> {
  return appendMetadata(pdf, input) ?? rewriteMetadata(pdf, input);
}

function producerNames(): { creator: string; producer: string } {
  const quire = `Quire ${quireVersion()}`;
  return { creator: quire, producer: `${quire} (Chromium)` };
}

interface Trailer {
  size: number;
  root: number;
  info: number;
  startxref: number;
  /** Byte offset of each object number in the (single) classic xref table. */
  offsetOf(objectNumber: number): number | null;
}

/** The last trailer of a classic xref table with one subsection from 0, as Chromium (Skia) writes it. */
function readTrailer(pdf: Buffer): Trailer | null {
  const tail = pdf.subarray(Math.max(0, pdf.length - 1024)).toString('latin1');
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1] ?? Number.NaN);
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(tail)?.[1];
  if (!Number.isInteger(startxref) || trailer === undefined || /\/Prev\b|\/Encrypt\b/.test(trailer))
    return null;
  const size = Number(/\/Size\s+(\d+)/.exec(trailer)?.[1]);
  const root = Number(/\/Root\s+(\d+)\s+0\s+R/.exec(trailer)?.[1]);
  const info = Number(/\/Info\s+(\d+)\s+0\s+R/.exec(trailer)?.[1]);
  if (![size, root, info].every(Number.isInteger)) return null;
  const head = pdf.subarray(startxref, startxref + 32).toString('latin1');
  const section = /^xref\r?\n0 (\d+)\r?\n/.exec(head);
  if (!section || Number(section[1]) !== size) return null;
  const entries = startxref + (section[0]?.length ?? 0);
  return {
    size,
    root,
    info,
    startxref,
    offsetOf(n) {
      const entry = pdf.subarray(entries + n * 20, entries + n * 20 + 20).toString('latin1');
      const m = /^(\d{10}) 00000 n/.exec(entry);
      return m ? Number(m[1]) : null;
    },
  };
}

/** The dictionary text of `n 0 obj << … >> endobj` at `offset`, or null when it is not a plain dictionary. */
function readDictionary(pdf: Buffer, n: number, offset: number | null): string | null {
  if (offset === null) return null;
  const text = pdf.subarray(offset, Math.min(pdf.length, offset + 4096)).toString('latin1');
  const object = new RegExp(`^${n} 0 obj\\s*([\\s\\S]*?)\\s*endobj`).exec(text)?.[1];
  // A stream, or anything but one dictionary: leave it to pdf-lib.
  if (object === undefined || !object.startsWith('<<') || !object.endsWith('>>') || /\bstream\b/.test(object))
    return null;
  return object.slice(2, -2);
}

/** A PDF text string: literal for printable ASCII, else UTF-16BE with its byte-order mark. */
function pdfText(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return `(${value.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const utf16 = Buffer.from(value, 'utf16le').swap16().toString('hex').toUpperCase();
  return `<FEFF${utf16}>`;
}

/** The title Chromium wrote: a literal (decoded as far as needed to see `about:blank`) or a hex string. */
function titleToken(info: string): { raw: string; blank: boolean } | null {
  const literal = /\/Title\s*(\((?:\\[\s\S]|[^\\)])*\))/.exec(info)?.[1];
  if (literal !== undefined) {
    const text = literal.slice(1, -1).trim();
    return { raw: literal, blank: text === '' || text === 'about:blank' };
  }
  const hex = /\/Title\s*(<[0-9A-Fa-f\s]*>)/.exec(info)?.[1];
  if (hex !== undefined) return { raw: hex, blank: /^<(FEFF)?\s*>$/i.test(hex) };
  return null;
}

function appendMetadata(pdf: Buffer, input: PdfMetadataInput): Buffer | null {
  const trailer = readTrailer(pdf);
  if (!trailer) return null;
  const info = readDictionary(pdf, trailer.info, trailer.offsetOf(trailer.info));
  const catalog = readDictionary(pdf, trailer.root, trailer.offsetOf(trailer.root));
  if (info === null || catalog === null) return null;
  const { creator, producer } = producerNames();
  const title = titleToken(info);
  const keep = (key: string) => new RegExp(`/${key}\\s*(\\([^)]*\\)|<[^>]*>)`).exec(info)?.[0] ?? '';
  const newInfo = [
    `/Title ${title && !title.blank ? title.raw : pdfText(input.fallbackTitle)}`,
    `/Creator ${pdfText(creator)}`,
    `/Producer ${pdfText(producer)}`,
    keep('CreationDate'),
    keep('ModDate'),
  ]
    .filter(Boolean)
    .join('\n');
  const lang = htmlLanguage(input.html);
  const objects: Array<[number, string]> = [[trailer.info, `<<${newInfo}>>`]];
  if (lang && !/\/Lang\b/.test(catalog))
    objects.push([trailer.root, `<<${catalog}\n/Lang ${pdfText(lang)}>>`]);
  objects.sort((a, b) => a[0] - b[0]);

  // The update starts on a new line; offsets are counted in bytes (all of it is ASCII).
  let out = pdf[pdf.length - 1] === 0x0a ? '' : '\n';
  const offsets: Array<[number, number]> = [];
  for (const [n, body] of objects) {
    offsets.push([n, pdf.length + out.length]);
    out += `${n} 0 obj\n${body}\nendobj\n`;
  }
  const xrefAt = pdf.length + out.length;
  out += 'xref\n';
  for (const [n, offset] of offsets) out += `${n} 1\n${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<</Size ${trailer.size}\n/Root ${trailer.root} 0 R\n/Info ${trailer.info} 0 R\n/Prev ${trailer.startxref}>>\n`;
  out += `startxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(out, 'latin1')]);
}

/** The general path: pdf-lib (loaded on first use) reads and writes the whole file. */
async function rewriteMetadata(pdf: Buffer, input: PdfMetadataInput): Promise<Buffer> {
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const title = doc.getTitle()?.trim();
  doc.setTitle(!title || title === 'about:blank' ? input.fallbackTitle : title);
  const { creator, producer } = producerNames();
  doc.setCreator(creator);
  doc.setProducer(producer);
  const lang = htmlLanguage(input.html);
  if (lang) doc.setLanguage(lang);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
