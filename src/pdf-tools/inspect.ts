import {
  conformanceOf,
  type FontInfo,
  fontsOf,
  infoFields,
  isoDate,
  type PageSize,
  pageSizes,
  pagesText,
  type SignatureInfo,
  signaturesOf,
} from './poppler.js';
import {
  type AttachmentInfo,
  attachmentsOf,
  type FormField,
  formFields,
  languageOf,
  objectsOf,
  type QpdfDocument,
  referencesToFetch,
  signatureReasons,
} from './qpdf-json.js';
import type { OpenedSource } from './source.js';
import { fileIn, inTempDir, runTool, ToolFailed } from './tools.js';

export interface Inspection {
  pages: number;
  page_sizes: PageSize[];
  pdf_version: string | null;
  encrypted: boolean;
  tagged: boolean;
  pdf_a: { part: number; conformance: string | null } | null;
  pdf_ua: { part: number } | null;
  metadata: {
    title: string | null;
    author: string | null;
    subject: string | null;
    keywords: string | null;
    creator: string | null;
    producer: string | null;
    created_at: string | null;
    modified_at: string | null;
    language: string | null;
  };
  attachments: AttachmentInfo[];
  form_fields: FormField[];
  signatures: SignatureInfo[];
  fonts: FontInfo[];
  text?: string[];
}

/** qpdf's JSON of the fields and attachments, then the objects they point to (two small runs). */
async function qpdfParts(
  file: string,
  timeMs: number,
): Promise<{ doc: QpdfDocument; objects: ReturnType<typeof objectsOf> }> {
  const base = ['--json=2', '--warning-exit-0', '--json-key=acroform', '--json-key=attachments'];
  const doc = JSON.parse(
    await runTool('qpdf', [...base, '--json-key=qpdf', '--json-object=trailer', file], { timeMs }),
  ) as QpdfDocument;
  const refs = referencesToFetch(doc);
  if (refs.length === 0) return { doc, objects: objectsOf(doc) };
  const more = JSON.parse(
    await runTool(
      'qpdf',
      [
        '--json=2',
        '--warning-exit-0',
        '--json-key=qpdf',
        '--json-object=trailer',
        ...refs.map((ref) => `--json-object=${ref}`),
        file,
      ],
      { timeMs },
    ),
  ) as QpdfDocument;
  return { doc, objects: objectsOf(more) };
}

/**
 * Signatures as pdfsig checks them, on the file as it was sent (decrypting rewrites the file, which no
 * signature survives: an encrypted file's signatures are read from its decrypted copy and show invalid).
 */
async function signatures(
  file: string,
  reasons: Map<string, string | null>,
  timeMs: number,
): Promise<SignatureInfo[]> {
  try {
    return signaturesOf(await runTool('pdfsig', ['-nocert', file], { okExit: [1, 2], timeMs }), reasons);
  } catch (err) {
    // pdfsig fails on some unsigned files it cannot make sense of; the other tools read them.
    if (err instanceof ToolFailed) return [];
    throw err;
  }
}

function metadataOf(info: Map<string, string>, language: string | null): Inspection['metadata'] {
  const text = (key: string) => {
    const value = info.get(key);
    return value === undefined || value === '' ? null : value;
  };
  return {
    title: text('Title'),
    author: text('Author'),
    subject: text('Subject'),
    keywords: text('Keywords'),
    creator: text('Creator'),
    producer: text('Producer'),
    created_at: isoDate(info.get('CreationDate')),
    modified_at: isoDate(info.get('ModDate')),
    language,
  };
}

/**
 * What the PDF is and holds (POST /v1/pdf/inspect): every answer from qpdf and poppler run over the file
 * in processes of their own under the tools' limits, the source already read and checked by qpdf.
 */
export async function inspectPdf(source: OpenedSource, options: { text: boolean }): Promise<Inspection> {
  return inTempDir(async (dir) => {
    const file = await fileIn(dir, 'doc.pdf', source.bytes);
    const original = source.encrypted ? file : await fileIn(dir, 'original.pdf', source.original);
    const range = ['-f', '1', '-l', String(source.pages)];
    const timeMs = source.budget.readMs;
    const [infoOut, xmp, fontsOut, parts, textOut] = await Promise.all([
      runTool('pdfinfo', ['-isodates', ...range, file], { timeMs }),
      runTool('pdfinfo', ['-meta', file], { timeMs }),
      runTool('pdffonts', ['-l', String(source.pages), file], { timeMs }),
      qpdfParts(file, timeMs),
      options.text ? runTool('pdftotext', ['-layout', file, '-'], { timeMs }) : Promise.resolve(null),
    ]);
    const info = infoFields(infoOut);
    const conformance = conformanceOf(xmp);
    const { doc, objects } = parts;
    const language = languageOf(doc, objects) ?? conformance.language;
    const sigs = await signatures(original, signatureReasons(doc, objects), timeMs);
    const versionHeader = /^%PDF-(\d\.\d)/.exec(source.original.subarray(0, 16).toString('latin1'))?.[1];
    return {
      pages: source.pages,
      page_sizes: pageSizes(infoOut),
      pdf_version: info.get('PDF version') ?? versionHeader ?? null,
      encrypted: source.encrypted,
      tagged: info.get('Tagged') === 'yes',
      pdf_a: conformance.pdf_a,
      pdf_ua: conformance.pdf_ua,
      metadata: metadataOf(info, language),
      attachments: attachmentsOf(doc, objects),
      form_fields: formFields(doc, objects),
      signatures: sigs,
      fonts: fontsOf(fontsOut),
      ...(textOut === null ? {} : { text: pagesText(textOut, source.pages) }),
    };
  });
}
