import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, call, toApiError } from '../../api';
import { markPreviewed } from '../../onboarding';
import { retryWhileSlotsBusy } from '../../slot-retry';
import type { AccessibilityReport } from './accessibility-summary';
import type { Content, Settings } from './state';

const PREVIEW_DEBOUNCE_MS = 600;

/** The editor's unsaved content: what the draft-preview route renders. */
interface Draft {
  html: string;
  css: string;
  settings: Settings;
  data: Record<string, unknown>;
}

/** One page of the preview as the server rasterised it. */
interface PreviewPage {
  page: number;
  src: string;
  width: number;
  height: number;
}

export interface PreviewState {
  pages: PreviewPage[];
  pageCount?: number;
  truncated: boolean;
  busy: boolean;
  error?: unknown;
  /** The draft the shown pages were made from: "Open PDF" renders the same content. */
  shown?: Draft;
  /** The shown pages' accessibility report (missing alt, skipped heading levels, no language…). */
  accessibility?: AccessibilityReport;
}

export type Preview = PreviewState & { render: (draft: Draft) => Promise<void> };

/** The content as the draft-preview routes take it; null while it could only be refused. */
export function draftOf(content: Content, data: Record<string, unknown> | undefined): Draft | null {
  if (!data || content.html === '') return null;
  return { html: content.html, css: content.css, settings: content.settings, data };
}

/**
 * Renders unsaved content through POST /templates/{id}/draft-preview/pages as page images. Only the latest
 * request's answer is shown (a slower, older one arriving later is dropped), and the previous images stay
 * on screen until the new ones arrive, so typing never blanks the preview. A request refused because the
 * team's render slots are all taken (thumbnails of the template cards take them too) is asked again.
 */
export function usePreview(id: string): Preview {
  const [state, setState] = useState<PreviewState>({ pages: [], truncated: false, busy: false });
  const seq = useRef(0);
  const render = useCallback(
    async (draft: Draft) => {
      const mine = ++seq.current;
      setState((s) => ({ ...s, busy: true, error: undefined }));
      try {
        const answer = await retryWhileSlotsBusy(
          () =>
            call(
              api.POST('/templates/{id}/draft-preview/pages', {
                params: { path: { id } },
                body: { ...draft, accessibility_report: true },
              }),
            ),
          { stillWanted: () => mine === seq.current },
        );
        if (mine !== seq.current) return;
        markPreviewed(); // the first-run checklist's "preview" step
        setState({
          pages: answer.pages.map((p) => ({
            page: p.page,
            src: `data:image/png;base64,${p.png_base64}`,
            width: p.width,
            height: p.height,
          })),
          pageCount: answer.page_count,
          truncated: answer.truncated,
          busy: false,
          shown: draft,
          ...(answer.accessibility ? { accessibility: answer.accessibility } : {}),
        });
      } catch (err) {
        if (mine === seq.current) setState((s) => ({ ...s, busy: false, error: err }));
      }
    },
    [id],
  );
  return { ...state, render };
}

/**
 * Any edit (HTML, CSS, data, settings) re-renders the unsaved draft, debounced while typing. Empty HTML or
 * unparsable data would only be refused: the last good preview stays until they are fixed. `template` is the
 * loaded template: a version loaded again is rendered again.
 */
export function useLivePreview(
  content: Content,
  data: Record<string, unknown> | undefined,
  template: unknown,
  render: Preview['render'],
): void {
  useEffect(() => {
    const draft = template ? draftOf(content, data) : null;
    if (!draft) return;
    const timer = setTimeout(() => render(draft), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // The sample data counts by its text: a new parse of the same text is no edit.
  }, [content.html, content.css, content.settings, content.data, template, render]);
}

/**
 * Opens the draft's watermarked PDF (POST /templates/{id}/draft-preview) in a new tab. The tab is opened
 * during the click, while the browser still counts it as the user's, and pointed at the PDF once it exists.
 */
export async function openDraftPdf(id: string, draft: Draft): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  try {
    const { data, error, response } = await api.POST('/templates/{id}/draft-preview', {
      params: { path: { id } },
      body: draft,
      parseAs: 'blob',
    });
    if (error !== undefined || !response.ok) throw toApiError(response, error);
    const url = URL.createObjectURL(data as unknown as Blob);
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    // The tab has loaded it by then; the object URL would otherwise live as long as the dashboard.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
