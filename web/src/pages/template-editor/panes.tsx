import { type Dispatch, useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { CodeEditor, type Marker } from '../../code-editor';
import { type Finishing, FinishingForm } from '../../finishing-form';
import { SettingsForm } from './settings-form';
import type { Content, EditorAction, Settings } from './state';

/** Markers for a template_render_error that carries details.line / details.column. */
function markersOf(err: unknown): Marker[] {
  if (!(err instanceof ApiError) || err.code !== 'template_render_error') return [];
  const line = Number(err.details?.line);
  if (!Number.isInteger(line)) return [];
  const column = Number(err.details?.column);
  return [{ line, ...(Number.isInteger(column) ? { column } : {}), message: err.message }];
}

/**
 * The HTML, CSS and sample-data editors with the page settings under them. `renderErrors` are the save's
 * and the preview's errors, marked in the HTML pane where they name a line.
 */
export function EditorPanes({
  content,
  loads,
  dataMarker,
  renderErrors,
  dispatch,
}: {
  content: Content;
  loads: number;
  dataMarker: Marker | undefined;
  renderErrors: unknown[];
  dispatch: Dispatch<EditorAction>;
}) {
  const setSettings = useCallback(
    (settings: Settings) => dispatch({ type: 'settings-edited', settings }),
    [dispatch],
  );
  const editing = { content, loads, dispatch };
  const [tab, setTab] = useState<Pane>('html');
  const [full, setFull] = useState(false);
  useEffect(() => {
    if (!full) return;
    const leave = (e: KeyboardEvent) => {
      // CodeMirror's own Escape (closing a completion or the search panel) comes first.
      if (e.key === 'Escape' && !e.defaultPrevented) setFull(false);
    };
    document.addEventListener('keydown', leave);
    return () => document.removeEventListener('keydown', leave);
  }, [full]);
  const panel = (pane: Pane) => ({
    id: `${pane}-panel`,
    role: 'tabpanel' as const,
    'aria-labelledby': `${pane}-tab`,
    hidden: tab !== pane,
  });
  return (
    <div class={full ? 'panes full-screen' : 'panes'}>
      <div class="pane-head">
        <PaneTabs tab={tab} onSelect={setTab} />
        <button type="button" aria-pressed={full} onClick={() => setFull(!full)}>
          Full screen
        </button>
        <a href="/docs/liquid" target="_blank" rel="noopener">
          Liquid filters
        </a>
      </div>
      <div {...panel('html')}>
        <TextPane pane="html" label="Template HTML" markers={renderErrors.flatMap(markersOf)} {...editing} />
      </div>
      <div {...panel('css')}>
        <TextPane pane="css" label="Template CSS" markers={[]} {...editing} />
      </div>
      <div {...panel('data')}>
        <TextPane
          pane="data"
          label="Sample data JSON"
          markers={dataMarker ? [dataMarker] : []}
          {...editing}
        />
      </div>
      {dataMarker && <p class="error">{dataMarker.message}</p>}
      <SettingsForm settings={content.settings} onChange={setSettings} />
      <FinishingForm
        value={content.settings as Finishing}
        onChange={(next) => setSettings(next as Settings)}
        withProtect={true}
        idPrefix="set-finishing"
      />
    </div>
  );
}

const LANGUAGE_OF = { html: 'html', css: 'css', data: 'json' } as const;
type Pane = keyof typeof LANGUAGE_OF;
const TAB_NAMES: Record<Pane, string> = { html: 'HTML (Liquid)', css: 'CSS', data: 'Sample data (JSON)' };
const PANE_ORDER: Pane[] = ['html', 'css', 'data'];

/** The next tab for an arrow, Home or End key (WAI-ARIA tabs, automatic activation), or undefined. */
function tabFor(key: string, current: Pane): Pane | undefined {
  const at = PANE_ORDER.indexOf(current);
  const last = PANE_ORDER.length - 1;
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last }[key];
  if (to === undefined) return undefined;
  return PANE_ORDER[(to + PANE_ORDER.length) % PANE_ORDER.length];
}

/** One tab per pane; only the selected one is in the Tab order, arrows move between them. */
function PaneTabs({ tab, onSelect }: { tab: Pane; onSelect: (pane: Pane) => void }) {
  return (
    <div role="tablist" aria-label="Template source" class="pane-tabs">
      {PANE_ORDER.map((pane) => (
        <button
          key={pane}
          type="button"
          role="tab"
          id={`${pane}-tab`}
          aria-selected={tab === pane}
          aria-controls={`${pane}-panel`}
          tabIndex={tab === pane ? 0 : -1}
          onClick={() => onSelect(pane)}
          onKeyDown={(e) => {
            const next = tabFor(e.key, pane);
            if (!next) return;
            e.preventDefault();
            onSelect(next);
            document.getElementById(`${next}-tab`)?.focus();
          }}
        >
          {TAB_NAMES[pane]}
        </button>
      ))}
    </div>
  );
}

/**
 * One pane's editor. `loads` counts the texts the app put into the editors (a version loaded, a draft
 * restored): only then is the content's text given to the editor again, which otherwise holds the user's.
 */
function TextPane({
  pane,
  label,
  markers,
  content,
  loads,
  dispatch,
}: {
  pane: Pane;
  label: string;
  markers: Marker[];
  content: Content;
  loads: number;
  dispatch: Dispatch<EditorAction>;
}) {
  const onChange = useCallback((text: string) => dispatch({ type: 'edited', pane, text }), [dispatch, pane]);
  return (
    <CodeEditor
      id={`${pane}-pane`}
      label={label}
      language={LANGUAGE_OF[pane]}
      value={content[pane]}
      version={loads}
      markers={markers}
      onChange={onChange}
    />
  );
}
