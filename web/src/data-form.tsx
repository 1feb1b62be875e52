import { useState } from 'preact/hooks';
import type { Schemas } from './api';
import { CodeEditor, type Marker, parseJsonObject } from './code-editor';
import { DataTable } from './ui';
import './data-form.css';

/**
 * The merge data of a render as a form built from the template's fields (GET /templates/{id}/fields, read
 * from its sample data), with the same data as JSON one click away. Values are shown and sent as they
 * are: text with line breaks gets a multi-line box, since a one-line input drops them.
 */

type Fields = Schemas['TemplateFields'];
type Node = Fields['tree'][number];
type Scalar = 'text' | 'number' | 'boolean' | 'date';
export type Json = Record<string, unknown>;

const SCALARS: ReadonlySet<string> = new Set(['text', 'number', 'boolean', 'date']);
/** Text longer than this gets a multi-line box even without a line break: a one-line input hides most of it. */
const LONG_TEXT = 60;
/** A multi-line box grows with its text up to this many rows, then scrolls. */
const MAX_ROWS = 12;
/** Characters on one row of a multi-line box, roughly (for its height; the box is as wide as the form). */
const CHARS_PER_ROW = 48;
/** Words the API's labels write in small letters that read as capitals ("vat_id" → "VAT ID"). */
const ACRONYMS: ReadonlySet<string> = new Set([
  'api',
  'bic',
  'ean',
  'eu',
  'iban',
  'id',
  'iso',
  'pdf',
  'po',
  'sku',
  'swift',
  'url',
  'vat',
]);
/** What a date input can show: a datetime in one would show blank and lose its time when changed. */
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The field's label: the API's label (its key in words) with acronyms in capitals. */
function labelOf(node: Node): string {
  return node.label
    .split(' ')
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word))
    .join(' ');
}

/** A DOM id from a field path (items.0.name → f-items-0-name). */
function idOf(path: string): string {
  return `f-${path.replace(/[^\w]+/g, '-')}`;
}

function childrenOf(node: Node): Node[] {
  return (node.children ?? []) as Node[];
}

function emptyOf(type: string | undefined): unknown {
  return type === 'number' ? 0 : type === 'boolean' ? false : '';
}

function isMultiline(value: unknown): boolean {
  return typeof value === 'string' && (value.includes('\n') || value.length > LONG_TEXT);
}

/** Rows for a text: one per line, long lines counted as they wrap; at least 2. */
function rowsFor(text: string): number {
  const rows = text
    .split('\n')
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / CHARS_PER_ROW)), 0);
  return Math.min(MAX_ROWS, Math.max(2, rows));
}

interface ControlProps {
  id: string;
  type: Scalar;
  value: unknown;
  onChange: (v: unknown) => void;
  /** Chosen once by the caller: switching the element while someone types would lose the caret. */
  multiline: boolean;
  /** The accessible name when no <label for> names the control (table cells). */
  ariaLabel?: string;
  describedBy?: string;
}

/** The input for one value, without its label. */
function ScalarControl({ id, type, value, onChange, multiline, ariaLabel, describedBy }: ControlProps) {
  const shared = { id, 'aria-label': ariaLabel, 'aria-describedby': describedBy };
  const text = value === null || value === undefined ? '' : String(value);
  if (type === 'boolean') {
    return (
      <input
        {...shared}
        type="checkbox"
        checked={Boolean(value)}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  }
  if (type === 'text' && multiline) {
    return (
      <textarea
        {...shared}
        rows={rowsFor(text)}
        value={text}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  if (type === 'number') {
    return (
      <input
        {...shared}
        type="number"
        step="any"
        value={text}
        onInput={(e) => onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      />
    );
  }
  const asDate = type === 'date' && (text === '' || PLAIN_DATE.test(text));
  return (
    <input
      {...shared}
      type={asDate ? 'date' : 'text'}
      value={text}
      onInput={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** The field's Liquid path under its label, so the template author's name for it is never a guess. */
function FieldPath({ id, path }: { id: string; path: string }) {
  return (
    <span class="field-path" id={id}>
      {path}
    </span>
  );
}

/** One scalar with its label and path. */
function ScalarField(props: {
  id: string;
  label: string;
  path: string;
  type: Scalar;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { id, label, path, type, value, onChange } = props;
  const [multiline] = useState(() => isMultiline(value));
  const control = (
    <ScalarControl
      id={id}
      type={type}
      value={value}
      onChange={onChange}
      multiline={multiline}
      describedBy={`${id}-path`}
    />
  );
  if (type === 'boolean') {
    return (
      <div class="field">
        <label for={id}>
          {control} {label}
        </label>
        <FieldPath id={`${id}-path`} path={path} />
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <FieldPath id={`${id}-path`} path={path} />
      {control}
    </div>
  );
}

/** What a list of rows is given: its node in the field tree, its ids, its rows and where changes go. */
interface ListProps {
  node: Node;
  id: string;
  prefix: string;
  rows: unknown[];
  onChange: (rows: unknown[]) => void;
}

/** Line items whose fields are all scalars: one table row per item, one column per field. */
function LineItemsTable(props: ListProps) {
  const { node, id, prefix, rows, onChange } = props;
  const columns = childrenOf(node);
  const label = labelOf(node);
  // Per column, as it was loaded: a column of addresses stays multi-line in rows added later.
  const [multiline] = useState(
    () =>
      new Set(
        columns.filter((c) => rows.some((r) => isMultiline((r as Json | null)?.[c.key]))).map((c) => c.key),
      ),
  );
  const setCell = (i: number, key: string, v: unknown) =>
    onChange(rows.map((row, j) => (j === i ? { ...((row ?? {}) as Json), [key]: v } : row)));
  const blankRow = () => Object.fromEntries(columns.map((c) => [c.key, emptyOf(c.type)]));
  return (
    <fieldset class="field-group line-items">
      <legend>{label}</legend>
      <FieldPath id={`${id}-path`} path={node.path} />
      <DataTable columns={[...columns.map(labelOf), '']}>
        {rows.map((row, i) => (
          <tr key={i}>
            {columns.map((column) => (
              <td key={column.key}>
                <ScalarControl
                  id={idOf(`${prefix}${node.key}.${i}.${column.key}`)}
                  type={column.type as Scalar}
                  value={((row ?? {}) as Json)[column.key]}
                  onChange={(v) => setCell(i, column.key, v)}
                  multiline={multiline.has(column.key)}
                  ariaLabel={`${labelOf(column)}, ${label} row ${i + 1}`}
                />
              </td>
            ))}
            <td>
              <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                Remove
                <span class="sr-only">
                  {' '}
                  {label} row {i + 1}
                </span>
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <button type="button" onClick={() => onChange([...rows, blankRow()])}>
        Add {label} row
      </button>
    </fieldset>
  );
}

/** A list of scalars, or line items with nested fields: one block per item. */
function ListField(props: ListProps) {
  const { node, id, prefix, rows, onChange } = props;
  const label = labelOf(node);
  const setRow = (i: number, v: unknown) => onChange(rows.map((r, j) => (j === i ? v : r)));
  const blankRow = () =>
    node.type === 'line_items'
      ? Object.fromEntries(childrenOf(node).map((c) => [c.key, emptyOf(c.type)]))
      : emptyOf(node.item_type);
  return (
    <fieldset class="field-group">
      <legend>{label}</legend>
      <FieldPath id={`${id}-path`} path={node.path} />
      {rows.map((row, i) => (
        <div key={i} class="row">
          {node.type === 'line_items' ? (
            childrenOf(node).map((child) => (
              <FieldNode
                key={child.key}
                node={child}
                value={(row ?? {}) as Json}
                onChange={(v) => setRow(i, v)}
                prefix={`${prefix}${node.key}.${i}.`}
              />
            ))
          ) : (
            <ScalarField
              id={`${id}-${i}`}
              label={`${label} ${i + 1}`}
              path={`${node.path}[${i}]`}
              type={node.item_type ?? 'text'}
              value={row}
              onChange={(v) => setRow(i, v)}
            />
          )}
          <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove {label} row {i + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rows, blankRow()])}>
        Add {label} row
      </button>
    </fieldset>
  );
}

/** One node of the fields tree bound to `value` (the object that holds node.key). */
function FieldNode({
  node,
  value,
  onChange,
  prefix,
}: {
  node: Node;
  value: Json;
  onChange: (v: Json) => void;
  prefix: string;
}) {
  const current = value[node.key];
  const set = (v: unknown) => onChange({ ...value, [node.key]: v });
  const id = idOf(`${prefix}${node.key}`);
  if (node.type === 'object') {
    const obj = (current && typeof current === 'object' ? current : {}) as Json;
    return (
      <fieldset class="field-group">
        <legend>{labelOf(node)}</legend>
        {childrenOf(node).map((child) => (
          <FieldNode
            key={child.key}
            node={child}
            value={obj}
            onChange={set}
            prefix={`${prefix}${node.key}.`}
          />
        ))}
      </fieldset>
    );
  }
  if (node.type === 'list' || node.type === 'line_items') {
    const rows = Array.isArray(current) ? current : [];
    const flat = node.type === 'line_items' && childrenOf(node).every((c) => SCALARS.has(c.type));
    return flat ? (
      <LineItemsTable node={node} id={id} prefix={prefix} rows={rows} onChange={set} />
    ) : (
      <ListField node={node} id={id} prefix={prefix} rows={rows} onChange={set} />
    );
  }
  return (
    <ScalarField
      id={id}
      label={labelOf(node)}
      path={node.path}
      type={node.type as Scalar}
      value={current}
      onChange={set}
    />
  );
}

/** The data as JSON text: what the form cannot show (fields it left out) can be changed here. */
function JsonView({ value, onChange }: { value: Json; onChange: (v: Json) => void }) {
  const [text] = useState(() => JSON.stringify(value, null, 2));
  const [marker, setMarker] = useState<Marker | null>(null);
  const edit = (next: string) => {
    const parsed = parseJsonObject(next, 'The data');
    setMarker(parsed.marker ?? null);
    if (parsed.data) onChange(parsed.data);
  };
  return (
    <div class="json-view">
      <CodeEditor
        id="data-json"
        label="Data (JSON)"
        language="json"
        value={text}
        version={0}
        markers={marker ? [marker] : []}
        onChange={edit}
      />
      {marker && (
        <p class="error" role="alert" id="data-json-error">
          {marker.message} Until it parses, the last valid data is used.
        </p>
      )}
    </div>
  );
}

/** The form of the template's fields over `value`, or the same data as JSON. */
export function DataForm({
  fields,
  value,
  onChange,
}: {
  fields: Fields;
  value: Json;
  onChange: (v: Json) => void;
}) {
  const [asJson, setAsJson] = useState(false);
  return (
    <div class="data-form">
      <div class="data-form-head">
        <button type="button" onClick={() => setAsJson(!asJson)}>
          {asJson ? 'Back to the form' : 'Edit as JSON'}
        </button>
      </div>
      {asJson ? (
        <JsonView value={value} onChange={onChange} />
      ) : (
        <>
          {fields.truncated && (
            <p class="hint">Some fields were left out (over 200 or nested too deep): edit them as JSON.</p>
          )}
          {fields.tree.map((node) => (
            <FieldNode key={node.key} node={node} value={value} onChange={onChange} prefix="" />
          ))}
        </>
      )}
    </div>
  );
}
