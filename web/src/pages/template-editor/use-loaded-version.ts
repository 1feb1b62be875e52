import { type Dispatch, useEffect } from 'preact/hooks';
import { readDraft } from '../../drafts';
import type { EditorAction, LoadedTemplate } from './state';

/**
 * Puts each version the page loads (on opening, and again after a restore) into the editors, with the draft
 * this browser kept for the template, which the reducer offers back when it differs.
 */
export function useLoadedVersion(
  template: LoadedTemplate | undefined,
  teamId: string,
  templateId: string,
  dispatch: Dispatch<EditorAction>,
): void {
  useEffect(() => {
    if (!template) return;
    dispatch({ type: 'loaded', template, stored: readDraft(teamId, templateId) });
  }, [template]);
}
