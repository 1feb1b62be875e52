/** A stored template (spec: Template). Content lives in its versions. */
export interface TemplatesTable {
  id: string;
  team_id: string;
  name: string;
  current_version: number;
  pinned_version: number | null;
  created_at: string;
  updated_at: string;
  /** Set by DELETE; the row and its versions are erased 30 days later (spec: Retention facts). */
  deleted_at: string | null;
}

/** One immutable version of a template's content (spec: Template versions). */
export interface TemplateVersionsTable {
  template_id: string;
  version: number;
  html: string;
  css: string | null;
  /** JSON text of the sample data object, or null. */
  sample_data_json: string | null;
  /** JSON text of the page settings object (`mode`, `format`, `orientation`, `margin`). */
  settings_json: string;
  created_at: string;
  /** Blob key of the cached 480 px page-1 PNG, made on first request. */
  thumbnail_key: string | null;
  /** Extension: the note sent as `message` when this version was saved. */
  message: string | null;
  /** Extension: who saved it, the dashboard user's email or the API key's name and prefix. */
  author: string | null;
}

export interface TemplatesTables {
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
}
