// Named with .js: test/unit/template-editor-state.test.ts type-checks this file as a Node module too.
import type { Schemas } from '../../api.js';
import type { StoredDraft } from '../../drafts.js';

export type Settings = Schemas['TemplateSettings'];

/** What the editor holds: the three panes' text and the page settings. */
export interface Content {
  html: string;
  css: string;
  /** The sample-data pane's text as typed (it may not parse yet). */
  data: string;
  settings: Settings;
}

/** The parts of a template version the editor loads. */
export type LoadedTemplate = Pick<
  Schemas['Template'],
  'html' | 'css' | 'sample_data' | 'settings' | 'current_version' | 'pinned_version'
>;

export interface EditorState {
  content: Content;
  /** The content of the version last loaded or saved: what "unsaved" is measured against. */
  baseline: Content | null;
  baseVersion: number;
  /** Bumped when the app (not the user) puts a text into the editors: a version loaded, a draft restored. */
  loads: number;
  /** A draft this browser kept from an earlier visit, offered until the user restores or discards it. */
  offer: StoredDraft | null;
  pinned: number | null;
  /** What the last action failed with (a save, pin, rename, duplicate, delete or Open PDF). */
  error: unknown;
  saving: boolean;
  /** The version the last save made, for its confirmation. */
  savedVersion: number | null;
  /** The name after a rename (a name-only change makes no version, so the content is not reloaded). */
  name: string | null;
  renaming: boolean;
  /** The old version whose source is shown against the current one. */
  viewed: number | null;
  /** The note typed for the next saved version (extension `message`); cleared once a save makes one. */
  note: string;
}

export type EditorAction =
  | { type: 'loaded'; template: LoadedTemplate; stored: StoredDraft | null }
  | { type: 'edited'; pane: 'html' | 'css' | 'data'; text: string }
  | { type: 'settings-edited'; settings: Settings }
  | { type: 'draft-restored' }
  | { type: 'draft-discarded' }
  | { type: 'save-started' }
  | { type: 'saved'; sent: Content; version: number }
  | { type: 'save-failed'; error: unknown }
  | { type: 'action-started' }
  | { type: 'action-failed'; error: unknown }
  | { type: 'pinned'; version: number | null }
  | { type: 'renaming'; open: boolean }
  | { type: 'renamed'; name: string }
  | { type: 'version-toggled'; version: number }
  | { type: 'version-closed' }
  | { type: 'note-edited'; text: string };

export const initialEditorState: EditorState = {
  content: { html: '', css: '', data: '{}', settings: {} },
  baseline: null,
  baseVersion: 0,
  loads: 0,
  offer: null,
  pinned: null,
  error: null,
  saving: false,
  savedVersion: null,
  name: null,
  renaming: false,
  viewed: null,
  note: '',
};

/** Settings compared by value whatever the key order (the form and the server build them differently). */
function settingsKey(settings: Settings): string {
  const record = settings as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}

function sameContent(a: Content, b: Content): boolean {
  return (
    a.html === b.html &&
    a.css === b.css &&
    a.data === b.data &&
    settingsKey(a.settings) === settingsKey(b.settings)
  );
}

function contentOfDraft(draft: StoredDraft): Content {
  return { html: draft.html, css: draft.css, data: draft.data, settings: draft.settings as Settings };
}

/** A loaded version as the panes show it: the sample data pretty-printed for editing. */
export function contentOfTemplate(t: LoadedTemplate): Content {
  return {
    html: t.html,
    css: t.css ?? '',
    data: JSON.stringify(t.sample_data ?? {}, null, 2),
    settings: t.settings ?? {},
  };
}

export function isDirty(state: EditorState): boolean {
  return state.baseline !== null && !sameContent(state.content, state.baseline);
}

/** Until the user answers the offer, the stored draft is theirs to restore: autosave must not clear it. */
export function keepsStoredDraft(state: EditorState): boolean {
  return state.offer !== null || state.baseline === null;
}

function loaded(state: EditorState, template: LoadedTemplate, stored: StoredDraft | null): EditorState {
  const fresh = contentOfTemplate(template);
  // A stored draft equal to the loaded version is nothing to offer; an offer still open stays open.
  const differs = stored !== null && !sameContent(contentOfDraft(stored), fresh);
  return {
    ...state,
    content: fresh,
    baseline: fresh,
    baseVersion: template.current_version,
    loads: state.loads + 1,
    pinned: template.pinned_version,
    offer: differs ? stored : state.offer,
  };
}

function draftRestored(state: EditorState): EditorState {
  if (!state.offer) return state;
  return { ...state, content: contentOfDraft(state.offer), loads: state.loads + 1, offer: null };
}

/** What was sent is now the saved version; anything typed while it was saving stays unsaved. */
function saved(state: EditorState, sent: Content, version: number): EditorState {
  return { ...state, saving: false, savedVersion: version, baseline: sent, baseVersion: version, note: '' };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'loaded':
      return loaded(state, action.template, action.stored);
    case 'edited':
      return { ...state, content: { ...state.content, [action.pane]: action.text } };
    case 'settings-edited':
      return { ...state, content: { ...state.content, settings: action.settings } };
    case 'draft-restored':
      return draftRestored(state);
    case 'draft-discarded':
      return { ...state, offer: null };
    case 'save-started':
      return { ...state, saving: true, error: null, savedVersion: null };
    case 'saved':
      return saved(state, action.sent, action.version);
    case 'save-failed':
      return { ...state, saving: false, error: action.error };
    case 'action-started':
      return { ...state, error: null };
    case 'action-failed':
      return { ...state, error: action.error };
    case 'pinned':
      return { ...state, pinned: action.version };
    case 'renaming':
      return { ...state, renaming: action.open };
    case 'renamed':
      return { ...state, name: action.name, renaming: false };
    case 'version-toggled':
      return { ...state, viewed: state.viewed === action.version ? null : action.version };
    case 'version-closed':
      return { ...state, viewed: null };
    case 'note-edited':
      return { ...state, note: action.text };
  }
}
