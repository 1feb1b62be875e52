import { useEffect, useState } from 'preact/hooks';
import { api, call, download, type Schemas, toApiError } from '../api';
import { DataForm, type Json } from '../data-form';
import { type Finishing, FinishingForm, MergeForm, type MergeValue, mergeFields } from '../finishing-form';
import { templateChoices } from '../template-actions';
import { TemplateSelect } from '../template-select';
import { Busy, ErrorText, go, Page, useLoad } from '../ui';
import { useAction } from '../use-action';
import { parseWarningsHeader, WarningList } from '../warnings';
import { EInvoiceFields, type EInvoiceValue } from './generate-einvoice';

type WaitFor = NonNullable<Schemas['PdfRequest']['wait_for']>;
type Source = 'template' | 'url' | 'einvoice';

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
  kind: 'pdf' | 'xml';
  /** `standard/profile` of an e-invoice (x-e-invoice), else null. */
  eInvoice: string | null;
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
  const [eInvoice, setEInvoice] = useState<EInvoiceValue | null>(null);
  const [merge, setMerge] = useState<MergeValue>({ prepend: [], append: [] });
  const documents = useLoad(
    () => call(api.GET('/documents', { params: { query: { limit: 50, status: 'succeeded' } } })),
    [],
  );
  const [data, setData] = useState<Json>({});
  // Counts the sample data loaded: the form is built anew over each, as its controls are chosen by the
  // values they start with (a text with line breaks gets a multi-line box).
  const [loads, setLoads] = useState(0);
  // Over the template's own settings (the request's fields win); passwords live only in this form.
  const [finishing, setFinishing] = useState<Finishing>({});
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<Generated | null>(null);

  useEffect(() => {
    setData(structuredClone((form.data?.template.sample_data ?? {}) as Json));
    setLoads((n) => n + 1);
    setResult(null);
  }, [form.data]);

  /** The request's source: a template with its data, a page to capture, or an invoice for the built-in template. */
  const sourceFields = () => {
    if (source === 'url')
      return { source_url: sourceUrl, ...(Object.keys(waitFor).length ? { wait_for: waitFor } : {}) };
    // The standards and profiles come from the server's own list (GET /e-invoices/example).
    if (source === 'einvoice' && eInvoice)
      return { e_invoice: eInvoice as Schemas['PdfRequest']['e_invoice'] };
    return { template_id: templateId ?? '', merge_data: data };
  };

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
          ...sourceFields(),
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
      const xml = response.headers.get('content-type')?.includes('xml') === true;
      setResult({
        id,
        pages: Number(response.headers.get('x-pages') ?? 0),
        kind: xml ? 'xml' : 'pdf',
        eInvoice: response.headers.get('x-e-invoice'),
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
          <option value="einvoice">An e-invoice</option>
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
      {(source !== 'template' || form.data) && (
        <form onSubmit={submit} class="stack generate-form">
          {source === 'einvoice' ? (
            <EInvoiceFields value={eInvoice} onChange={setEInvoice} />
          ) : source === 'url' ? (
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
            form.data && <DataForm key={loads} fields={form.data.fields} value={data} onChange={setData} />
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
            {result.kind === 'xml'
              ? 'Generated the XML'
              : `Generated ${result.pages} page${result.pages === 1 ? '' : 's'}`}{' '}
            ({Math.round(result.bytes / 1024)} KB){result.eInvoice ? `, e-invoice ${result.eInvoice}` : ''},
            document <a href={`#/documents?highlight=${result.id}`}>{result.id}</a>. The download has started.
          </p>
          <WarningList warnings={result.warnings} />
          {result.blocked > 0 && <p>Blocked resources: {result.blocked}</p>}
        </div>
      )}
    </Page>
  );
}
