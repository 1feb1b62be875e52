import type { PDFDocument } from '@cantoo/pdf-lib';
import type { SigningKey } from './cms.js';
import type { StoredPdfPort } from './merge-sources.js';
import type { FinishingOptions, PdfALevelName, PdfMetadataOptions } from './schema.js';
import type { PlannedAttachment } from './steps/attachments.js';
import type { Step } from './steps/index.js';

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

/** What a step plans from: the request's finishing fields (over the template's) and any contribution. */
export interface PlanInput {
  options: FinishingOptions;
  contribution: FinishingContribution | null;
}

/** Where a step looks things up before rendering: the team's stored documents and certificates. */
export interface ResolveScope {
  teamId: string;
  /** The document being made is a test document. */
  test: boolean;
  /** The test-document mark goes on the document's pages (and on merged pages that lack it). */
  watermark: boolean;
  now: Date;
  storedPdfs: StoredPdfPort;
  signingKeys: SigningKeys;
}

/** Team certificates: the key of one, opened for one document (extension `sign`). */
export interface SigningKeys {
  /** Throws invalid_request (`details.field` sign.certificate_id) for an unknown, other team's or expired one. */
  signingKey(teamId: string, certificateId: string, at: Date): Promise<SigningKey>;
}

/** A check of a step's inputs that runs beside the render (qpdf over merge sources). */
export interface BesideCheck {
  /** Aborted when the check refuses its input. */
  readonly signal: AbortSignal;
  /** The check refused its input: the request's fault, not the render's. */
  readonly failed: boolean;
  done(): Promise<unknown>;
}

/** What every phase of a step is told about the document. */
export interface ApplyContext {
  /** The document's creation time: Info/XMP dates of a PDF/A file and attachment dates. */
  createdAt: Date;
  /** The whole plan: a step whose output depends on another's (PDF/A's XMP on PDF/UA) reads it here. */
  plan: PlannedSteps;
}

/**
 * One finishing step: its part of the request planned (and checked) before anything is counted or rendered,
 * what it needs from outside resolved before rendering, then applied to the rendered PDF. Phases run in the
 * order of STEPS (steps/index.ts), each phase over every step before the next phase:
 *   source   on the rendered bytes, before pdf-lib parses them (qpdf's merge: every later step sees the pages)
 *   document on the parsed document (pdf-lib), written once for all steps
 *   final    on the written bytes (a check of them, another program, or an incremental update that must
 *            come last)
 * `plan` returns null when the step has nothing to do; `resolve` defaults to the plan itself.
 */
export interface FinishingStep<Key extends string, Planned, Resolved = Planned> {
  readonly key: Key;
  /** The request field(s) of this step, for `finishingOptionsOf` (none for a derived step). */
  readonly fields: readonly (keyof FinishingOptions)[];
  plan(input: PlanInput, earlier: Partial<PlannedSteps>): Planned | null;
  resolve?(planned: Planned, scope: ResolveScope): Promise<Resolved>;
  /** A check of the resolved inputs that runs beside the render (its refusal aborts the render). */
  beside?(resolved: Resolved): BesideCheck | null;
  /** The document's page count once finished (merged pages added). */
  pages?(rendered: number, resolved: Resolved): Promise<number>;
  source?(pdf: Buffer, resolved: Resolved): Promise<Buffer>;
  /** Whether the document phase has work for this step (default: it has, whenever the step is planned). */
  needsDocument?(resolved: Resolved): Promise<boolean>;
  document?(doc: PDFDocument, resolved: Resolved, context: ApplyContext): Promise<void> | void;
  final?(pdf: Buffer, resolved: Resolved): Promise<Buffer>;
}

// biome-ignore lint/suspicious/noExplicitAny: the array holds steps of every option type.
export type AnyStep = FinishingStep<string, any, any>;

/** What each step of STEPS planned, by key (null: nothing to do). */
export type PlannedSteps = {
  [S in Step as S['key']]: S extends FinishingStep<string, infer P, unknown> ? P | null : never;
};

/** What each step resolved before rendering, by key. */
export type ResolvedSteps = {
  [S in Step as S['key']]: S extends FinishingStep<string, unknown, infer R> ? R | null : never;
};
