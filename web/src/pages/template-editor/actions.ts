import type { Dispatch } from 'preact/hooks';
import { api, call } from '../../api';
import { clearDraft } from '../../drafts';
import { confirmAction, toast } from '../../feedback';
import { copyName, duplicateTemplate, renameTemplate } from '../../template-actions';
import { go, releaseLeaveGuard } from '../../ui';
import type { EditorAction, EditorState } from './state';
import { draftOf, openDraftPdf, type Preview } from './use-preview';

export interface EditorContext {
  id: string;
  teamId: string;
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  /** The sample data pane's object; undefined while its text does not parse. */
  data: Record<string, unknown> | undefined;
  /** The name the template was loaded with. */
  loadedName: string | undefined;
  preview: Preview;
  reloadTemplate: () => void;
  reloadVersions: () => void;
  /** Clears this browser's draft for good (see useUnsavedWork). */
  stopDrafts: () => void;
}

/**
 * What the editor's buttons and shortcuts do, with the state of the render they were made in. What one fails
 * with is kept in state.error, shown above the panes; those that ask the API to change the template clear it
 * as they start.
 */
export function editorActions(ctx: EditorContext) {
  const { id, state, dispatch } = ctx;
  const failed = (error: unknown) => dispatch({ type: 'action-failed', error });

  const save = async () => {
    if (!ctx.data) {
      failed(new Error('Fix the sample data JSON first (marked in its pane).'));
      return;
    }
    const sent = state.content;
    const message = state.note.trim();
    dispatch({ type: 'save-started' });
    try {
      const t = await call(
        api.PUT('/templates/{id}', {
          params: { path: { id } },
          body: {
            html: sent.html,
            css: sent.css || null,
            sample_data: ctx.data,
            settings: sent.settings,
            ...(message ? { message } : {}),
          },
        }),
      );
      dispatch({ type: 'saved', sent, version: t.current_version });
      ctx.reloadVersions();
    } catch (error) {
      dispatch({ type: 'save-failed', error });
    }
  };

  const pin = async (version: number | null) => {
    dispatch({ type: 'action-started' });
    try {
      const t = await call(api.POST('/templates/{id}/pin', { params: { path: { id } }, body: { version } }));
      dispatch({ type: 'pinned', version: t.pinned_version });
    } catch (err) {
      failed(err);
    }
  };

  const remove = async () => {
    const name = ctx.loadedName ?? id;
    dispatch({ type: 'action-started' });
    try {
      if (!(await confirmDelete(id, name))) return;
      await call(api.DELETE('/templates/{id}', { params: { path: { id } } }));
      ctx.stopDrafts();
      releaseLeaveGuard();
      toast(`Template ${name} deleted.`);
      go('/templates');
    } catch (err) {
      failed(err);
    }
  };

  const rename = async (event: Event) => {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget as HTMLFormElement).get('name')).trim();
    dispatch({ type: 'action-started' });
    try {
      const t = await renameTemplate(id, next);
      dispatch({ type: 'renamed', name: t.name });
      toast(`Renamed to ${t.name}.`);
    } catch (err) {
      failed(err);
    }
  };

  const duplicate = async () => {
    const from = state.name ?? ctx.loadedName ?? 'Template';
    dispatch({ type: 'action-started' });
    try {
      const copy = await duplicateTemplate(id, copyName(from));
      toast(`Duplicated as ${copy.name} (from the saved version ${state.baseVersion}).`, {
        href: `#/templates/${copy.id}`,
        label: 'Open the copy',
      });
    } catch (err) {
      failed(err);
    }
  };

  // A restored version is the new current one: the editor loads it (the old content stays as a draft).
  const restored = () => {
    dispatch({ type: 'version-closed' });
    ctx.reloadTemplate();
    ctx.reloadVersions();
  };

  const openPdf = () => {
    if (ctx.preview.shown) openDraftPdf(id, ctx.preview.shown).catch(failed);
  };

  const renderNow = () => {
    const draft = draftOf(state.content, ctx.data);
    if (draft) void ctx.preview.render(draft);
  };

  const restoreDraft = () => dispatch({ type: 'draft-restored' });

  const discardDraft = () => {
    clearDraft(ctx.teamId, id);
    dispatch({ type: 'draft-discarded' });
  };

  return { save, pin, remove, rename, duplicate, restored, openPdf, renderNow, restoreDraft, discardDraft };
}

export type EditorActions = ReturnType<typeof editorActions>;

/**
 * Asks before deleting. Documents made from the template make the deletion costlier to get wrong: then the
 * name must be typed.
 */
async function confirmDelete(id: string, name: string): Promise<boolean> {
  const made = await call(api.GET('/documents', { params: { query: { template_id: id, limit: 1 } } }));
  const hasDocuments = made.data.length > 0;
  return confirmAction({
    title: `Delete the template ${name}?`,
    body:
      (hasDocuments
        ? 'Documents were generated from it: they stay downloadable until they expire, but '
        : '') +
      'renders that name it fail with template_not_found from now on, and it is erased after 30 days.',
    action: 'Delete template',
    ...(hasDocuments ? { typeToConfirm: name } : {}),
  });
}
