import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { clearDraft, writeDraft } from '../../drafts';
import { useLeaveGuard } from '../../ui';
import type { Content } from './state';

/** Drafts are written at most this often while someone types, and once more when they pause. */
const DRAFT_WRITE_MS = 300;
const LEAVE_QUESTION =
  'This template has unsaved changes. Leave anyway? They stay as a draft in this browser until you save or discard them.';

interface UnsavedWork {
  content: Content;
  baseVersion: number;
  dirty: boolean;
  /** The stored draft is the user's to restore still: not cleared while the content is saved. */
  keep: boolean;
}

/** Unsaved changes are never lost unasked: leaving asks first, and a draft keeps them in this browser. */
export function useUnsavedWork(teamId: string, templateId: string, work: UnsavedWork) {
  useLeaveGuard(work.dirty ? LEAVE_QUESTION : null);
  return useDraftStore(teamId, templateId, work);
}

/**
 * Keeps unsaved content in localStorage (throttled while typing, and when the page is hidden or closed)
 * and clears it once the content matches the saved version again. `stored` is false when the browser
 * refused to store; `stop` clears the draft for good (the template was deleted).
 */
function useDraftStore(
  teamId: string,
  templateId: string,
  work: UnsavedWork,
): { stored: boolean; stop: () => void } {
  const [stored, setStored] = useState(true);
  const latest = useRef(work);
  latest.current = work;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Set once the template is deleted: nothing is written again, even by the flush on leaving.
  const stopped = useRef(false);
  const write = useCallback(() => {
    timer.current = null;
    if (stopped.current) return;
    const { content, baseVersion, dirty, keep } = latest.current;
    if (dirty) {
      const draft = { ...content, base_version: baseVersion, saved_at: new Date().toISOString() };
      setStored(writeDraft(teamId, templateId, draft));
    } else if (!keep) {
      clearDraft(teamId, templateId);
    }
  }, [teamId, templateId]);

  useEffect(() => {
    if (timer.current === null) timer.current = setTimeout(write, DRAFT_WRITE_MS);
  }, [work.content, work.dirty, work.keep, write]);

  useEffect(() => {
    // A tab closed or crashed mid-throttle: pagehide still runs on close and reload.
    const flush = () => {
      if (timer.current !== null) clearTimeout(timer.current);
      write();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [write]);
  const stop = useCallback(() => {
    stopped.current = true;
    clearDraft(teamId, templateId);
  }, [teamId, templateId]);
  return { stored, stop };
}
