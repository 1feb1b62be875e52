import { api, call, type Schemas } from './api';

/** Template names are 1 to 100 characters (spec: templates). */
const NAME_MAX = 100;

/** "Invoice (copy)", shortened so the copy's name stays within the limit. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
}

/**
 * A new template with the content of `id`'s current version (HTML, CSS, sample data, page settings).
 * Its history starts again at version 1: versions belong to the original.
 */
export async function duplicateTemplate(id: string, name: string): Promise<Schemas['Template']> {
  const source = await call(api.GET('/templates/{id}', { params: { path: { id } } }));
  return call(
    api.POST('/templates', {
      body: {
        name,
        html: source.html,
        ...(source.css ? { css: source.css } : {}),
        ...(source.sample_data !== null ? { sample_data: source.sample_data } : {}),
        // A saved protect comes back without its passwords, which a new template cannot keep: the copy
        // is made without it (docs/pdf-output.md "Finishing options").
        settings: withoutKeptProtect(source.settings),
      },
    }),
  );
}

function withoutKeptProtect(settings: Schemas['TemplateSettings']): Schemas['TemplateSettings'] {
  if (!settings.protect || !('owner_password_set' in settings.protect)) return settings;
  const { protect: _kept, ...rest } = settings;
  return rest;
}

/** A name-only change: no new version is made (spec: PUT /templates/<id>). */
export function renameTemplate(id: string, name: string): Promise<Schemas['Template']> {
  return call(api.PUT('/templates/{id}', { params: { path: { id } }, body: { name } }));
}

/** The API lists at most this many templates at once (spec: GET /templates `limit`). */
const LIST_MAX = 100;
/** A choice list stops here: a select of thousands of names helps nobody (TemplateSelect says so). */
const CHOICES_MAX = 1_000;

/**
 * Every template's id and name for a choice list (Generate, batches, the documents filter), read page by
 * page so a team with more than 100 templates sees them all; `truncated` when CHOICES_MAX was reached.
 */
export async function templateChoices(): Promise<{
  data: Schemas['TemplateSummary'][];
  truncated: boolean;
}> {
  const data: Schemas['TemplateSummary'][] = [];
  for (let offset = 0; offset < CHOICES_MAX; offset += LIST_MAX) {
    const page = await call(api.GET('/templates', { params: { query: { limit: LIST_MAX, offset } } }));
    data.push(...page.data);
    if (!page.has_more) return { data, truncated: false };
  }
  return { data, truncated: true };
}
