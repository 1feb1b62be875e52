import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, base64Of, call, type Schemas } from '../api';
import { Busy, ErrorText, Page, useLoad } from '../ui';

type Batch = Schemas['Batch'];
interface Parsed {
  format: 'csv' | 'xlsx';
  columns: string[];
  row_count: number;
  max_rows: number;
  fields: string[];
  mapping: Record<string, string | null>;
}
const POLL_MS = 1500;

export function BatchesPage() {
  const templates = useLoad(
    () => call(api.GET('/templates', { params: { query: { limit: 100, offset: 0 } } })),
    [],
  );
  const [templateId, setTemplateId] = useState('');
  const [file, setFile] = useState<{ filename: string; content_base64: string } | null>(null);
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [batch, setBatch] = useState<Batch | null>(null);

  const parse = async (event: Event) => {
    event.preventDefault();
    const input = document.getElementById('batch-file') as HTMLInputElement;
    const chosen = input.files?.[0];
    if (!chosen || !templateId) return;
    setBusy('Reading the spreadsheet…');
    setError(null);
    setParsed(null);
    setBatch(null);
    try {
      const upload = { filename: chosen.name, content_base64: await base64Of(chosen) };
      const result = await call(
        api.POST('/spreadsheets/parse', { body: { ...upload, template_id: templateId } }),
      );
      setFile(upload);
      setParsed(result);
      setMapping(result.mapping);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const start = async () => {
    if (!file) return;
    setBusy('Starting the batch…');
    setError(null);
    try {
      const chosen = Object.fromEntries(
        Object.entries(mapping).filter((e): e is [string, string] => Boolean(e[1])),
      );
      setBatch(
        await call(
          api.POST('/batches', {
            body: { template_id: templateId, spreadsheet: { ...file, mapping: chosen } },
          }),
        ),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  // Watch the batch until it is done and its ZIP link exists.
  useEffect(() => {
    if (!batch || (batch.status === 'completed' && batch.zip) || batch.status === 'canceled') return;
    const timer = setTimeout(async () => {
      try {
        setBatch(await call(api.GET('/batches/{id}', { params: { path: { id: batch.id } } })));
      } catch (err) {
        setError(err);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [batch]);

  const done = batch ? batch.counts.succeeded + batch.counts.failed + batch.counts.canceled : 0;
  return (
    <Page title="Batches">
      <form class="stack" onSubmit={parse}>
        <label for="batch-template">Template</label>
        <select
          id="batch-template"
          required
          value={templateId}
          onChange={(e) => setTemplateId(e.currentTarget.value)}
        >
          <option value="">Choose a template…</option>
          {templates.data?.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <label for="batch-file">Spreadsheet (CSV or XLSX)</label>
        <input
          id="batch-file"
          type="file"
          required
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        />
        <button type="submit" disabled={Boolean(busy)}>
          Read columns
        </button>
      </form>
      {busy && <Busy label={busy} />}
      <ErrorText error={error} id="batch-error" />
      {parsed && (
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
          <button type="button" class="primary" onClick={start} disabled={Boolean(busy) || Boolean(batch)}>
            Start batch of {parsed.row_count} documents
          </button>
        </section>
      )}
      {batch && (
        <section aria-labelledby="progress-title">
          <h2 id="progress-title">Batch {batch.id}</h2>
          <label for="batch-progress">
            {batch.status}: {done} of {batch.counts.total} done ({batch.counts.failed} failed)
          </label>
          <progress id="batch-progress" class="progress" max={batch.counts.total} value={done} />
          {batch.status === 'completed' && !batch.zip && <Busy label="Packing the ZIP…" />}
          {batch.zip && (
            <p>
              <a href={batch.zip.url} download>
                Download the ZIP
              </a>
            </p>
          )}
        </section>
      )}
    </Page>
  );
}
