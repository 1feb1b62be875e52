import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, call, type Schemas, type Session, toApiError } from '../api';
import { CodeEditor, type Marker } from '../code-editor';
import { type Finishing, FinishingForm } from '../finishing-form';
import { Busy, ErrorText, formatDate, Page, useLoad } from '../ui';
import { VersionDiff } from './version-diff';

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

/** Renders unsaved content through POST /templates/{id}/draft-preview; only the latest answer is shown. */
function usePreview(id: string) {
  const [state, setState] = useState<{ url?: string; pages?: number; busy: boolean; error?: unknown }>({
    busy: false,
  });
  const seq = useRef(0);
  const render = useCallback(
    async (draft: Draft) => {
      const mine = ++seq.current;
      setState((s) => ({ ...s, busy: true, error: undefined }));
      try {
        const {
          data: blob,
          error,
          response,
        } = await api.POST('/templates/{id}/draft-preview', {
          params: { path: { id } },
          body: { html: draft.html, css: draft.css, settings: draft.settings, data: draft.data },
          parseAs: 'blob',
        });
        if (error !== undefined || !response.ok) throw toApiError(response, error);
        if (mine !== seq.current) return;
        const url = URL.createObjectURL(blob as unknown as Blob);
        setState((s) => {
          if (s.url) URL.revokeObjectURL(s.url);
          return { url, pages: Number(response.headers.get('x-pages')), busy: false };
        });
      } catch (err) {
        if (mine === seq.current) setState((s) => ({ ...s, busy: false, error: err }));
      }
    },
    [id],
  );
  return { ...state, render };
}

export function TemplateEditorPage({ id, session }: { id: string; session: Session }) {
  const loaded = useLoad(() => call(api.GET('/templates/{id}', { params: { path: { id } } })), [id]);
  const versions = useLoad(
    () => call(api.GET('/templates/{id}/versions', { params: { path: { id } } })),
    [id],
  );
  const [html, setHtml] = useState('');
  const [css, setCss] = useState('');
  const [dataText, setDataText] = useState('{}');
  const [settings, setSettings] = useState<Settings>({});
  const [pinned, setPinned] = useState<number | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const preview = usePreview(id);

  useEffect(() => {
    const t = loaded.data;
    if (!t) return;
    setHtml(t.html);
    setCss(t.css ?? '');
    setDataText(JSON.stringify(t.sample_data ?? {}, null, 2));
    setSettings(t.settings ?? {});
    setPinned(t.pinned_version);
  }, [loaded.data]);

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

  if (loaded.loading && !loaded.data) return <Busy label="Loading template…" />;
  if (!loaded.data) return <ErrorText error={loaded.error} />;
  const htmlMarkers = [...markersOf(saveError), ...markersOf(preview.error)];
  const markers: Record<Pane, Marker[]> = {
    html: htmlMarkers,
    css: [],
    data: parsed.marker ? [parsed.marker] : [],
  };
  const readOnly = session.mode === 'test';

  return (
    <Page
      title={loaded.data.name}
      actions={
        <>
          <a href={`#/generate?template=${id}`}>Generate from this template</a>
          <button type="button" class="primary" onClick={save} disabled={saving}>
            {saving ? 'Saving…' : 'Save new version'}
          </button>
        </>
      }
    >
      {readOnly && <p class="hint">Test mode: saving and pinning need Live mode (switch at the top).</p>}
      <div aria-live="polite">
        {saved && <p role="status">{saved}</p>}
        <ErrorText error={saveError} id="save-error" />
      </div>
      <div class="editor-grid">
        <div class="panes">
          <h2 id="html-label">HTML (Liquid)</h2>
          <CodeEditor
            id="html-pane"
            label="Template HTML"
            language="html"
            value={html}
            markers={markers.html}
            onChange={setHtml}
          />
          <h2>CSS</h2>
          <CodeEditor
            id="css-pane"
            label="Template CSS"
            language="css"
            value={css}
            markers={markers.css}
            onChange={setCss}
          />
          <h2>Sample data (JSON)</h2>
          <CodeEditor
            id="data-pane"
            label="Sample data JSON"
            language="json"
            value={dataText}
            markers={markers.data}
            onChange={setDataText}
          />
          {parsed.marker && <p class="error">{parsed.marker.message}</p>}
          <SettingsForm settings={settings} onChange={setSettings} />
          <FinishingForm
            value={settings as Finishing}
            onChange={(next) => setSettings(next as Settings)}
            withProtect={false}
            idPrefix="set-finishing"
          />
        </div>
        <section class="preview" aria-labelledby="preview-title">
          <h2 id="preview-title">
            Preview {preview.pages ? `(${preview.pages} page${preview.pages === 1 ? '' : 's'})` : ''}
          </h2>
          {/* A fixed slot: progress appearing must not move the controls below while someone clicks them. */}
          <div class="busy-slot">{preview.busy && <Busy label="Rendering preview…" />}</div>
          <ErrorText error={preview.error} id="preview-error" />
          {preview.url && (
            <iframe title="Preview PDF" src={preview.url} data-pages={preview.pages} class="pdf" />
          )}
        </section>
      </div>
      <section aria-labelledby="versions-title">
        <h2 id="versions-title">Versions</h2>
        <div class="busy-slot">{versions.loading && <Busy label="Loading versions…" />}</div>
        <ErrorText error={versions.error} />
        <table>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Created</th>
              <th scope="col">Pin</th>
            </tr>
          </thead>
          <tbody>
            {versions.data?.data.map((v) => (
              <tr key={v.version}>
                <td>
                  v{v.version}
                  {pinned === v.version && <strong> (pinned)</strong>}
                </td>
                <td>{formatDate(v.created_at)}</td>
                <td>
                  {pinned === v.version ? (
                    <button type="button" onClick={() => pin(null)}>
                      Unpin v{v.version}
                    </button>
                  ) : (
                    <button type="button" onClick={() => pin(v.version)}>
                      Pin v{v.version}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {versions.data && versions.data.data.length > 1 && (
          <VersionDiff
            key={versions.data.data.length}
            id={id}
            versions={versions.data.data.map((v) => v.version)}
          />
        )}
      </section>
    </Page>
  );
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
