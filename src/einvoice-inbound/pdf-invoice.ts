import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { decodedStream, pdfText } from '../shared/pdf-objects.js';
import { MAX_PDF_FILTERS, PdfDecodeLimitError, withDecodeBudget } from '../shared/pdf-stream-decode.js';
import { InboundRefusal } from './refusal.js';

/** Names Factur-X / ZUGFeRD 2.x / XRechnung-in-PDF give the invoice XML, in order of preference. */
const INVOICE_NAMES = ['factur-x.xml', 'xrechnung.xml', 'zugferd-invoice.xml', 'ZUGFeRD-invoice.xml'];
/** Largest embedded XML (and XMP) read (an invoice with 2,000 lines is about 2 MB). */
const MAX_XML_BYTES = 20 * 1024 * 1024;
/**
 * What pdf-lib's decoders may allocate while they read the PDF (object and cross-reference streams,
 * counted as they grow, see withDecodeBudget); a Factur-X PDF of a few MB needs a few MB.
 */
const MAX_PARSE_DECODED_BYTES = 128 * 1024 * 1024;
const MB = 1024 * 1024;

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

/** A stream's cap passed, in the receiver's terms: which stream, which limit, and what to send instead. */
function streamRefusal(err: PdfDecodeLimitError, what: string): InboundRefusal {
  if (err.limit === 'filters')
    return new InboundRefusal(
      `${what} is encoded with ${err.found} filters and Quire reads at most ${MAX_PDF_FILTERS}: embed it with FlateDecode alone`,
      { limit: 'pdf_filters', max: MAX_PDF_FILTERS },
    );
  return new InboundRefusal(
    `${what} decompresses to more than ${err.max / MB} MB, the most Quire reads: send the invoice XML itself, or a PDF whose XML is smaller`,
    { limit: 'embedded_xml_bytes', max: err.max },
  );
}

/** A stream's text, decoded under MAX_XML_BYTES; `what` names it in a refusal ("the embedded factur-x.xml"). */
function streamText(stream: PDFStream | undefined, what: string): string | undefined {
  let bytes: Uint8Array | undefined;
  try {
    bytes = decodedStream(stream, MAX_XML_BYTES);
  } catch (err) {
    throw err instanceof PdfDecodeLimitError ? streamRefusal(err, what) : err;
  }
  return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
}

/** The parsed PDF, its decoding under MAX_PARSE_DECODED_BYTES. */
async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await withDecodeBudget(MAX_PARSE_DECODED_BYTES, () =>
      PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false }),
    );
  } catch (err) {
    if (err instanceof PdfDecodeLimitError)
      throw new InboundRefusal(
        `reading the PDF means decompressing more than ${MAX_PARSE_DECODED_BYTES / MB} MB of object streams: save it again without compressed object streams (e.g. \`qpdf --object-streams=disable\`), or send the invoice XML itself`,
        { limit: 'pdf_decoded_bytes', max: MAX_PARSE_DECODED_BYTES },
      );
    throw new InboundRefusal(
      `the PDF could not be read (${err instanceof Error ? err.message : String(err)})`,
    );
  }
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
  const doc = await loadPdf(bytes);
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
  const xml = streamText(stream, `the embedded ${name}`);
  if (xml === undefined) throw new InboundRefusal(`the PDF's ${name} has no file stream`);
  const metadata = doc.catalog.lookupMaybe(PDFName.of('Metadata'), PDFStream);
  const xmp = streamText(metadata, "the PDF's XMP metadata") ?? '';
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
