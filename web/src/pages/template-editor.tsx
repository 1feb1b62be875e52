import { useReducer } from 'preact/hooks';
import { api, call, type Session } from '../api';
import { ApiPanel } from '../api-snippets';
import { parseJsonObject } from '../code-editor';
import { ErrorText, liveOnlyReason, Page, Skeleton, useLoad } from '../ui';
import { editorActions } from './template-editor/actions';
import { DraftNotStored, DraftOffer } from './template-editor/draft-offer';
import { EditorPanes } from './template-editor/panes';
import { PreviewPane } from './template-editor/preview-pane';
import { RenameForm } from './template-editor/rename-form';
import { editorReducer, initialEditorState, isDirty, keepsStoredDraft } from './template-editor/state';
import { EditorToolbar } from './template-editor/toolbar';
import { useLoadedVersion } from './template-editor/use-loaded-version';
import { useLivePreview, usePreview } from './template-editor/use-preview';
import { useShortcuts } from './template-editor/use-shortcuts';
import { useUnsavedWork } from './template-editor/use-unsaved-work';
import { VersionsPanel } from './template-editor/versions-panel';

/**
 * A template's editor: HTML, CSS and sample data beside a live preview of the unsaved content, its versions
 * below. Its state is one reducer (template-editor/state.ts); its hooks and parts are in template-editor/.
 */
export function TemplateEditorPage({ id, session }: { id: string; session: Session }) {
  const loaded = useLoad(() => call(api.GET('/templates/{id}', { params: { path: { id } } })), [id]);
  const versions = useLoad(
    () => call(api.GET('/templates/{id}/versions', { params: { path: { id } } })),
    [id],
  );
  const teamId = session.team.id;
  const [state, dispatch] = useReducer(editorReducer, initialEditorState);
  const preview = usePreview(id);
  useLoadedVersion(loaded.data, teamId, id, dispatch);

  const dirty = isDirty(state);
  const drafts = useUnsavedWork(teamId, id, {
    content: state.content,
    baseVersion: state.baseVersion,
    dirty,
    keep: keepsStoredDraft(state),
  });
  const parsed = parseJsonObject(state.content.data, 'Sample data');
  useLivePreview(state.content, parsed.data, loaded.data, preview.render);

  const actions = editorActions({
    id,
    teamId,
    state,
    dispatch,
    data: parsed.data,
    loadedName: loaded.data?.name,
    preview,
    reloadTemplate: loaded.reload,
    reloadVersions: versions.reload,
    stopDrafts: drafts.stop,
  });
  useShortcuts({
    // The shortcut obeys what the button says: nothing in test mode or while a save is under way.
    save: () => session.mode === 'live' && !state.saving && void actions.save(),
    preview: actions.renderNow,
  });

  if (loaded.loading && !loaded.data) return <Skeleton label="Loading template…" rows={6} />;
  if (!loaded.data) return <ErrorText error={loaded.error} />;
  // The editors are created with the loaded text, not an empty one replaced a moment later.
  if (!state.baseline) return <Skeleton label="Loading template…" rows={6} />;
  const reason = liveOnlyReason(session.mode, 'edit templates');
  const title = state.name ?? loaded.data.name;

  return (
    <Page
      title={title}
      actions={
        <EditorToolbar
          id={id}
          dirty={dirty}
          saving={state.saving}
          renaming={state.renaming}
          reason={reason}
          note={state.note}
          onNote={(text) => dispatch({ type: 'note-edited', text })}
          onRenameToggle={() => dispatch({ type: 'renaming', open: !state.renaming })}
          actions={actions}
        />
      }
    >
      {state.renaming && (
        <RenameForm
          title={title}
          onSubmit={actions.rename}
          onCancel={() => dispatch({ type: 'renaming', open: false })}
        />
      )}
      {state.offer && (
        <DraftOffer
          offer={state.offer}
          baseVersion={state.baseVersion}
          onRestore={actions.restoreDraft}
          onDiscard={actions.discardDraft}
        />
      )}
      {!drafts.stored && dirty && <DraftNotStored />}
      <div aria-live="polite">
        {state.savedVersion !== null && <p role="status">{`Saved as version ${state.savedVersion}.`}</p>}
        <ErrorText error={state.error} id="save-error" />
      </div>
      <div class="editor-grid">
        <EditorPanes
          content={state.content}
          loads={state.loads}
          dataMarker={parsed.marker}
          renderErrors={[state.error, preview.error]}
          dispatch={dispatch}
        />
        <PreviewPane preview={preview} onOpenPdf={actions.openPdf} />
      </div>
      <VersionsPanel
        id={id}
        versions={versions}
        pinned={state.pinned}
        viewed={state.viewed}
        baseVersion={state.baseVersion}
        dirty={dirty}
        reason={reason}
        onPin={actions.pin}
        onToggleView={(version) => dispatch({ type: 'version-toggled', version })}
        onCloseView={() => dispatch({ type: 'version-closed' })}
        onRestored={actions.restored}
      />
      <ApiPanel templateId={id} data={parsed.data ?? loaded.data.sample_data ?? {}} />
    </Page>
  );
}
