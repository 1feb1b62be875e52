import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { json } from '@codemirror/lang-json';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';

const LANGUAGES = { html, css, json };

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
        syntaxHighlighting(READABLE),
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
