import type { Plan } from '../accounts/index.js';
import type { DeliveryState, DocumentEmail, EmailBudget, EmailRequest } from '../email/index.js';
import type { FinishingOptions, SigningKey } from '../finishing/index.js';
import type {
  LocalResources,
  PageDefaults,
  PageOptions,
  PageOptionsInput,
  RenderJob,
  RenderResult,
  WaitFor,
} from '../render/index.js';
import type { Warning } from '../shared/warnings.js';
import type { Db } from '../storage/index.js';

/**
 * What a document is made from, whichever route asked for it (POST /pdf sync or async, a batch item, a
 * preview, a template thumbnail). The POST /pdf body satisfies it; other callers fill in what they have.
 * Its page options are the renderer's to check (PageOptionsResolver), as a template's defaults are.
 */
export interface DocumentRequest extends FinishingOptions, PageOptionsInput {
  template_id?: string;
  template_version?: number;
  html?: string;
  css?: string;
  data?: Record<string, unknown>;
  merge_data?: Record<string, unknown>;
  filename?: string;
  metadata?: Record<string, unknown>;
  e_invoice?: Record<string, unknown>;
  deliver?: { email?: EmailRequest };
  /** Extension: render this page instead of html or a template. */
  source_url?: string;
  /** Extension: wait for the page before printing. */
  wait_for?: WaitFor;
  /** Extension: check the finished file's accessibility and report it (x-accessibility, `accessibility`). */
  accessibility_report?: boolean;
}

/** Team certificates (extension `sign`): the key of one, opened for one document at signing time. */
export interface CertificatePort {
  /** Throws invalid_request (`details.field` sign.certificate_id) for an unknown, other team's or expired one. */
  signingKey(teamId: string, certificateId: string, at: Date): Promise<SigningKey>;
}

/** deliver.email: checks before rendering, and the email queued with the document's record. */
export interface DeliveryPort {
  assertAllowed(budget: EmailBudget, addresses: readonly string[]): Promise<void>;
  queue(trx: Db, input: DocumentEmail): Promise<DeliveryState>;
}

/**
 * The usage ledger's reservations (accounts): a live document reserves its count before it is rendered,
 * atomically against the plan's documents and the team's spending cap, and gives it back if it fails.
 */
export interface UsagePort {
  /** Throws plan_limit_reached or spending_cap_reached when `count` more would not fit; reserves none then. */
  reserve(teamId: string, count: number, at: Date): Promise<{ period: string }>;
  release(teamId: string, period: string, count?: number): Promise<void>;
}

/** Whose document is made: enough for limits, storage and records (a request's key or a queued job's team). */
export interface Caller {
  teamId: string;
  plan: Plan;
}

/** What production needs from the renderer (the strategy is chosen from job.page.mode). */
export interface RendererPort {
  render(job: RenderJob): Promise<RenderResult>;
}

export interface LiquidResult {
  html: string;
  warnings: Warning[];
}

/** Liquid for raw `html` sent with `data` (stored templates go through the template port). */
export interface LiquidPort {
  renderSource(source: string, data: Record<string, unknown>): Promise<LiquidResult>;
  /** Parses only (template_render_error with line and column); nothing is rendered. */
  check(source: string): Promise<void>;
}

export interface ResolvedTemplate {
  id: string;
  version: number;
  name: string;
  css: string | null;
  sampleData: Record<string, unknown> | null;
  /** The version's page defaults (spec: Template settings) and finishing options (extensions). */
  settings: PageDefaults & FinishingOptions;
  /** Renders this version's (cached, pre-parsed) Liquid with the data. */
  render(data: Record<string, unknown>): Promise<LiquidResult>;
}

/** Resolves `template_id` + optional version (else pinned, else current); throws template_not_found. */
export interface TemplatePort {
  resolve(teamId: string, templateId: string, version: number | undefined): Promise<ResolvedTemplate>;
}

export type PageOptionsResolver = (
  request: DocumentRequest,
  template: PageDefaults | null,
  fallbackMode: 'fast' | 'print',
) => PageOptions;

/** A team's brand assets as one render sees them: the Liquid `brand` variable and their bytes. */
export interface BrandKit {
  /** `{ logo_url, fonts: { <name>: { url, format, family } } }` (signed links). */
  variable: Record<string, unknown>;
  /** Serves the team's own brand-asset links to the renderer from storage. */
  resources: LocalResources;
}

/** The brand capability: null when the team has no assets (templates then see no `brand`). */
export interface BrandPort {
  forTeam(teamId: string): Promise<BrandKit | null>;
}
