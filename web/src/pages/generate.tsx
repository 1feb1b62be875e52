import { useEffect, useState } from 'preact/hooks';
import { api, call, download, type Schemas, toApiError } from '../api';
import { type Finishing, FinishingForm, MergeForm, type MergeValue, mergeFields } from '../finishing-form';
import { templateChoices } from '../template-actions';
import { TemplateSelect } from '../template-select';
import { Busy, ErrorText, go, Page, useLoad } from '../ui';
import { useAction } from '../use-action';
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

type WaitFor = NonNullable<Schemas['PdfRequest']['wait_for']>;
type Source = 'template' | 'url';

/** `wait_for` (extension): what the page must show before it is printed; empty fields send nothing. */
function WaitForFields({ value, onChange }: { value: WaitFor; onChange: (v: WaitFor) => void }) {
  const set = (patch: Partial<WaitFor>) => {
    const next: Record<string, unknown> = { ...value, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined || next[key] === '') delete next[key];
    onChange(next as WaitFor);
  };
  return (
    <fieldset class="field-group">
      <legend>Wait for the page (optional)</legend>
      <div class="field">
        <label for="wait-selector">CSS selector that must appear</label>
        <input
          id="wait-selector"
          value={value.selector ?? ''}
          placeholder="#chart.ready"
          onInput={(e) => set({ selector: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="wait-expression">JavaScript expression that must be true</label>
        <input
          id="wait-expression"
          value={value.expression ?? ''}
          placeholder='document.body.dataset.ready === "1"'
          onInput={(e) => set({ expression: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label>
          <input
            id="wait-network-idle"
            type="checkbox"
            checked={value.network_idle === true}
            onChange={(e) => set({ network_idle: e.currentTarget.checked ? true : undefined })}
          />{' '}
          Until the network is idle (500 ms without requests)
        </label>
      </div>
      <div class="field">
        <label for="wait-timeout">Longest wait in ms (up to 30000)</label>
        <input
          id="wait-timeout"
          type="number"
          min={1}
          max={30000}
          value={value.timeout_ms ?? ''}
          onInput={(e) => {
            const raw = e.currentTarget.value;
            set({ timeout_ms: raw === '' ? undefined : Number(raw) });
          }}
        />
      </div>
    </fieldset>
  );
}

/** The download name the server chose (content-disposition), else `fallback`. */
function filenameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(header)?.[1] ?? fallback;
}

interface Generated {
  id: string;
  pages: number;
  warnings: unknown[];
  blocked: number;
  bytes: number;
}

export function GeneratePage({ templateId }: { templateId: string | null }) {
  // All of them, not the first page: a team with more than 100 templates can generate from any.
  const templates = useLoad(templateChoices, []);
  const form = useLoad(async () => {
    if (!templateId) return null;
    const path = { id: templateId };
    const [fields, template] = await Promise.all([
      call(api.GET('/templates/{id}/fields', { params: { path } })),
      call(api.GET('/templates/{id}', { params: { path } })),
    ]);
    return { fields, template };
  }, [templateId]);
  const [source, setSource] = useState<Source>('template');
  const [sourceUrl, setSourceUrl] = useState('');
  const [waitFor, setWaitFor] = useState<WaitFor>({});
  const [merge, setMerge] = useState<MergeValue>({ prepend: [], append: [] });
  const documents = useLoad(
    () => call(api.GET('/documents', { params: { query: { limit: 50, status: 'succeeded' } } })),
    [],
  );
  const [data, setData] = useState<Json>({});
  // Over the template's own settings (the request's fields win); passwords live only in this form.
  const [finishing, setFinishing] = useState<Finishing>({});
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<Generated | null>(null);

  useEffect(() => {
    setData(structuredClone((form.data?.template.sample_data ?? {}) as Json));
    setResult(null);
  }, [form.data]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (source === 'template' && !templateId) return;
    setResult(null);
    await run(async () => {
      const {
        data: blob,
        error: apiError,
        response,
      } = await api.POST('/pdf', {
        params: { header: { 'idempotency-key': crypto.randomUUID() } },
        body: {
          ...(source === 'url'
            ? { source_url: sourceUrl, ...(Object.keys(waitFor).length ? { wait_for: waitFor } : {}) }
            : { template_id: templateId ?? '', merge_data: data }),
          response: 'binary',
          ...finishing,
          ...mergeFields(merge),
        },
        parseAs: 'blob',
      });
      if (apiError !== undefined || !response.ok) throw toApiError(response, apiError);
      const file = blob as unknown as Blob;
      const id = response.headers.get('x-document-id') ?? 'document';
      download(file, filenameOf(response, `${form.data?.template.name ?? 'document'}.pdf`));
      setResult({
        id,
        pages: Number(response.headers.get('x-pages') ?? 0),
        warnings: parseWarningsHeader(response.headers.get('x-warnings')),
        blocked: Number(response.headers.get('x-blocked-resources') ?? 0),
        bytes: file.size,
      });
    });
  };

  return (
    <Page title="Generate a PDF">
      <div class="field">
        <label for="generate-source">Source</label>
        <select
          id="generate-source"
          value={source}
          onChange={(e) => setSource(e.currentTarget.value as Source)}
        >
          <option value="template">A template</option>
          <option value="url">Capture a URL</option>
        </select>
      </div>
      {source === 'template' && (
        <div class="field">
          <label for="generate-template">Template</label>
          <TemplateSelect
            id="generate-template"
            value={templateId ?? ''}
            onChange={(id) => go(`/generate?template=${id}`)}
            choices={templates.data}
          />
        </div>
      )}
      {source === 'template' && form.loading && templateId && <Busy label="Loading the template's fields…" />}
      <ErrorText error={form.error ?? templates.error} />
      {(source === 'url' || form.data) && (
        <form onSubmit={submit} class="stack generate-form">
          {source === 'url' ? (
            <>
              <div class="field">
                <label for="generate-url">Page URL (http or https)</label>
                <input
                  id="generate-url"
                  type="url"
                  required
                  placeholder="https://example.com/report"
                  value={sourceUrl}
                  onInput={(e) => setSourceUrl(e.currentTarget.value)}
                />
              </div>
              <WaitForFields value={waitFor} onChange={setWaitFor} />
            </>
          ) : (
            form.data && (
              <>
                {form.data.fields.truncated && (
                  <p class="hint">Some fields were left out (over 200 or nested too deep).</p>
                )}
                {form.data.fields.tree.map((node) => (
                  <FieldNode key={node.key} node={node} value={data} onChange={setData} prefix="" />
                ))}
              </>
            )
          )}
          <FinishingForm value={finishing} onChange={setFinishing} withProtect={true} idPrefix="generate" />
          <MergeForm value={merge} onChange={setMerge} documents={documents.data?.data ?? []} />
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
