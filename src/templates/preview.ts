import type { AuthContext } from '../http/auth-context.js';
import type { RateCounter } from '../http/rate-limiter.js';
import type { PdfRenderPort, TemplatePort } from '../pdf/ports.js';
import { sanitizeFilename } from '../pdf/request-rules.js';
import { resolvePageOptions } from '../render/page-options.js';
import { MAX_HTML_BYTES } from '../render/renderer.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { TeamSlots } from '../shared/team-slots.js';
import { hitPreviewBudget } from './limits.js';

export interface PreviewDeps {
  clock: Clock;
  rate: RateCounter;
  slots: TeamSlots;
  templates: TemplatePort;
  renderer: PdfRenderPort;
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
}

function concurrencyError(limit: number): AppError {
  return new AppError(
    'rate_limited',
    `This team already renders ${limit} PDF(s) at once.`,
    { reason: 'concurrency', limit },
    { 'retry-after': '1' },
  );
}

/**
 * POST /templates/<id>/preview: the same Liquid, page options and renderer as POST /pdf, always watermarked;
 * never stored, counted or recorded as a document, and without plan limits (spec: Templates). It does use
 * the team's render slots, which previews share with every other render (spec: Limits).
 */
export async function renderPreview(
  deps: PreviewDeps,
  auth: AuthContext,
  templateId: string,
  request: PreviewRequest,
): Promise<Preview> {
  hitPreviewBudget(deps.rate, auth, deps.clock.now().getTime());
  const template = await deps.templates.resolve(auth.team.id, templateId, request.version);
  const page = resolvePageOptions({}, template.settings, 'print');
  const { html } = await template.render(request.data ?? template.sampleData ?? {});
  if (Buffer.byteLength(html) + Buffer.byteLength(template.css ?? '') > MAX_HTML_BYTES) {
    throw new AppError('document_too_large', 'The HTML after Liquid, with the CSS, is larger than 5 MB.');
  }
  const lease = deps.slots.tryAcquire(auth.team.id, auth.plan.render_concurrency, 'direct');
  if (!lease) throw concurrencyError(auth.plan.render_concurrency);
  try {
    const result = await deps.renderer.render({ html, css: template.css, page, watermark: true });
    return { pdf: result.pdf, pages: result.pages, filename: sanitizeFilename(template.name, '.pdf') };
  } finally {
    lease.release();
  }
}
