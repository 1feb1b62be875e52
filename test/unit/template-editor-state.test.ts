import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredDraft } from '../../web/src/drafts.js';
import {
  type Content,
  contentOfTemplate,
  type EditorAction,
  type EditorState,
  editorReducer,
  initialEditorState,
  isDirty,
  keepsStoredDraft,
  type LoadedTemplate,
} from '../../web/src/pages/template-editor/state.js';

const version3: LoadedTemplate = {
  html: '<h1>{{ title }}</h1>',
  css: null,
  sample_data: { title: 'Invoice' },
  settings: { format: 'A4', margin: '20mm' },
  current_version: 3,
  pinned_version: null,
};

function draftOf(content: Content, base_version = 3): StoredDraft {
  return { ...content, base_version, saved_at: '2026-01-02T03:04:05.000Z' };
}

function run(actions: EditorAction[], from: EditorState = initialEditorState): EditorState {
  return actions.reduce(editorReducer, from);
}

const loaded = (stored: StoredDraft | null = null): EditorAction => ({
  type: 'loaded',
  template: version3,
  stored,
});

/** The template editor's state (web/src/pages/template-editor/state.ts): pure logic, no browser. */
describe('editorReducer', () => {
  it('loads a version as the panes show it, the baseline of "unsaved"', () => {
    const state = run([loaded()]);
    assert.deepEqual(state.content, {
      html: '<h1>{{ title }}</h1>',
      css: '',
      data: '{\n  "title": "Invoice"\n}',
      settings: { format: 'A4', margin: '20mm' },
    });
    assert.equal(state.baseline, state.content);
    assert.equal(state.baseVersion, 3);
    assert.equal(state.loads, 1);
    assert.equal(state.pinned, null);
    assert.equal(isDirty(state), false);
  });

  it('is not dirty before a version is loaded, and keeps any stored draft meanwhile', () => {
    assert.equal(isDirty(initialEditorState), false);
    assert.equal(keepsStoredDraft(initialEditorState), true);
    assert.equal(keepsStoredDraft(run([loaded()])), false);
  });

  it('marks typing as unsaved, and typing it back as saved again', () => {
    const typed = run([loaded(), { type: 'edited', pane: 'css', text: 'h1 { color: red }' }]);
    assert.equal(typed.content.css, 'h1 { color: red }');
    assert.equal(typed.content.html, version3.html);
    assert.equal(isDirty(typed), true);
    assert.equal(isDirty(editorReducer(typed, { type: 'edited', pane: 'css', text: '' })), false);
    // Typing is the user's text: the editors are not given it again.
    assert.equal(typed.loads, 1);
  });

  it('compares settings by value whatever their key order', () => {
    const reordered = run([
      loaded(),
      { type: 'settings-edited', settings: { margin: '20mm', format: 'A4' } },
    ]);
    assert.equal(isDirty(reordered), false);
    const changed = editorReducer(reordered, { type: 'settings-edited', settings: { format: 'A5' } });
    assert.equal(isDirty(changed), true);
  });

  it('offers a stored draft that differs from the loaded version, and restores it into the editors', () => {
    const kept: Content = { ...contentOfTemplate(version3), html: '<h1>Draft</h1>' };
    const offered = run([loaded(draftOf(kept))]);
    assert.equal(offered.offer?.html, '<h1>Draft</h1>');
    assert.equal(keepsStoredDraft(offered), true);
    assert.equal(isDirty(offered), false);

    const restored = editorReducer(offered, { type: 'draft-restored' });
    assert.equal(restored.offer, null);
    assert.equal(restored.content.html, '<h1>Draft</h1>');
    assert.equal(restored.loads, offered.loads + 1);
    assert.equal(isDirty(restored), true);
  });

  it('offers nothing when the stored draft equals the loaded version', () => {
    assert.equal(run([loaded(draftOf(contentOfTemplate(version3)))]).offer, null);
  });

  it('keeps an open offer when the same version loads again without a different draft', () => {
    const kept: Content = { ...contentOfTemplate(version3), css: 'p {}' };
    const reloaded = run([loaded(draftOf(kept)), loaded(null)]);
    assert.equal(reloaded.offer?.css, 'p {}');
    assert.equal(reloaded.loads, 2);
  });

  it('drops a discarded offer and leaves the editors as they are', () => {
    const kept: Content = { ...contentOfTemplate(version3), css: 'p {}' };
    const offered = run([loaded(draftOf(kept))]);
    const discarded = editorReducer(offered, { type: 'draft-discarded' });
    assert.equal(discarded.offer, null);
    assert.equal(discarded.content, offered.content);
    assert.equal(keepsStoredDraft(discarded), false);
    // Nothing to restore any more: restoring changes nothing.
    assert.equal(editorReducer(discarded, { type: 'draft-restored' }), discarded);
  });

  it('makes what was sent the saved version, and keeps what was typed meanwhile unsaved', () => {
    const typed = run([loaded(), { type: 'edited', pane: 'html', text: '<h1>A</h1>' }]);
    const sent = typed.content;
    const saving = run(
      [{ type: 'save-started' }, { type: 'edited', pane: 'html', text: '<h1>AB</h1>' }],
      typed,
    );
    assert.equal(saving.saving, true);

    const saved = editorReducer(saving, { type: 'saved', sent, version: 4 });
    assert.equal(saved.saving, false);
    assert.equal(saved.savedVersion, 4);
    assert.equal(saved.baseVersion, 4);
    assert.equal(saved.baseline, sent);
    assert.equal(saved.content.html, '<h1>AB</h1>');
    assert.equal(isDirty(saved), true);
  });

  it('clears the previous outcome when a save starts, and keeps the error when it fails', () => {
    const failedBefore = run([loaded(), { type: 'action-failed', error: new Error('pin refused') }]);
    const started = run(
      [{ type: 'saved', sent: failedBefore.content, version: 4 }, { type: 'save-started' }],
      failedBefore,
    );
    assert.equal(started.error, null);
    assert.equal(started.savedVersion, null);

    const error = new Error('quota');
    const failed = editorReducer(started, { type: 'save-failed', error });
    assert.equal(failed.saving, false);
    assert.equal(failed.error, error);
    // A failed save makes no version: what is unsaved is measured against the same one.
    assert.equal(failed.baseVersion, 4);
    assert.equal(failed.baseline, started.baseline);
  });

  it('clears the error as another action starts, and keeps the one it fails with', () => {
    const failed = run([loaded(), { type: 'action-failed', error: 'x' }]);
    assert.equal(failed.error, 'x');
    assert.equal(editorReducer(failed, { type: 'action-started' }).error, null);
  });

  it('pins and unpins', () => {
    const pinned = run([loaded(), { type: 'pinned', version: 2 }]);
    assert.equal(pinned.pinned, 2);
    assert.equal(editorReducer(pinned, { type: 'pinned', version: null }).pinned, null);
  });

  it('opens the rename form, and closes it with the new name', () => {
    const open = run([loaded(), { type: 'renaming', open: true }]);
    assert.equal(open.renaming, true);
    const renamed = editorReducer(open, { type: 'renamed', name: 'Invoice (EU)' });
    assert.equal(renamed.renaming, false);
    assert.equal(renamed.name, 'Invoice (EU)');
    assert.equal(editorReducer(open, { type: 'renaming', open: false }).renaming, false);
  });

  it('shows one old version at a time: a second click hides it, another version replaces it', () => {
    const viewed = run([loaded(), { type: 'version-toggled', version: 1 }]);
    assert.equal(viewed.viewed, 1);
    assert.equal(editorReducer(viewed, { type: 'version-toggled', version: 1 }).viewed, null);
    assert.equal(editorReducer(viewed, { type: 'version-toggled', version: 2 }).viewed, 2);
    assert.equal(editorReducer(viewed, { type: 'version-closed' }).viewed, null);
  });
});
