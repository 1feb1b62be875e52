import { AppError } from '../shared/errors.js';
import { type MergeRequest, planMerge } from './merge.js';
import type {
  AttachmentOption,
  FinishingOptions,
  PdfALevelName,
  PdfMetadataOptions,
  ProtectOption,
  SignOption,
  StampOption,
} from './schema.js';

/**
 * Whether documents are tagged when the request says nothing. Measured (README "Finishing options",
 * bench/finishing.ts): Chromium's structure tree costs more than 10 % of the render time of the plain
 * invoice, so tags stay opt-in (`tagged: true`, or `pdf_ua: true`, which needs them).
 */
export const TAGGED_BY_DEFAULT = false;

/** One file to embed, decoded. */
export interface PlannedAttachment {
  filename: string;
  bytes: Uint8Array;
  mimeType: string;
  description?: string;
  relationship: NonNullable<AttachmentOption['relationship']>;
}

/**
 * What another capability adds to a document's finishing (the e-invoice's XML and Factur-X XMP): its
 * own attachment, XMP `rdf:Description` blocks, Info defaults the request may override, and the PDF/A
 * level it needs.
 */
export interface FinishingContribution {
  attachments: PlannedAttachment[];
  xmpExtensions: string[];
  metadata: PdfMetadataOptions;
  pdfA: PdfALevelName;
  /** Tagged and PDF/UA-identified unless the request says `tagged: false` (the built-in invoice template). */
  accessible?: boolean;
}

/** The finishing of one document, chosen once from the request before anything is rendered. */
export interface FinishingPlan {
  tagged: boolean;
  outline: boolean;
  pdfUa: boolean;
  pdfA: PdfALevelName | null;
  metadata: PdfMetadataOptions;
  attachments: PlannedAttachment[];
  xmpExtensions: string[];
  stamp: StampOption | null;
  protect: ProtectOption | null;
  /** `prepend`/`append` (merge.ts): production resolves the sources before rendering. */
  merge: MergeRequest | null;
  /** Signed with a team certificate: always the last step (its key is opened at signing time). */
  sign: SignOption | null;
}

function refuse(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field });
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeAttachment(a: AttachmentOption, index: number): PlannedAttachment {
  const text = a.content_base64.replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1)
    throw refuse(
      `attachments/${index}/content_base64`,
      `"attachments[${index}].content_base64" is not base64.`,
    );
  return {
    filename: a.filename,
    bytes: new Uint8Array(Buffer.from(text, 'base64')),
    mimeType: a.mime_type,
    ...(a.description === undefined ? {} : { description: a.description }),
    relationship: a.relationship ?? 'Unspecified',
  };
}

/**
 * The request's finishing options (request values over the template's) checked together: every
 * combination that cannot go together is refused here, before rendering, with the field to change.
 */
export function planFinishing(
  options: FinishingOptions,
  contribution: FinishingContribution | null = null,
): FinishingPlan {
  const merge = planMerge(options.prepend, options.append);
  // Merged pages carry no tags (qpdf keeps the rendered file's structure tree only): not PDF/UA.
  if (merge && options.pdf_ua === true)
    throw refuse(
      'pdf_ua',
      '"pdf_ua" cannot be used with "prepend" or "append": the merged pages are not tagged.',
    );
  const pdfUa =
    options.pdf_ua ?? (contribution?.accessible === true && options.tagged !== false && merge === null);
  if (pdfUa && options.tagged === false)
    throw refuse('tagged', '"pdf_ua" needs a tagged PDF: drop "tagged": false.');
  if (options.outline === true && options.tagged === false)
    throw refuse(
      'outline',
      '"outline" is built from the tags (Chromium makes bookmarks from the structure tree): drop "tagged": false.',
    );
  const pdfA = options.pdf_a ?? contribution?.pdfA ?? null;
  if (contribution && options.pdf_a !== undefined && !options.pdf_a.startsWith('3'))
    throw refuse(
      'pdf_a',
      `An e-invoice PDF is PDF/A-3 (its XML is an embedded file): use "pdf_a": "3b" or "3u", not "${options.pdf_a}".`,
    );
  if (options.protect && pdfA)
    throw refuse(
      'protect',
      contribution
        ? '"protect" cannot be used with an e-invoice: PDF/A-3 forbids encryption.'
        : '"protect" cannot be used with "pdf_a": PDF/A forbids encryption.',
    );
  if (options.protect && options.sign)
    throw refuse(
      'sign',
      '"sign" cannot be used with "protect": an encrypted file cannot carry this signature. Send one of them.',
    );
  const attachments = [
    ...(contribution?.attachments ?? []),
    ...(options.attachments ?? []).map(decodeAttachment),
  ];
  if (options.attachments?.length && pdfA && !pdfA.startsWith('3'))
    throw refuse(
      'attachments',
      `PDF/A-${pdfA} cannot embed arbitrary files: use "pdf_a": "3${pdfA.slice(1)}" with "attachments".`,
    );
  const names = new Set<string>();
  for (const [i, a] of attachments.entries()) {
    if (names.has(a.filename))
      throw refuse(
        `attachments/${i}/filename`,
        `Two attachments are named "${a.filename}": give each its own name.`,
      );
    names.add(a.filename);
  }
  return {
    tagged: options.tagged ?? (pdfUa || options.outline === true || TAGGED_BY_DEFAULT),
    outline: options.outline === true,
    pdfUa,
    pdfA,
    metadata: { ...contribution?.metadata, ...options.pdf_metadata },
    attachments,
    xmpExtensions: contribution?.xmpExtensions ?? [],
    stamp: options.stamp ?? null,
    protect: options.protect ?? null,
    merge,
    sign: options.sign ?? null,
  };
}

/**
 * PDF/UA needs a natural language; it is known only once the HTML is (a template's Liquid output), so
 * this runs after preparation and still before rendering.
 */
export function checkLanguage(plan: FinishingPlan, htmlLanguage: string | null): void {
  if (plan.pdfUa && !plan.metadata.language && !htmlLanguage)
    throw refuse(
      'pdf_ua',
      '"pdf_ua" needs the document\'s language: add <html lang="…"> or "pdf_metadata": { "language": "…" }.',
    );
}

/** True when the file leaves Chromium unchanged by finishing (the hot path stays as it was). */
export function finishesNothing(plan: FinishingPlan): boolean {
  return (
    !plan.pdfUa &&
    plan.pdfA === null &&
    Object.keys(plan.metadata).length === 0 &&
    plan.attachments.length === 0 &&
    plan.stamp === null &&
    plan.protect === null &&
    plan.merge === null &&
    plan.sign === null
  );
}

const FINISHING_KEYS = [
  'pdf_a',
  'pdf_ua',
  'tagged',
  'outline',
  'pdf_metadata',
  'attachments',
  'protect',
  'stamp',
  'prepend',
  'append',
  'sign',
] as const satisfies ReadonlyArray<keyof FinishingOptions>;

/** The finishing fields of a request, batch or template settings object (nothing else). */
export function finishingOptionsOf(source: FinishingOptions): FinishingOptions {
  const out: Record<string, unknown> = {};
  for (const key of FINISHING_KEYS) if (source[key] !== undefined) out[key] = source[key];
  return out as FinishingOptions;
}

/**
 * A template's finishing settings under the request's: a field the request sends replaces the
 * template's, except `pdf_metadata`, merged key by key (the request's title over the template's author).
 */
export function mergeFinishing(template: FinishingOptions, request: FinishingOptions): FinishingOptions {
  const merged = { ...finishingOptionsOf(template), ...finishingOptionsOf(request) };
  if (template.pdf_metadata && request.pdf_metadata)
    merged.pdf_metadata = { ...template.pdf_metadata, ...request.pdf_metadata };
  return merged;
}
