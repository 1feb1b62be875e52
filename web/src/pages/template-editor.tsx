import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, call, type Schemas, type Session, toApiError } from '../api';
import { ApiPanel } from '../api-snippets';
import { CodeEditor, type Marker } from '../code-editor';
import { clearDraft, readDraft, type StoredDraft, writeDraft } from '../drafts';
import { confirmAction, toast } from '../feedback';
import { type Finishing, FinishingForm } from '../finishing-form';
import { markPreviewed } from '../onboarding';
import { retryWhileSlotsBusy } from '../slot-retry';
import { copyName, duplicateTemplate, renameTemplate } from '../template-actions';
import {
  Busy,
  DataTable,
  ErrorText,
  formatDate,
  go,
  liveOnlyReason,
  Page,
  Reason,
  releaseLeaveGuard,
  Skeleton,
  useLeaveGuard,
  useLoad,
} from '../ui';
import { VersionDiff, VersionSource } from './version-diff';

type Settings = Schemas['TemplateSettings'];
type Pane = 'html' | 'css' | 'data';

const PREVIEW_DEBOUNCE_MS = 600;

/** Markers for a template_render_error that carries details.line / details.column. */
function markersOf(err: unknown): Marker[] {
  if (!(err instanceof ApiError) || err.code !== 'template_render_error') return [];
  const line = Number(err.details?.line);
  if (!Number.isInteger(line)) return [];
  const column = Number(err.details?.column);
  return [{ line, ...(Number.isInteger(column) ? { column } : {}), message: err.message }];
}

/** The sample-data pane's JSON, or a marker where it does not parse. */
function parseData(text: string): { data?: Record<string, unknown>; marker?: Marker } {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { marker: { line: 1, message: 'Sample data must be a JSON object ({ … }).' } };
    }
    return { data: value as Record<string, unknown> };
  } catch (err) {
    // V8 says "… at position N" (and sometimes line/column): point at it when it does.
    const msg = (err as Error).message;
    const pos = Number(/position (\d+)/.exec(msg)?.[1] ?? Number.NaN);
    if (!Number.isFinite(pos)) return { marker: { line: 1, message: msg } };
    const before = text.slice(0, pos).split('\n');
    return { marker: { line: before.length, column: before.at(-1)!.length + 1, message: msg } };
  }
}

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

interface PreviewState {
  pages: PreviewPage[];
  pageCount?: number;
  truncated: boolean;
  busy: boolean;
  error?: unknown;
  /** The draft the shown pages were made from: "Open PDF" renders the same content. */
  shown?: Draft;
}

/**
 * Renders unsaved content through POST /templates/{id}/draft-preview/pages as page images. Only the latest
 * request's answer is shown (a slower, older one arriving later is dropped), and the previous images stay
 * on screen until the new ones arrive, so typing never blanks the preview. A request refused because the
 * team's render slots are all taken (thumbnails of the template cards take them too) is asked again.
 */
function usePreview(id: string) {
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
                body: { html: draft.html, css: draft.css, settings: draft.settings, data: draft.data },
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
 * Opens the draft's watermarked PDF (POST /templates/{id}/draft-preview) in a new tab. The tab is opened
 * during the click, while the browser still counts it as the user's, and pointed at the PDF once it exists.
 */
async function openDraftPdf(id: string, draft: Draft): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  try {
    const { data, error, response } = await api.POST('/templates/{id}/draft-preview', {
      params: { path: { id } },
      body: { html: draft.html, css: draft.css, settings: draft.settings, data: draft.data },
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

/** Zoom levels of the preview pages, as a share of the preview column's width. */
const ZOOMS = [50, 75, 100, 125, 150, 200] as const;
const ZOOM_KEY = 'quire:preview-zoom';

function storedZoom(): number {
  let value = 100;
  try {
    value = Number(localStorage.getItem(ZOOM_KEY));
  } catch {
    // Storage disabled: fit width.
  }
  return (ZOOMS as readonly number[]).includes(value) ? value : 100;
}

/** The preview pages in a scrolling column, with a zoom the browser remembers between templates. */
function PreviewPages({ preview }: { preview: PreviewState }) {
  const [zoom, setZoom] = useState(storedZoom);
  const change = (next: number) => {
    setZoom(next);
    try {
      localStorage.setItem(ZOOM_KEY, String(next));
    } catch {
      // Storage refused: the zoom still applies for this page.
    }
  };
  const at = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <>
      <fieldset class="preview-zoom">
        <legend class="sr-only">Preview zoom</legend>
        <button
          type="button"
          onClick={() => change(ZOOMS[at - 1] ?? zoom)}
          disabled={at <= 0}
          aria-label="Zoom out"
        >
          −
        </button>
        <label for="preview-zoom" class="sr-only">
          Zoom
        </label>
        <select id="preview-zoom" value={zoom} onChange={(e) => change(Number(e.currentTarget.value))}>
          {ZOOMS.map((z) => (
            <option key={z} value={z}>
              {z === 100 ? 'Fit width' : `${z} %`}
            </option>
          ))}
        </select>
        <button
          type="button"
          onClick={() => change(ZOOMS[at + 1] ?? zoom)}
          disabled={at >= ZOOMS.length - 1}
          aria-label="Zoom in"
        >
          +
        </button>
      </fieldset>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the pages scroll, so they must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <section class="preview-pages" data-testid="preview-pages" tabIndex={0} aria-label="Preview pages">
        {preview.pages.map((p) => (
          <img
            key={p.page}
            class="preview-page"
            src={p.src}
            width={p.width}
            height={p.height}
            style={{ width: `${zoom}%` }}
            alt={`Page ${p.page} of the preview`}
          />
        ))}
        {preview.truncated && (
          <p class="hint">
            The first {preview.pages.length} of {preview.pageCount} pages are shown; open the PDF for all of
            them.
          </p>
        )}
      </section>
    </>
  );
}

/** What the editor holds: the three panes' text and the page settings. */
interface Content {
  html: string;
  css: string;
  /** The sample-data pane's text as typed (it may not parse yet). */
  data: string;
  settings: Settings;
}

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

/** Drafts are written at most this often while someone types, and once more when they pause. */
const DRAFT_WRITE_MS = 300;
const LEAVE_QUESTION =
  'This template has unsaved changes. Leave anyway? They stay as a draft in this browser until you save or discard them.';

/**
 * Keeps unsaved content in localStorage (throttled while typing, and when the page is hidden or closed)
 * and clears it once the content matches the saved version again. `stored` is false when the browser
 * refused to store; `stop` clears the draft for good (the template was deleted).
 */
function useDraftStore(
  teamId: string,
  templateId: string,
  state: { content: Content; baseVersion: number; dirty: boolean; keep: boolean },
): { stored: boolean; stop: () => void } {
  const [stored, setStored] = useState(true);
  const latest = useRef(state);
  latest.current = state;
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
  }, [state.content, state.dirty, state.keep, write]);

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

export function TemplateEditorPage({ id, session }: { id: string; session: Session }) {
  const loaded = useLoad(() => call(api.GET('/templates/{id}', { params: { path: { id } } })), [id]);
  const versions = useLoad(
    () => call(api.GET('/templates/{id}/versions', { params: { path: { id } } })),
    [id],
  );
  const teamId = session.team.id;
  const [content, setContent] = useState<Content>({ html: '', css: '', data: '{}', settings: {} });
  // The content of the version last loaded or saved: what "unsaved" is measured against.
  const [baseline, setBaseline] = useState<Content | null>(null);
  const [baseVersion, setBaseVersion] = useState(0);
  // Bumped when the app (not the user) puts a text into the editors: a version loaded, a draft restored.
  const [loads, setLoads] = useState(0);
  const [offer, setOffer] = useState<StoredDraft | null>(null);
  const [pinned, setPinned] = useState<number | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  // The name after a rename (a name-only change makes no version, so the content is not reloaded).
  const [name, setName] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  // The old version whose source is shown against the current one.
  const [viewed, setViewed] = useState<number | null>(null);
  const preview = usePreview(id);

  const setHtml = useCallback((html: string) => setContent((c) => ({ ...c, html })), []);
  const setCss = useCallback((css: string) => setContent((c) => ({ ...c, css })), []);
  const setDataText = useCallback((data: string) => setContent((c) => ({ ...c, data })), []);
  const setSettings = useCallback((settings: Settings) => setContent((c) => ({ ...c, settings })), []);

  useEffect(() => {
    const t = loaded.data;
    if (!t) return;
    const fresh: Content = {
      html: t.html,
      css: t.css ?? '',
      data: JSON.stringify(t.sample_data ?? {}, null, 2),
      settings: t.settings ?? {},
    };
    setContent(fresh);
    setBaseline(fresh);
    setBaseVersion(t.current_version);
    setLoads((n) => n + 1);
    setPinned(t.pinned_version);
    const stored = readDraft(teamId, id);
    if (stored && !sameContent(contentOfDraft(stored), fresh)) setOffer(stored);
  }, [loaded.data]);

  const dirty = baseline !== null && !sameContent(content, baseline);
  useLeaveGuard(dirty ? LEAVE_QUESTION : null);
  const drafts = useDraftStore(teamId, id, {
    content,
    baseVersion,
    dirty,
    // Until the user answers the offer, the stored draft is theirs to restore: not cleared.
    keep: offer !== null || baseline === null,
  });

  const restoreDraft = () => {
    if (!offer) return;
    setContent(contentOfDraft(offer));
    setLoads((n) => n + 1);
    setOffer(null);
  };
  const discardDraft = () => {
    clearDraft(teamId, id);
    setOffer(null);
  };

  const { html, css, settings } = content;
  const dataText = content.data;
  const parsed = parseData(dataText);

  // Live preview: any edit (HTML, CSS, data, settings) re-renders the unsaved draft, debounced while typing.
  // Empty HTML or unparsable data would only be refused: the last good preview stays until they are fixed.
  useEffect(() => {
    if (!loaded.data || !parsed.data || html === '') return;
    const draft: Draft = { html, css, settings, data: parsed.data };
    const timer = setTimeout(() => preview.render(draft), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [html, css, settings, dataText, loaded.data, preview.render]);

  const save = async () => {
    if (!parsed.data) {
      setSaveError(new Error('Fix the sample data JSON first (marked in its pane).'));
      return;
    }
    const sent = content;
    setSaving(true);
    setSaveError(null);
    setSaved(null);
    try {
      const t = await call(
        api.PUT('/templates/{id}', {
          params: { path: { id } },
          body: { html, css: css || null, sample_data: parsed.data, settings },
        }),
      );
      setSaved(`Saved as version ${t.current_version}.`);
      // What was sent is now the saved version; anything typed meanwhile stays unsaved.
      setBaseline(sent);
      setBaseVersion(t.current_version);
      versions.reload();
    } catch (err) {
      setSaveError(err);
    } finally {
      setSaving(false);
    }
  };

  const pin = async (version: number | null) => {
    setSaveError(null);
    try {
      const t = await call(api.POST('/templates/{id}/pin', { params: { path: { id } }, body: { version } }));
      setPinned(t.pinned_version);
    } catch (err) {
      setSaveError(err);
    }
  };

  const remove = async () => {
    const name = loaded.data?.name ?? id;
    setSaveError(null);
    try {
      // Documents made from it make the deletion costlier to get wrong: then the name must be typed.
      const made = await call(api.GET('/documents', { params: { query: { template_id: id, limit: 1 } } }));
      const hasDocuments = made.data.length > 0;
      const ok = await confirmAction({
        title: `Delete the template ${name}?`,
        body:
          (hasDocuments
            ? 'Documents were generated from it: they stay downloadable until they expire, but '
            : '') +
          'renders that name it fail with template_not_found from now on, and it is erased after 30 days.',
        action: 'Delete template',
        ...(hasDocuments ? { typeToConfirm: name } : {}),
      });
      if (!ok) return;
      await call(api.DELETE('/templates/{id}', { params: { path: { id } } }));
      drafts.stop();
      releaseLeaveGuard();
      toast(`Template ${name} deleted.`);
      go('/templates');
    } catch (err) {
      setSaveError(err);
    }
  };

  const rename = async (event: Event) => {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget as HTMLFormElement).get('name')).trim();
    setSaveError(null);
    try {
      const t = await renameTemplate(id, next);
      setName(t.name);
      setRenaming(false);
      toast(`Renamed to ${t.name}.`);
    } catch (err) {
      setSaveError(err);
    }
  };

  const duplicate = async () => {
    const from = name ?? loaded.data?.name ?? 'Template';
    setSaveError(null);
    try {
      const copy = await duplicateTemplate(id, copyName(from));
      toast(`Duplicated as ${copy.name} (from the saved version ${baseVersion}).`, {
        href: `#/templates/${copy.id}`,
        label: 'Open the copy',
      });
    } catch (err) {
      setSaveError(err);
    }
  };

  // A restored version is the new current one: the editor loads it (the old content stays as a draft).
  const restored = () => {
    setViewed(null);
    loaded.reload();
    versions.reload();
  };

  useShortcuts({
    // The shortcut obeys what the button says: nothing in test mode or while a save is under way.
    save: () => session.mode === 'live' && !saving && void save(),
    preview: () => renderNow(),
  });
  const openPdf = () => {
    if (!preview.shown) return;
    openDraftPdf(id, preview.shown).catch(setSaveError);
  };
  const renderNow = () => {
    if (parsed.data && html !== '') void preview.render({ html, css, settings, data: parsed.data });
  };

  if (loaded.loading && !loaded.data) return <Skeleton label="Loading template…" rows={6} />;
  if (!loaded.data) return <ErrorText error={loaded.error} />;
  // The editors are created with the loaded text, not an empty one replaced a moment later.
  if (!baseline) return <Skeleton label="Loading template…" rows={6} />;
  const htmlMarkers = [...markersOf(saveError), ...markersOf(preview.error)];
  const markers: Record<Pane, Marker[]> = {
    html: htmlMarkers,
    css: [],
    data: parsed.marker ? [parsed.marker] : [],
  };
  const reason = liveOnlyReason(session.mode, 'edit templates');
  const title = name ?? loaded.data.name;

  return (
    <Page
      title={title}
      actions={
        <>
          {dirty && (
            <span class="unsaved" data-testid="unsaved">
              Unsaved changes
            </span>
          )}
          <a href={`#/generate?template=${id}`}>Generate from this template</a>
          <button
            type="button"
            onClick={() => setRenaming(!renaming)}
            aria-expanded={renaming}
            disabled={reason !== null}
            aria-describedby={reason ? 'save-reason' : undefined}
          >
            Rename
          </button>
          <button
            type="button"
            onClick={duplicate}
            disabled={reason !== null}
            aria-describedby={reason ? 'save-reason' : undefined}
          >
            Duplicate
          </button>
          <button
            type="button"
            class="primary"
            onClick={save}
            title="Ctrl+S"
            aria-keyshortcuts="Control+S Meta+S"
            disabled={saving || reason !== null}
            aria-describedby={reason ? 'save-reason' : undefined}
          >
            {saving ? 'Saving…' : 'Save new version'}
          </button>
          <button
            type="button"
            class="danger"
            onClick={remove}
            disabled={reason !== null}
            aria-describedby={reason ? 'save-reason' : undefined}
          >
            Delete template
          </button>
          <Reason id="save-reason" text={reason} />
        </>
      }
    >
      {renaming && (
        <form class="inline" onSubmit={rename} aria-label="Rename the template">
          <label for="rename-input">New name</label>
          <input id="rename-input" name="name" required maxLength={100} defaultValue={title} />
          <button type="submit" class="primary">
            Save name
          </button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
          <span class="hint">Renaming makes no new version.</span>
        </form>
      )}
      {offer && (
        <section class="draft-offer" aria-labelledby="draft-offer-title">
          <h2 id="draft-offer-title">Unsaved changes were kept</h2>
          <p>
            This browser kept changes you had not saved ({formatDate(offer.saved_at)}, made on version{' '}
            {offer.base_version}
            {offer.base_version !== baseVersion && `; the template is now at version ${baseVersion}`}).
          </p>
          <button type="button" class="primary" onClick={restoreDraft}>
            Restore draft
          </button>
          <button type="button" onClick={discardDraft}>
            Discard draft
          </button>
        </section>
      )}
      {!drafts.stored && dirty && (
        <p class="error" role="alert">
          This browser refused to keep a draft (storage full or disabled): save a version to keep your
          changes.
        </p>
      )}
      <div aria-live="polite">
        {saved && <p role="status">{saved}</p>}
        <ErrorText error={saveError} id="save-error" />
      </div>
      <div class="editor-grid">
        <div class="panes">
          <div class="pane-head">
            <h2 id="html-label">HTML (Liquid)</h2>
            <a href="/docs/liquid" target="_blank" rel="noopener">
              Liquid filters
            </a>
          </div>
          <CodeEditor
            id="html-pane"
            label="Template HTML"
            language="html"
            value={html}
            version={loads}
            markers={markers.html}
            onChange={setHtml}
          />
          <h2>CSS</h2>
          <CodeEditor
            id="css-pane"
            label="Template CSS"
            language="css"
            value={css}
            version={loads}
            markers={markers.css}
            onChange={setCss}
          />
          <h2>Sample data (JSON)</h2>
          <CodeEditor
            id="data-pane"
            label="Sample data JSON"
            language="json"
            value={dataText}
            version={loads}
            markers={markers.data}
            onChange={setDataText}
          />
          {parsed.marker && <p class="error">{parsed.marker.message}</p>}
          <SettingsForm settings={settings} onChange={setSettings} />
          <FinishingForm
            value={settings as Finishing}
            onChange={(next) => setSettings(next as Settings)}
            withProtect={true}
            idPrefix="set-finishing"
          />
        </div>
        <section class="preview" aria-labelledby="preview-title">
          <h2 id="preview-title">
            Preview{' '}
            {preview.pageCount ? `(${preview.pageCount} page${preview.pageCount === 1 ? '' : 's'})` : ''}
          </h2>
          <p class="hint" id="preview-note">
            The unsaved content, rendered by Quire page by page. Previews are watermarked in Live mode too and
            never stored or counted: the API watermarks every preview. Generate makes the real PDF. Ctrl+Enter
            renders at once.
          </p>
          <p class="preview-actions">
            <button type="button" onClick={openPdf} disabled={!preview.shown} aria-describedby="preview-note">
              Open PDF
            </button>
          </p>
          {/* A fixed slot: progress appearing must not move the controls below while someone clicks them. */}
          <div class="busy-slot">{preview.busy && <Busy label="Rendering preview…" />}</div>
          <ErrorText error={preview.error} id="preview-error" />
          {preview.pages.length > 0 && <PreviewPages preview={preview} />}
        </section>
      </div>
      <section aria-labelledby="versions-title">
        <h2 id="versions-title">Versions</h2>
        <div class="busy-slot">{versions.loading && <Busy label="Loading versions…" />}</div>
        <ErrorText error={versions.error} />
        <DataTable columns={['Version', 'Created', 'Pin', 'Source']}>
          {versions.data?.data.map((v) => (
            <tr key={v.version}>
              <td>
                v{v.version}
                {pinned === v.version && <strong> (pinned)</strong>}
              </td>
              <td>
                <time dateTime={v.created_at}>{formatDate(v.created_at)}</time>
              </td>
              <td>
                {pinned === v.version ? (
                  <button
                    type="button"
                    onClick={() => pin(null)}
                    disabled={reason !== null}
                    aria-describedby={reason ? 'save-reason' : undefined}
                  >
                    Unpin v{v.version}
                  </button>
                ) : (
                  <button
                    type="button"
                    onClick={() => pin(v.version)}
                    disabled={reason !== null}
                    aria-describedby={reason ? 'save-reason' : undefined}
                  >
                    Pin v{v.version}
                  </button>
                )}
              </td>
              <td>
                <button
                  type="button"
                  aria-expanded={viewed === v.version}
                  aria-controls="version-source"
                  onClick={() => setViewed(viewed === v.version ? null : v.version)}
                >
                  View v{v.version}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
        <div id="version-source">
          {viewed !== null && (
            <VersionSource
              key={`${viewed}-${baseVersion}`}
              id={id}
              version={viewed}
              current={baseVersion}
              readOnlyReason={reason}
              dirty={dirty}
              onRestored={restored}
              onClose={() => setViewed(null)}
            />
          )}
        </div>
        {versions.data && versions.data.data.length > 1 && (
          <VersionDiff
            key={versions.data.data.length}
            id={id}
            versions={versions.data.data.map((v) => v.version)}
          />
        )}
      </section>
      <ApiPanel templateId={id} data={parsed.data ?? loaded.data.sample_data ?? {}} />
    </Page>
  );
}

/**
 * Ctrl/Cmd+S saves and Ctrl/Cmd+Enter previews at once, also while typing in an editor pane. Caught on the
 * way down (capture), so neither the browser's "save page" nor CodeMirror's own Mod-Enter binding runs.
 */
function useShortcuts(actions: { save: () => void; preview: () => void }) {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const action = event.key === 's' ? 'save' : event.key === 'Enter' ? 'preview' : null;
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current[action]();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}

function SettingsForm({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  const format = typeof settings.format === 'string' ? settings.format : '';
  const set = (patch: Partial<Settings>) => {
    const next: Record<string, unknown> = { ...settings, ...patch };
    for (const key of Object.keys(next)) if (next[key] === '' || next[key] === undefined) delete next[key];
    onChange(next as Settings);
  };
  return (
    <fieldset class="settings">
      <legend>Page settings</legend>
      <label for="set-format">Format</label>
      <select
        id="set-format"
        value={format}
        onChange={(e) => set({ format: (e.currentTarget.value || undefined) as Settings['format'] })}
      >
        <option value="">Default</option>
        {['A4', 'A5', 'Letter', 'Legal'].map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      <label for="set-orientation">Orientation</label>
      <select
        id="set-orientation"
        value={settings.orientation ?? ''}
        onChange={(e) =>
          set({ orientation: (e.currentTarget.value || undefined) as Settings['orientation'] })
        }
      >
        <option value="">Default</option>
        <option value="portrait">Portrait</option>
        <option value="landscape">Landscape</option>
      </select>
      <label for="set-margin">Margin (CSS lengths, e.g. 20mm)</label>
      <input
        id="set-margin"
        value={settings.margin ?? ''}
        onChange={(e) => set({ margin: e.currentTarget.value || undefined })}
      />
      <label for="set-mode">Render mode</label>
      <select
        id="set-mode"
        value={settings.mode ?? ''}
        onChange={(e) => set({ mode: (e.currentTarget.value || undefined) as Settings['mode'] })}
      >
        <option value="">Default</option>
        <option value="fast">Fast</option>
        <option value="print">Print (Paged.js)</option>
      </select>
    </fieldset>
  );
}
