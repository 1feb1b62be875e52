import { type Dispatch, useCallback } from 'preact/hooks';
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
  return (
    <div class="panes">
      <div class="pane-head">
        <h2 id="html-label">HTML (Liquid)</h2>
        <a href="/docs/liquid" target="_blank" rel="noopener">
          Liquid filters
        </a>
      </div>
      <TextPane pane="html" label="Template HTML" markers={renderErrors.flatMap(markersOf)} {...editing} />
      <h2>CSS</h2>
      <TextPane pane="css" label="Template CSS" markers={[]} {...editing} />
      <h2>Sample data (JSON)</h2>
      <TextPane pane="data" label="Sample data JSON" markers={dataMarker ? [dataMarker] : []} {...editing} />
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
  pane: keyof typeof LANGUAGE_OF;
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
