import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import './batch-mapper.css';

/** What POST /spreadsheets/parse answered, as the mapper reads it. */
export interface Parsed {
  format: 'csv' | 'xlsx';
  columns: string[];
  row_count: number;
  max_rows: number;
  fields: string[];
  mapping: Record<string, string | null>;
}

/** What the mapper hands to POST /batches: the column mapping, the rows' defaults and the file names. */
export interface BatchChoice {
  mapping: Record<string, string>;
  /** The extension `spreadsheet.defaults`: template sample values for the variables no column fills. */
  defaults: Record<string, unknown>;
  filenamePattern: string;
}

type Leaf = { path: string; value: unknown };

/**
 * The template's variables as its sample data has them: objects are opened, anything else (text, numbers,
 * lists such as line items) is one variable.
 */
export function sampleLeaves(sample: unknown, prefix = ''): Leaf[] {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) {
    return prefix ? [{ path: prefix, value: sample }] : [];
  }
  const entries = Object.entries(sample as Record<string, unknown>);
  if (entries.length === 0) return prefix ? [{ path: prefix, value: sample }] : [];
  return entries.flatMap(([key, value]) => sampleLeaves(value, prefix ? `${prefix}.${key}` : key));
}

/** A variable is filled when a column maps to it, to a part of it, or to something containing it. */
function isFilled(path: string, mapped: readonly string[]): boolean {
  return mapped.some((m) => m === path || m.startsWith(`${path}.`) || path.startsWith(`${m}.`));
}

/** A sample value in a few words: lists by their length, text cut at one line. */
export function sampleText(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? 'row' : 'rows'}`;
  if (value === null || value === undefined || value === '') return '(empty)';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const line = text.split('\n').join(', ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = structuredClone(value);
}

/** Names the file after a number-like mapped field (invoice number, order no, id), else the first mapped one. */
export function defaultPattern(templateName: string, mapping: Record<string, string | null>): string {
  const targets = Object.values(mapping).filter((t): t is string => Boolean(t));
  const last = (t: string) => t.split('.').pop() ?? t;
  const numberLike = targets.find((t) => /(number|^no$|^nr$|^id$|_no$|_id$)/i.test(last(t)));
  const field = numberLike ?? targets[0];
  const base = templateName.trim() || 'document';
  return field ? `${base} {{ ${field} }}` : '';
}

/** The column mapper: columns to fields, the variables left over with their sample values, file names. */
export function ColumnMapper({
  parsed,
  sample,
  templateName,
  disabled,
  onStart,
}: {
  parsed: Parsed;
  sample: unknown;
  templateName: string;
  disabled: boolean;
  onStart: (choice: BatchChoice) => void;
}) {
  const [mapping, setMapping] = useState(parsed.mapping);
  const leaves = sampleLeaves(sample);
  // Sample values are offered for every left-over variable and used unless the user unticks them.
  const [skipped, setSkipped] = useState<Set<string>>(new Set());
  const [pattern, setPattern] = useState(() => defaultPattern(templateName, parsed.mapping));
  const mapped = Object.values(mapping).filter((t): t is string => Boolean(t));
  const unmapped = leaves.filter((leaf) => !isFilled(leaf.path, mapped));
  const empty = unmapped.filter((leaf) => skipped.has(leaf.path));

  const start = () => {
    const defaults: Record<string, unknown> = {};
    for (const leaf of unmapped) if (!skipped.has(leaf.path)) setPath(defaults, leaf.path, leaf.value);
    const chosen = Object.fromEntries(
      Object.entries(mapping).filter((e): e is [string, string] => Boolean(e[1])),
    );
    onStart({ mapping: chosen, defaults, filenamePattern: pattern.trim() });
  };
  const toggle = (path: string, use: boolean) => {
    const next = new Set(skipped);
    if (use) next.delete(path);
    else next.add(path);
    setSkipped(next);
  };

  return (
    <section aria-labelledby="mapping-title">
      <h2 id="mapping-title">
        Map columns ({parsed.row_count} rows, {parsed.format.toUpperCase()})
      </h2>
      {parsed.row_count > parsed.max_rows && (
        <p class="error">The sheet has more than {parsed.max_rows} rows.</p>
      )}
      <div class="settings">
        {parsed.columns.map((column, i) => (
          <Fragment key={column}>
            <label for={`map-${i}`}>{column}</label>
            <select
              id={`map-${i}`}
              value={mapping[column] ?? ''}
              onChange={(e) => setMapping({ ...mapping, [column]: e.currentTarget.value || null })}
            >
              <option value="">(not used)</option>
              {parsed.fields.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </Fragment>
        ))}
      </div>
      {unmapped.length > 0 && (
        <fieldset class="unmapped" data-testid="unmapped">
          <legend>Template variables no column fills ({unmapped.length})</legend>
          <p class="hint">Ticked ones get the template's sample value in every document.</p>
          {unmapped.map((leaf) => (
            <label key={leaf.path} class="check">
              <input
                type="checkbox"
                checked={!skipped.has(leaf.path)}
                onChange={(e) => toggle(leaf.path, e.currentTarget.checked)}
              />
              <span>
                <code>{leaf.path}</code>: use the sample value <q>{sampleText(leaf.value)}</q>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {empty.length > 0 && (
        <div class="unmapped-warning" role="note" data-testid="unmapped-warning">
          <p>
            {empty.length === 1 ? '1 template variable gets' : `${empty.length} template variables get`} no
            value and will print empty in every document:
          </p>
          <ul>
            {empty.map((leaf) => (
              <li key={leaf.path}>
                <code>{leaf.path}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div class="field">
        <label for="batch-filenames">File names</label>
        <input
          id="batch-filenames"
          class="filename-pattern"
          value={pattern}
          maxLength={200}
          aria-describedby="batch-filenames-hint"
          onInput={(e) => setPattern(e.currentTarget.value)}
        />
        <p class="hint" id="batch-filenames-hint">
          Text with placeholders such as <code>{'{{ number }}'}</code> (a field) or{' '}
          <code>{'{{ index }}'}</code> (the row, from 0); <code>.pdf</code> is added. Empty: every file is
          named after the template.
        </p>
      </div>
      <button type="button" class="primary" onClick={start} disabled={disabled}>
        Start batch of {parsed.row_count} documents
      </button>
    </section>
  );
}
