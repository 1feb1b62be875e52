import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { json } from '@codemirror/lang-json';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { Annotation, Compartment } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';

/**
 * No automatic close tags: they were inserted ahead of where people then typed their own (`<p>` … `</p>`),
 * leaving a stray duplicate, and Liquid blocks confuse which element is open. Close tags are still offered
 * by completion.
 */
const LANGUAGES = { html: () => html({ autoCloseTags: false }), css, json };

/** Marks a transaction that loads the app's text (not the user's edit): not reported through onChange. */
const LOADED = Annotation.define<boolean>();

/**
 * CodeMirror's default colours fall below WCAG AA contrast on the active-line background; these dark tones
 * keep at least 4.5:1 on white and on the highlighted line.
 */
const READABLE = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.operatorKeyword], color: '#6f1a8a' },
  { tag: [tags.tagName, tags.typeName, tags.className], color: '#7a1d1d' },
  { tag: [tags.attributeName, tags.propertyName], color: '#0b4f8a' },
  { tag: [tags.string, tags.attributeValue, tags.special(tags.string)], color: '#1d5e20' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.unit], color: '#7a4a00' },
  { tag: [tags.comment, tags.meta], color: '#4f5a66', fontStyle: 'italic' },
  { tag: [tags.variableName, tags.definition(tags.variableName), tags.labelName], color: '#1b1f24' },
  { tag: [tags.punctuation, tags.bracket, tags.angleBracket, tags.operator], color: '#3a434d' },
  { tag: tags.invalid, color: '#a4161a' },
]);

/** A marker at a 1-based line and column (what template_render_error's details carry). */
export interface Marker {
  line: number;
  column?: number;
  message: string;
}

/** A JSON pane's object (`what` names it in the message), or a marker where it does not parse. */
export function parseJsonObject(
  text: string,
  what: string,
): { data?: Record<string, unknown>; marker?: Marker } {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { marker: { line: 1, message: `${what} must be a JSON object ({ … }).` } };
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

function diagnosticsOf(view: EditorView, markers: Marker[]): Diagnostic[] {
  const doc = view.state.doc;
  return markers
    .filter((m) => m.line >= 1 && m.line <= doc.lines)
    .map((m) => {
      const line = doc.line(m.line);
      const from = Math.min(line.from + Math.max((m.column ?? 1) - 1, 0), line.to);
      return { from, to: Math.max(from, line.to), severity: 'error', message: m.message };
    });
}

/**
 * CodeMirror 6 with its accessible name; Tab is left to the browser (no indentWithTab) so keyboard users
 * can leave the editor.
 *
 * CodeMirror owns the text while someone edits: `value` is read only when the editor is created and when
 * `version` changes (a version loaded, a draft restored). The editor's own changes go out through
 * `onChange` and are never pushed back in — echoing them made two stale values chase each other and froze
 * the tab while typing fast.
 */
export function CodeEditor(props: {
  id: string;
  label: string;
  language: keyof typeof LANGUAGES;
  /** The text to show when `version` changes; ignored in between. */
  value: string;
  /** Changes when the app loads a new text into the editor (a version, a restored draft). */
  version: string | number;
  markers?: Marker[];
  readOnly?: boolean;
  onChange: (value: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const value = useRef(props.value);
  value.current = props.value;
  const editable = useRef(new Compartment());

  useEffect(() => {
    const editor = new EditorView({
      doc: value.current,
      parent: host.current!,
      extensions: [
        basicSetup,
        LANGUAGES[props.language](),
        syntaxHighlighting(READABLE),
        lintGutter(),
        EditorView.lineWrapping,
        editable.current.of(EditorView.editable.of(!props.readOnly)),
        EditorView.contentAttributes.of({ 'aria-label': props.label, id: props.id }),
        EditorView.updateListener.of((update) => {
          // A loaded text is the app's own value: only the user's edits are reported.
          const loaded = update.transactions.some((tr) => tr.annotation(LOADED));
          if (update.docChanged && !loaded) onChange.current(update.state.doc.toString());
        }),
      ],
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  // A new version (not the user's typing, which CodeMirror already holds) replaces the document.
  const first = useRef(true);
  useEffect(() => {
    const editor = view.current;
    if (first.current || !editor) {
      first.current = false;
      return;
    }
    if (editor.state.doc.toString() === value.current) return;
    editor.dispatch({
      changes: { from: 0, to: editor.state.doc.length, insert: value.current },
      annotations: LOADED.of(true),
    });
  }, [props.version]);

  useEffect(() => {
    view.current?.dispatch({
      effects: editable.current.reconfigure(EditorView.editable.of(!props.readOnly)),
    });
  }, [props.readOnly]);

  // By content: the page builds a new array on every render (every keystroke).
  const markers = JSON.stringify(props.markers ?? []);
  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnosticsOf(editor, props.markers ?? [])));
  }, [markers]);

  return <div class="code-editor" ref={host} data-editor={props.id} />;
}
