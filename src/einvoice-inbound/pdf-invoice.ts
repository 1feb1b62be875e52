import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { decodedStream, pdfText } from '../shared/pdf-objects.js';
import { InboundRefusal } from './refusal.js';

/** Names Factur-X / ZUGFeRD 2.x / XRechnung-in-PDF give the invoice XML, in order of preference. */
const INVOICE_NAMES = ['factur-x.xml', 'xrechnung.xml', 'zugferd-invoice.xml', 'ZUGFeRD-invoice.xml'];
/** Largest embedded XML read (an invoice with 2,000 lines is about 2 MB). */
const MAX_XML_BYTES = 20 * 1024 * 1024;

/** What the answer's `pdf` says about the PDF around the XML. */
export interface PdfFacts {
  pdf_a: {
    /** XMP pdfaid:part and pdfaid:conformance, e.g. "3b"; null when the PDF claims no PDF/A level. */
    declared: string | null;
    /** PDF/A-3 needs an OutputIntent (GTS_PDFA1) with an ICC profile. */
    output_intent: boolean;
    encrypted: boolean;
  };
  attachment: {
    name: string;
    /** /AFRelationship: Factur-X wants Data or Alternative (Source is tolerated). */
    relationship: string | null;
    mime_type: string | null;
    /** Listed in the catalog's /AF array (PDF/A-3 associated file). */
    associated: boolean;
    /** XMP fx:ConformanceLevel (MINIMUM … XRECHNUNG), null when absent. */
    conformance_level: string | null;
    /** XMP fx:DocumentFileName; should equal `name`. */
    xmp_file_name: string | null;
  };
}

export interface PdfInvoice {
  xml: string;
  facts: PdfFacts;
}

/** The leaves of the /EmbeddedFiles name tree: [name, file specification]. */
function embeddedFiles(doc: PDFDocument): Array<[string, PDFDict]> {
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const root = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const out: Array<[string, PDFDict]> = [];
  const visit = (node: PDFDict, depth: number): void => {
    if (depth > 10 || out.length > 100) return;
    const leaves = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    for (let i = 0; leaves && i + 1 < leaves.size(); i += 2) {
      const spec = leaves.lookupMaybe(i + 1, PDFDict);
      const name = pdfText(leaves.lookup(i));
      if (spec && name !== undefined) out.push([name, spec]);
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) {
      const kid = kids.lookupMaybe(i, PDFDict);
      if (kid) visit(kid, depth + 1);
    }
  };
  if (root) visit(root, 0);
  return out;
}

function streamText(stream: PDFStream | undefined, limit: number): string | undefined {
  const bytes = decodedStream(stream);
  if (bytes === undefined) return undefined;
  if (bytes.byteLength > limit) throw new InboundRefusal(`the embedded XML is larger than ${limit} bytes`);
  return Buffer.from(bytes).toString('utf8');
}

/** The first value of an XMP property, as element or attribute. */
function xmpValue(xmp: string, property: string): string | null {
  const element = new RegExp(`<${property}(?:\\s[^>]*)?>([^<]*)</${property}>`).exec(xmp)?.[1];
  const attribute = new RegExp(`\\s${property}="([^"]*)"`).exec(xmp)?.[1];
  return (element ?? attribute)?.trim() ?? null;
}

function associated(doc: PDFDocument, spec: PDFDict): boolean {
  const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  for (let i = 0; af && i < af.size(); i++) if (af.lookupMaybe(i, PDFDict) === spec) return true;
  return false;
}

/**
 * Reads a Factur-X / ZUGFeRD / XRechnung PDF: the embedded invoice XML and the facts a receiver checks
 * (PDF/A claim, how the XML is attached). Throws InboundRefusal when the PDF holds no invoice XML.
 */
export async function readPdfInvoice(bytes: Uint8Array): Promise<PdfInvoice> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch (err) {
    throw new InboundRefusal(
      `the PDF could not be read (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const files = embeddedFiles(doc);
  const found = INVOICE_NAMES.map((wanted) => files.find(([name]) => name === wanted)).find(Boolean);
  if (found === undefined)
    throw new InboundRefusal(
      files.length === 0
        ? 'the PDF has no embedded files, so it is not a Factur-X/ZUGFeRD invoice'
        : `the PDF's embedded files (${files.map(([n]) => n).join(', ')}) include no factur-x.xml, xrechnung.xml or zugferd-invoice.xml`,
    );
  const [name, spec] = found;
  const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookupMaybe(PDFName.of('F'), PDFStream);
  const xml = streamText(stream, MAX_XML_BYTES);
  if (xml === undefined) throw new InboundRefusal(`the PDF's ${name} has no file stream`);
  const xmp = streamText(doc.catalog.lookupMaybe(PDFName.of('Metadata'), PDFStream), MAX_XML_BYTES) ?? '';
  const part = xmpValue(xmp, 'pdfaid:part');
  const conformance = xmpValue(xmp, 'pdfaid:conformance');
  const intents = doc.catalog.lookupMaybe(PDFName.of('OutputIntents'), PDFArray);
  const subtype = stream?.dict.get(PDFName.of('Subtype'));
  return {
    xml,
    facts: {
      pdf_a: {
        declared: part === null ? null : `${part}${(conformance ?? '').toLowerCase()}`,
        output_intent: (intents?.size() ?? 0) > 0,
        encrypted: doc.isEncrypted,
      },
      attachment: {
        name,
        relationship: spec.get(PDFName.of('AFRelationship'))?.toString().replace(/^\//, '') ?? null,
        mime_type: subtype instanceof PDFName ? subtype.decodeText() : null,
        associated: associated(doc, spec),
        conformance_level: xmpValue(xmp, 'fx:ConformanceLevel'),
        xmp_file_name: xmpValue(xmp, 'fx:DocumentFileName'),
      },
    },
  };
}
