import { AFRelationship, type PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { pdfText } from '../shared/pdf-objects.js';
import type { PdfMetadataOptions } from './schema.js';
import type { PlannedAttachment } from './steps/attachments.js';

/**
 * `pdf_metadata` into the Info dictionary (and catalog /Lang). For a PDF/A document pdf-lib mirrors the
 * Info entries into the XMP on save; otherwise `writeXmp` writes the same values there, so both say the
 * same whichever a reader looks at.
 */
export function writeDocumentInfo(doc: PDFDocument, metadata: PdfMetadataOptions): void {
  if (metadata.title !== undefined) doc.setTitle(metadata.title);
  if (metadata.author !== undefined) doc.setAuthor(metadata.author);
  if (metadata.subject !== undefined) doc.setSubject(metadata.subject);
  if (metadata.keywords !== undefined) doc.setKeywords(metadata.keywords);
  if (metadata.creator !== undefined) doc.setCreator(metadata.creator);
  if (metadata.language !== undefined) doc.setLanguage(metadata.language);
}

function xml(value: string): string {
  return value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An XMP packet with the Info values (Dublin Core, pdf, xmp) and any extra descriptions (the PDF/UA
 * identification), for documents that are not PDF/A (PDF/A's packet is pdf-lib's, see pdfa.ts).
 */
export function writeXmp(doc: PDFDocument, extensions: string[]): void {
  const fields: string[] = [];
  const title = doc.getTitle();
  if (title)
    fields.push(
      `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xml(title)}</rdf:li></rdf:Alt></dc:title>`,
    );
  const author = doc.getAuthor();
  if (author) fields.push(`<dc:creator><rdf:Seq><rdf:li>${xml(author)}</rdf:li></rdf:Seq></dc:creator>`);
  const subject = doc.getSubject();
  if (subject)
    fields.push(
      `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xml(subject)}</rdf:li></rdf:Alt></dc:description>`,
    );
  const lang = doc.catalog.lookup(PDFName.of('Lang'));
  const languageText = pdfText(lang);
  if (languageText)
    fields.push(`<dc:language><rdf:Bag><rdf:li>${xml(languageText)}</rdf:li></rdf:Bag></dc:language>`);
  const keywords = doc.getKeywords();
  if (keywords) fields.push(`<pdf:Keywords>${xml(keywords)}</pdf:Keywords>`);
  const producer = doc.getProducer();
  if (producer) fields.push(`<pdf:Producer>${xml(producer)}</pdf:Producer>`);
  const creator = doc.getCreator();
  if (creator) fields.push(`<xmp:CreatorTool>${xml(creator)}</xmp:CreatorTool>`);
  const packet =
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
    'xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">' +
    `${fields.join('')}</rdf:Description>${extensions.join('')}</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const stream = doc.context.stream(Buffer.from(packet, 'utf8'), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

/** `attachments` (and an e-invoice's XML): embedded files with their AFRelationship in the catalog /AF. */
export async function attachFiles(
  doc: PDFDocument,
  files: PlannedAttachment[],
  createdAt: Date,
): Promise<void> {
  for (const file of files) {
    await doc.attach(file.bytes, file.filename, {
      mimeType: file.mimeType,
      ...(file.description === undefined ? {} : { description: file.description }),
      afRelationship: AFRelationship[file.relationship],
      creationDate: createdAt,
      modificationDate: createdAt,
    });
  }
}
