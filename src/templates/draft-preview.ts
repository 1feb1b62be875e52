import type { AuthContext } from '../accounts/index.js';
import type { TemplatePort } from '../production/index.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { checkContent, MAX_SAMPLE_DATA_BYTES } from './content.js';
import type { TemplateEngine } from './engine-port.js';
import { hitPreviewBudget } from './limits.js';
import { type Preview, type PreviewDeps, producePreview } from './preview.js';
import { settingsForPreview } from './protect-settings.js';
import { contentOf, readTemplate } from './records.js';
import type { TemplateRow } from './repository.js';
import type { TemplateSettings } from './settings.js';
import { nextContent, type VersionContent } from './versions.js';

export interface DraftPreviewDeps extends PreviewDeps {
  db: Db;
  engine: TemplateEngine;
}

/** Unsaved editor content (POST /templates/<id>/draft-preview); omitted css/settings are the current ones. */
export interface DraftPreviewRequest {
  html: string;
  css?: string;
  settings?: TemplateSettings;
  data?: Record<string, unknown>;
  /** Extension: the preview's accessibility report (the editor shows it beside the layout warnings). */
  accessibility_report?: boolean;
}

/**
 * The dashboard editor's live preview of content not yet saved: rendered exactly like a stored preview
 * (purpose `preview`: watermarked, never stored, counted or recorded; the previews' rate limit and the team's
 * render slots), with the same limits and Liquid parse as saving it. Omitted fields come from the current
 * version, as a PUT would copy them; data defaults to the current version's sample_data.
 */
export async function renderDraftPreview(
  deps: DraftPreviewDeps,
  auth: AuthContext,
  templateId: string,
  request: DraftPreviewRequest,
): Promise<Preview> {
  await hitPreviewBudget(deps.rate, auth, deps.clock.now().getTime());
  const { template, version } = await readTemplate(deps.db, auth.team.id, templateId, currentOf);
  const edit = {
    html: request.html,
    ...(request.css === undefined ? {} : { css: request.css }),
    ...(request.settings === undefined ? {} : { settings: request.settings }),
  };
  await checkContent(deps.engine, edit);
  assertDataSize(request.data);
  const current = contentOf(version);
  const draft = nextContent(current, edit);
  return producePreview(
    deps,
    auth,
    {
      template_id: template.id,
      ...(request.data === undefined ? {} : { data: request.data }),
      ...(request.accessibility_report ? { accessibility_report: true } : {}),
    },
    draftPort(deps.engine, template, draft ?? current),
  );
}

/** data is the editor's unsaved sample data: the same 1 MB (as JSON) as sample_data on save. */
function assertDataSize(data: Record<string, unknown> | undefined): void {
  if (data !== undefined && Buffer.byteLength(JSON.stringify(data)) > MAX_SAMPLE_DATA_BYTES) {
    throw new AppError('invalid_request', 'data is larger than 1 MB as JSON.', { field: 'data' });
  }
}

/** The editor edits the current version (not the pinned one): drafts start from it. */
function currentOf(template: TemplateRow): number {
  return template.current_version;
}

/**
 * A template port that resolves this one template to the draft. The draft has no immutable version to key
 * it by, so it goes through renderSource, which caches the parse by a digest of the content.
 */
function draftPort(engine: TemplateEngine, template: TemplateRow, draft: VersionContent): TemplatePort {
  return {
    async resolve() {
      return {
        id: template.id,
        version: template.current_version,
        name: template.name,
        css: draft.css,
        sampleData: draft.sampleData,
        settings: settingsForPreview(draft.settings),
        render: (data) => engine.renderSource(draft.html, data),
      };
    },
  };
}
