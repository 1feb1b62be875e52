import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { findTemplate, findVersion, type TemplateRow, type VersionRow } from './repository.js';
import type { TemplateSettings } from './settings.js';
import type { VersionContent } from './versions.js';

/** A template with one of its versions: what every full Template answer and render reads. */
export interface TemplateAtVersion {
  template: TemplateRow;
  version: VersionRow;
}

export function notFound(id: string): AppError {
  return new AppError('template_not_found', `No template ${id} in this workspace.`);
}

export function versionNotFound(id: string, version: number): AppError {
  return new AppError('template_not_found', `Template ${id} has no version ${version}.`);
}

export function contentOf(row: VersionRow): VersionContent {
  return {
    html: row.html,
    css: row.css,
    sampleData: row.sample_data_json ? (JSON.parse(row.sample_data_json) as Record<string, unknown>) : null,
    settings: JSON.parse(row.settings_json) as TemplateSettings,
  };
}

/** Extension: the note a version was saved with and who saved it (both null when unknown). */
export interface VersionNote {
  message: string | null;
  author: string | null;
}

const NO_NOTE: VersionNote = { message: null, author: null };

export function versionRow(
  templateId: string,
  version: number,
  content: VersionContent,
  at: string,
  note: VersionNote = NO_NOTE,
): VersionRow {
  return {
    template_id: templateId,
    version,
    html: content.html,
    css: content.css,
    sample_data_json: content.sampleData === null ? null : JSON.stringify(content.sampleData),
    settings_json: JSON.stringify(content.settings),
    created_at: at,
    thumbnail_key: null,
    message: note.message,
    author: note.author,
  };
}

/** A team's template at a version (404 template_not_found for unknown, deleted, foreign or missing). */
export async function readTemplate(
  db: Db,
  teamId: string,
  id: string,
  pick: (t: TemplateRow) => number,
): Promise<TemplateAtVersion> {
  const template = await findTemplate(db, teamId, id);
  if (!template) throw notFound(id);
  const number = pick(template);
  const version = await findVersion(db, id, number);
  if (!version) throw versionNotFound(id, number);
  return { template, version };
}
