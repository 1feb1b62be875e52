import { useEffect, useState } from 'preact/hooks';
import { api, base64Of, call, formatBytes, type Schemas } from '../api';
import { watchInBackground } from '../background';
import { CopyButton } from '../feedback';
import { templateChoices } from '../template-actions';
import { TemplateSelect } from '../template-select';
import {
  Badge,
  Busy,
  CursorPager,
  DataTable,
  EmptyState,
  ErrorText,
  formatCount,
  formatDate,
  Page,
  type Route,
  Skeleton,
  useCursorPages,
  useLoad,
} from '../ui';
import { useAction } from '../use-action';
import { type BatchChoice, ColumnMapper, type Parsed } from './batch-mapper';
import { BatchOutcome, BatchZip } from './batch-outcome';

type Batch = Schemas['Batch'];
const POLL_MS = 1500;

export function BatchesPage({ route }: { route: Route }) {
  // All of them, not the first page: the choice must offer every template (paged reads).
  const templates = useLoad(templateChoices, []);
  const [templateId, setTemplateId] = useState('');
  const [file, setFile] = useState<{ filename: string; content_base64: string } | null>(null);
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [sample, setSample] = useState<unknown>(null);
  const { busy, running, error, setError, run } = useAction();
  const [batch, setBatch] = useState<Batch | null>(null);

  const parse = async (event: Event) => {
    event.preventDefault();
    const input = document.getElementById('batch-file') as HTMLInputElement;
    const chosen = input.files?.[0];
    if (!chosen || !templateId) return;
    setParsed(null);
    setBatch(null);
    await run(
      async () => {
        const upload = { filename: chosen.name, content_base64: await base64Of(chosen) };
        const [result, template] = await Promise.all([
          call(api.POST('/spreadsheets/parse', { body: { ...upload, template_id: templateId } })),
          call(api.GET('/templates/{id}', { params: { path: { id: templateId } } })),
        ]);
        setFile(upload);
        setSample(template.sample_data);
        setParsed(result);
      },
      { label: 'Reading the spreadsheet…' },
    );
  };

  const start = async (choice: BatchChoice) => {
    if (!file) return;
    await run(
      async () => {
        // `defaults` is an extension of `spreadsheet` (docs/api-behaviours.md), unknown to the generated types.
        const spreadsheet = { ...file, mapping: choice.mapping, defaults: choice.defaults };
        const started = await call(
          api.POST('/batches', {
            body: {
              template_id: templateId,
              spreadsheet,
              ...(choice.filenamePattern ? { filename_pattern: choice.filenamePattern } : {}),
            },
          }),
        );
        setBatch(started);
        const name = templates.data?.data.find((t) => t.id === templateId)?.name ?? 'template';
        // Announced wherever the user is when it finishes (a toast with the ZIP link).
        watchInBackground({
          kind: 'batch',
          id: started.id,
          label: `Batch of ${formatCount(started.counts.total)} (${name})`,
        });
      },
      { label: 'Starting the batch…' },
    );
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

  const done = batch ? finished(batch) : 0;
  const names = new Map(templates.data?.data.map((t) => [t.id, t.name]) ?? []);
  return (
    <Page title="Batches">
      <details class="panel" open={route.query.get('open') === null}>
        <summary>New batch from a spreadsheet</summary>
        <form class="stack" onSubmit={parse}>
          <label for="batch-template">Template</label>
          <TemplateSelect
            id="batch-template"
            required
            value={templateId}
            onChange={setTemplateId}
            choices={templates.data}
          />
          <label for="batch-file">Spreadsheet (CSV or XLSX)</label>
          <input
            id="batch-file"
            type="file"
            required
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          />
          <button type="submit" disabled={busy}>
            Read columns
          </button>
        </form>
        {running && <Busy label={running} />}
        <ErrorText error={error} id="batch-error" />
        {parsed && (
          <ColumnMapper
            key={`${templateId}:${file?.filename}:${parsed.row_count}`}
            parsed={parsed}
            sample={sample}
            templateName={names.get(templateId) ?? ''}
            disabled={busy || Boolean(batch)}
            onStart={start}
          />
        )}
        {batch && (
          <section aria-labelledby="progress-title">
            <h2 id="progress-title">Batch {batch.id}</h2>
            <p>
              <BatchOutcome batch={batch} />
            </p>
            <label for="batch-progress">
              {done} of {batch.counts.total} done ({batch.counts.failed} failed)
            </label>
            <progress id="batch-progress" class="progress" max={batch.counts.total} value={done} />
            {batch.status === 'completed' && !batch.zip && batch.counts.succeeded > 0 && (
              <Busy label="Packing the ZIP…" />
            )}
            <p>
              <BatchZip batch={batch} label="Download the ZIP" />
            </p>
            {batch.counts.failed > 0 && finished(batch) === batch.counts.total && (
              <p>
                <a href={`#/batches?open=${batch.id}`}>
                  See why{' '}
                  {batch.counts.failed === 1 ? 'an item' : `${formatCount(batch.counts.failed)} items`} failed
                </a>
              </p>
            )}
          </section>
        )}
      </details>
      <BatchList names={names} open={route.query.get('open')} latest={batch} />
    </Page>
  );
}

/** Items that reached a final status. */
function finished(batch: Batch): number {
  return batch.counts.succeeded + batch.counts.failed + batch.counts.canceled;
}

const LIST_SIZE = 20;

/** Past batches, newest first, paged by the API's `before` cursor; a batch's items open below the list. */
function BatchList({
  names,
  open,
  latest,
}: {
  names: Map<string, string>;
  open: string | null;
  latest: Batch | null;
}) {
  const pages = useCursorPages();
  const before = pages.cursor;
  const [shown, setShown] = useState<string | null>(open);
  // A link to #/batches?open=<id> on this page opens that batch's items.
  useEffect(() => {
    if (open) setShown(open);
  }, [open]);
  const list = useLoad(
    () =>
      call(api.GET('/batches', { params: { query: { limit: LIST_SIZE, ...(before ? { before } : {}) } } })),
    // The batch started on this page shows in the list as it progresses.
    [before, latest?.id, latest?.status, latest?.zip?.url],
  );
  const rows = list.data?.data ?? [];
  return (
    <section aria-labelledby="past-batches-title">
      <h2 id="past-batches-title">Past batches</h2>
      {list.loading && !list.data && <Skeleton label="Loading batches…" rows={3} />}
      <ErrorText error={list.error} />
      {list.data && rows.length === 0 && pages.page === 1 && (
        <EmptyState title="No batches yet">
          A batch renders one PDF per spreadsheet row (CSV or XLSX) from a template and packs them into a ZIP.
          Choose a template and a spreadsheet above to start one.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable columns={['Created', 'Template', 'Status', 'Documents', 'ZIP', 'Items']} testId="batches">
          {rows.map((b) => (
            <tr key={b.id} data-batch={b.id} class={b.id === shown ? 'highlight' : undefined}>
              <td>
                <time dateTime={b.created_at}>{formatDate(b.created_at)}</time>
              </td>
              <td>{names.get(b.template_id) ?? 'deleted template'}</td>
              <td>
                <BatchOutcome batch={b} />
                {b.test && ' test'}
              </td>
              <td>
                {formatCount(b.counts.succeeded)} of {formatCount(b.counts.total)} succeeded
                {b.counts.failed > 0 && `, ${formatCount(b.counts.failed)} failed`}
              </td>
              <td>
                <BatchZip batch={b} label="Download ZIP" inList />
              </td>
              <td>
                <button
                  type="button"
                  aria-expanded={b.id === shown}
                  aria-controls="batch-items"
                  onClick={() => setShown(b.id === shown ? null : b.id)}
                >
                  {b.id === shown ? 'Hide items' : 'Show items'}
                  <span class="sr-only"> of batch {b.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CursorPager label="Batches" pages={pages} next={list.data?.next_before} />
      {shown && <BatchItems key={shown} id={shown} />}
    </section>
  );
}

const ITEMS_SIZE = 50;

/** One batch's items in item order, paged forwards by the API's `after` cursor. */
function BatchItems({ id }: { id: string }) {
  const pages = useCursorPages();
  const after = pages.cursor;
  const items = useLoad(
    () =>
      call(
        api.GET('/batches/{id}/items', {
          params: { path: { id }, query: { limit: ITEMS_SIZE, ...(after ? { after } : {}) } },
        }),
      ),
    [id, after],
  );
  return (
    <section id="batch-items" class="panel" aria-labelledby="batch-items-title">
      <h2 id="batch-items-title">Items of batch</h2>
      <p class="hint">
        <code>{id}</code> <CopyButton text={id} label="the batch id" />
      </p>
      {items.loading && !items.data && <Skeleton label="Loading items…" rows={2} />}
      <ErrorText error={items.error} />
      {items.data && (
        <DataTable
          columns={['Row', 'Status', 'File name', 'Pages', 'Size', 'Error', 'Document']}
          testId="batch-items"
        >
          {items.data.data.map((item) => (
            <tr key={item.id}>
              <td>{item.index + 1}</td>
              <td>
                <Badge status={item.status} />
              </td>
              <td>{item.filename ?? '—'}</td>
              <td>{item.pages ?? '—'}</td>
              <td>{item.bytes === null ? '—' : formatBytes(item.bytes)}</td>
              <td class="item-error">
                {item.error_code ? (
                  <>
                    {item.error_message ?? item.error_code} <code class="code">{item.error_code}</code>
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <a href={`#/documents/${item.id}`}>
                  {item.status === 'failed' ? 'Why it failed' : 'Details'}{' '}
                  <span class="sr-only">of row {item.index + 1}</span>
                </a>
                {item.url && (
                  <>
                    {' · '}
                    <a href={item.url} download>
                      PDF <span class="sr-only">of row {item.index + 1}</span>
                    </a>
                  </>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CursorPager label="Items" pages={pages} next={items.data?.next_after} />
    </section>
  );
}
