import type { AuthContext } from '../accounts/index.js';
import type { AccessibilityReport } from '../finishing/index.js';
import type { Production, TemplatePort } from '../production/index.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import { hitPreviewBudget } from './limits.js';

export interface PreviewDeps {
  clock: Clock;
  rate: RateCounter;
  production: Pick<Production, 'produce'>;
}

export interface PreviewRequest {
  data?: Record<string, unknown>;
  version?: number;
}

export interface Preview {
  pdf: Buffer;
  pages: number;
  /** Sanitised template name plus `.pdf`, for `content-disposition: inline`. */
  filename: string;
  /** The accessibility report, when the request asked for one. */
  accessibility?: AccessibilityReport | null;
}

/**
 * POST /templates/<id>/preview: the one production use case with purpose `preview` — the same Liquid, page
 * options, size limits, team render slot and renderer as POST /pdf, always watermarked; never stored,
 * counted or recorded as a document, and without plan limits (spec: Templates).
 */
export async function renderPreview(
  deps: PreviewDeps,
  auth: AuthContext,
  templateId: string,
  request: PreviewRequest,
): Promise<Preview> {
  await hitPreviewBudget(deps.rate, auth, deps.clock.now().getTime());
  return producePreview(deps, auth, {
    template_id: templateId,
    ...(request.version === undefined ? {} : { template_version: request.version }),
    ...(request.data === undefined ? {} : { data: request.data }),
  });
}

/** The template, version and data a preview renders. */
export interface PreviewTemplateRequest {
  template_id: string;
  template_version?: number;
  data?: Record<string, unknown>;
  accessibility_report?: boolean;
}

/**
 * The render shared by the stored and the draft preview, after their own checks: purpose `preview`
 * (watermarked, never stored) on the team's direct slot. `templates` stands in for the stored template
 * when the content is not saved yet.
 */
export async function producePreview(
  deps: PreviewDeps,
  auth: AuthContext,
  request: PreviewTemplateRequest,
  templates?: TemplatePort,
): Promise<Preview> {
  const produced = await deps.production.produce({
    ...(templates === undefined ? {} : { templates }),
    caller: { teamId: auth.team.id, plan: auth.plan },
    request,
    purpose: { kind: 'preview' },
    test: auth.mode === 'test',
  });
  return {
    pdf: produced.file,
    pages: produced.pages ?? 0,
    filename: produced.filename,
    accessibility: produced.accessibility ?? null,
  };
}
