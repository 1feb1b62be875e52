import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { json } from '@codemirror/lang-json';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';

const LANGUAGES = { html, css, json };

/** A marker at a 1-based line and column (what template_render_error's details carry). */
export interface Marker {
  line: number;
  column?: number;
  message: string;
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
 */
export function CodeEditor(props: {
  id: string;
  label: string;
  language: keyof typeof LANGUAGES;
  value: string;
  markers?: Marker[];
  readOnly?: boolean;
  onChange: (value: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    const editor = new EditorView({
      doc: props.value,
      parent: host.current!,
      extensions: [
        basicSetup,
        LANGUAGES[props.language](),
        lintGutter(),
        EditorView.lineWrapping,
        EditorView.editable.of(!props.readOnly),
        EditorView.contentAttributes.of({ 'aria-label': props.label, id: props.id }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange.current(update.state.doc.toString());
        }),
      ],
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  // A value set from outside (a loaded version) replaces the document; the user's own typing already matches.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== props.value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } });
    }
  }, [props.value]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnosticsOf(editor, props.markers ?? [])));
  }, [props.markers]);

  return <div class="code-editor" ref={host} data-editor={props.id} />;
}
