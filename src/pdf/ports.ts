import type { RenderJob, RenderResult } from '../render/types.js';
import type { Warning } from '../shared/warnings.js';

/** What the PDF pipeline needs from the renderer (the strategy is chosen from job.page.mode). */
export interface PdfRenderPort {
  render(job: RenderJob): Promise<RenderResult>;
}

/** Liquid for raw `html` sent with `data` (parsed per request; stored templates are cached by the template port). */
export interface LiquidPort {
  renderSource(source: string, data: Record<string, unknown>): Promise<{ html: string; warnings: Warning[] }>;
}

/** Template page defaults (spec: Template settings; `margin` singular). */
export interface TemplateSettings {
  mode?: 'fast' | 'print';
  format?: unknown;
  orientation?: unknown;
  margin?: string;
}

export interface ResolvedTemplate {
  id: string;
  version: number;
  name: string;
  css: string | null;
  sampleData: Record<string, unknown> | null;
  settings: TemplateSettings;
  /** Renders this version's (cached, pre-parsed) Liquid with the data. */
  render(data: Record<string, unknown>): Promise<{ html: string; warnings: Warning[] }>;
}

/** Resolves `template_id` + optional version (else pinned, else current); throws template_not_found. */
export interface TemplatePort {
  resolve(teamId: string, templateId: string, version: number | undefined): Promise<ResolvedTemplate>;
}
