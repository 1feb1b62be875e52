import { useEffect, useState } from 'preact/hooks';
import { api, call, download, type Schemas, toApiError } from '../api';
import { type Finishing, FinishingForm } from '../finishing-form';
import { Busy, ErrorText, go, Page, useLoad } from '../ui';
import { parseWarningsHeader, WarningList } from '../warnings';

type Node = Schemas['TemplateFields']['tree'][number];
type Json = Record<string, unknown>;
type Scalar = 'text' | 'number' | 'boolean' | 'date';

const INPUT_TYPE: Record<Scalar, string> = {
  text: 'text',
  number: 'number',
  boolean: 'checkbox',
  date: 'date',
};

/** A DOM id from a field path (items[].name → f-items-0-name). */
function idOf(path: string): string {
  return `f-${path.replace(/[^\w]+/g, '-')}`;
}

function emptyOf(type: Scalar | undefined): unknown {
  return type === 'number' ? 0 : type === 'boolean' ? false : '';
}

function ScalarInput(props: {
  id: string;
  label: string;
  type: Scalar;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { id, label, type, value, onChange } = props;
  if (type === 'boolean') {
    return (
      <div class="field">
        <label>
          <input
            id={id}
            type="checkbox"
            checked={Boolean(value)}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />{' '}
          {label}
        </label>
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type={INPUT_TYPE[type]}
        step={type === 'number' ? 'any' : undefined}
        value={value === null || value === undefined ? '' : String(value)}
        onInput={(e) => {
          const raw = e.currentTarget.value;
          onChange(type === 'number' ? (raw === '' ? null : Number(raw)) : raw);
        }}
      />
    </div>
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
        <legend>{node.label}</legend>
        {(node.children ?? []).map((child) => (
          <FieldNode
            key={child.key}
            node={child as Node}
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
    const setRow = (i: number, v: unknown) => set(rows.map((r, j) => (j === i ? v : r)));
    const blankRow = () =>
      node.type === 'line_items'
        ? Object.fromEntries((node.children ?? []).map((c) => [c.key, emptyOf(c.type as Scalar)]))
        : emptyOf(node.item_type);
    return (
      <fieldset class="field-group">
        <legend>{node.label}</legend>
        {rows.map((row, i) => (
          <div key={i} class="row">
            {node.type === 'line_items' ? (
              (node.children ?? []).map((child) => (
                <FieldNode
                  key={child.key}
                  node={child as Node}
                  value={(row ?? {}) as Json}
                  onChange={(v) => setRow(i, v)}
                  prefix={`${prefix}${node.key}.${i}.`}
                />
              ))
            ) : (
              <ScalarInput
                id={`${id}-${i}`}
                label={`${node.label} ${i + 1}`}
                type={node.item_type ?? 'text'}
                value={row}
                onChange={(v) => setRow(i, v)}
              />
            )}
            <button type="button" onClick={() => set(rows.filter((_, j) => j !== i))}>
              Remove {node.label} row {i + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => set([...rows, blankRow()])}>
          Add {node.label} row
        </button>
      </fieldset>
    );
  }
  return <ScalarInput id={id} label={node.label} type={node.type as Scalar} value={current} onChange={set} />;
}

interface Generated {
  id: string;
  pages: number;
  warnings: unknown[];
  blocked: number;
  bytes: number;
}

export function GeneratePage({ templateId }: { templateId: string | null }) {
  const templates = useLoad(
    () => call(api.GET('/templates', { params: { query: { limit: 100, offset: 0 } } })),
    [],
  );
  const form = useLoad(async () => {
    if (!templateId) return null;
    const path = { id: templateId };
    const [fields, template] = await Promise.all([
      call(api.GET('/templates/{id}/fields', { params: { path } })),
      call(api.GET('/templates/{id}', { params: { path } })),
    ]);
    return { fields, template };
  }, [templateId]);
  const [data, setData] = useState<Json>({});
  // Over the template's own settings (the request's fields win); passwords live only in this form.
  const [finishing, setFinishing] = useState<Finishing>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Generated | null>(null);

  useEffect(() => {
    setData(structuredClone((form.data?.template.sample_data ?? {}) as Json));
    setResult(null);
  }, [form.data]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!templateId) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const {
        data: blob,
        error: apiError,
        response,
      } = await api.POST('/pdf', {
        params: { header: { 'idempotency-key': crypto.randomUUID() } },
        body: { template_id: templateId, merge_data: data, response: 'binary', ...finishing },
        parseAs: 'blob',
      });
      if (apiError !== undefined || !response.ok) throw toApiError(response, apiError);
      const file = blob as unknown as Blob;
      const id = response.headers.get('x-document-id') ?? 'document';
      download(file, `${form.data?.template.name ?? 'document'}.pdf`);
      setResult({
        id,
        pages: Number(response.headers.get('x-pages') ?? 0),
        warnings: parseWarningsHeader(response.headers.get('x-warnings')),
        blocked: Number(response.headers.get('x-blocked-resources') ?? 0),
        bytes: file.size,
      });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Generate a PDF">
      <div class="field">
        <label for="generate-template">Template</label>
        <select
          id="generate-template"
          value={templateId ?? ''}
          onChange={(e) => go(`/generate?template=${e.currentTarget.value}`)}
        >
          <option value="">Choose a template…</option>
          {templates.data?.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {form.loading && templateId && <Busy label="Loading the template's fields…" />}
      <ErrorText error={form.error ?? templates.error} />
      {form.data && (
        <form onSubmit={submit} class="stack generate-form">
          {form.data.fields.truncated && (
            <p class="hint">Some fields were left out (over 200 or nested too deep).</p>
          )}
          {form.data.fields.tree.map((node) => (
            <FieldNode key={node.key} node={node} value={data} onChange={setData} prefix="" />
          ))}
          <FinishingForm value={finishing} onChange={setFinishing} withProtect={true} idPrefix="generate" />
          <ErrorText error={error} id="generate-error" />
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Rendering…' : 'Generate PDF'}
          </button>
          {busy && <Busy label="Rendering the PDF…" />}
        </form>
      )}
      {result && (
        <div role="status" class="result">
          <p>
            Generated {result.pages} page{result.pages === 1 ? '' : 's'} ({Math.round(result.bytes / 1024)}{' '}
            KB), document <a href={`#/documents?highlight=${result.id}`}>{result.id}</a>. The download has
            started.
          </p>
          <WarningList warnings={result.warnings} />
          {result.blocked > 0 && <p>Blocked resources: {result.blocked}</p>}
        </div>
      )}
    </Page>
  );
}
