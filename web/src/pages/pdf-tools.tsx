import { useState } from 'preact/hooks';
import { ApiError, api, base64Of, call, download, formatBytes, type Schemas, toApiError } from '../api';
import { Busy, ErrorText, Page, useLoad } from '../ui';
import { useAction } from '../use-action';
import { InspectionView } from './pdf-tools-inspection';
import { StepBuilder, type StepDraft, stepBody } from './pdf-tools-steps';

type Source = Schemas['PdfToolSource'];
type Inspection = Schemas['PdfInspection'];
type Listed = Schemas['ListedDocument'];
type SourceKind = 'file' | 'document';

interface PickedFile {
  name: string;
  size: number;
  base64: string;
}

/** The download name the server chose (content-disposition), else `fallback`. */
function filenameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(header)?.[1] ?? fallback;
}

/** The API's message with the field it names (`details.field`), so a refused step can be found. */
function ToolError({ error, id }: { error: unknown; id: string }) {
  const field = error instanceof ApiError ? error.details?.field : undefined;
  const step = typeof field === 'string' ? /^steps\[(\d+)\]/.exec(field) : null;
  return (
    <>
      <ErrorText error={error} id={id} />
      {typeof field === 'string' && (
        <p class="hint">
          Field: <code>{field}</code>
          {step && ` (step ${Number(step[1]) + 1})`}
        </p>
      )}
    </>
  );
}

function describeDocument(d: Listed): string {
  return `${d.id.slice(0, 8)} · ${d.pages ?? '?'} p · ${new Date(d.created_at).toLocaleDateString()}${d.test ? ' · test' : ''}`;
}

function FileDrop({ file, onFile }: { file: PickedFile | null; onFile: (file: File | undefined) => void }) {
  const [dragging, setDragging] = useState(false);
  return (
    <section
      aria-label="Drop zone for the PDF"
      class={`field dropzone${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        onFile(e.dataTransfer?.files[0]);
      }}
    >
      <label for="pdf-tools-file">Drop a PDF here or choose one</label>
      <input
        id="pdf-tools-file"
        type="file"
        accept=".pdf,application/pdf"
        onChange={(e) => onFile(e.currentTarget.files?.[0])}
      />
      {file && (
        <p>
          {file.name} ({formatBytes(file.size)})
        </p>
      )}
    </section>
  );
}

interface SourceState {
  kind: SourceKind;
  file: PickedFile | null;
  documentId: string;
  password: string;
}

function SourcePicker(props: {
  value: SourceState;
  onChange: (patch: Partial<SourceState>) => void;
  documents: Listed[];
}) {
  const { value, onChange } = props;
  const { error, run } = useAction();
  const pick = (file: File | undefined) =>
    file &&
    run(async () => onChange({ file: { name: file.name, size: file.size, base64: await base64Of(file) } }));
  return (
    <fieldset class="field-group">
      <legend>The PDF</legend>
      <fieldset class="inline-set">
        <legend>Where it comes from</legend>
        {(['file', 'document'] as const).map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name="pdf-source"
              value={kind}
              checked={value.kind === kind}
              onChange={() => onChange({ kind })}
            />{' '}
            {kind === 'file' ? 'A file' : 'One of your documents'}
          </label>
        ))}
      </fieldset>
      {value.kind === 'file' ? (
        <FileDrop file={value.file} onFile={pick} />
      ) : (
        <div class="field">
          <label for="pdf-tools-document">Document</label>
          <select
            id="pdf-tools-document"
            value={value.documentId}
            onChange={(e) => onChange({ documentId: e.currentTarget.value })}
          >
            <option value="">Choose a document…</option>
            {props.documents.map((d) => (
              <option key={d.id} value={d.id}>
                {describeDocument(d)}
              </option>
            ))}
          </select>
        </div>
      )}
      <ErrorText error={error} />
      <div class="field">
        <label for="pdf-tools-password">Password (only for an encrypted PDF)</label>
        <input
          id="pdf-tools-password"
          type="password"
          autoComplete="off"
          value={value.password}
          onInput={(e) => onChange({ password: e.currentTarget.value })}
        />
      </div>
    </fieldset>
  );
}

/** A binary answer (PDF or ZIP) of an openapi-fetch call made with parseAs: 'blob', or its ApiError. */
async function blobOf(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>) {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) throw toApiError(response, error);
  return { blob: data as Blob, response };
}

interface Transformed {
  id: string;
  pages: number;
  bytes: number;
}

function SplitForm({ body }: { body: () => { source: Source; password?: string } | null }) {
  const { busy, error, run } = useAction();
  const [by, setBy] = useState<'ranges' | 'every'>('ranges');
  const [ranges, setRanges] = useState('');
  const [every, setEvery] = useState('1');
  const split = (event: Event) => {
    event.preventDefault();
    const base = body();
    if (!base) return;
    const parts = ranges
      .split(/[\n;]/)
      .map((r) => r.trim())
      .filter(Boolean);
    void run(async () => {
      const pending = api.POST('/pdf/split', {
        body: { ...base, ...(by === 'ranges' ? { ranges: parts } : { every: Number(every) }) },
        parseAs: 'blob',
      });
      const { blob, response } = await blobOf(pending);
      download(blob, filenameOf(response, 'parts.zip'));
    });
  };
  return (
    <form class="field-group" onSubmit={split} aria-labelledby="split-title">
      <h2 id="split-title">Split into a ZIP</h2>
      <p class="hint">One PDF per part; the parts are not kept as documents.</p>
      <fieldset class="inline-set">
        <legend>How to split</legend>
        <label>
          <input type="radio" name="split-by" checked={by === 'ranges'} onChange={() => setBy('ranges')} /> By
          page ranges
        </label>
        <label>
          <input type="radio" name="split-by" checked={by === 'every'} onChange={() => setBy('every')} />{' '}
          Every N pages
        </label>
      </fieldset>
      {by === 'ranges' ? (
        <div class="field">
          <label for="split-ranges">Page ranges, one part per line (e.g. 1-2, then 3-last)</label>
          <textarea
            id="split-ranges"
            rows={3}
            value={ranges}
            onInput={(e) => setRanges(e.currentTarget.value)}
          />
        </div>
      ) : (
        <div class="field">
          <label for="split-every">Pages per part</label>
          <input
            id="split-every"
            type="number"
            min={1}
            value={every}
            onInput={(e) => setEvery(e.currentTarget.value)}
          />
        </div>
      )}
      <ToolError error={error} id="split-error" />
      <button type="submit" disabled={busy || body() === null}>
        {busy ? 'Splitting…' : 'Split'}
      </button>
    </form>
  );
}

function TransformForm(props: {
  body: () => { source: Source; password?: string } | null;
  fields: Inspection['form_fields'];
}) {
  const { busy, error, run } = useAction();
  const [steps, setSteps] = useState<StepDraft[]>([]);
  const [result, setResult] = useState<Transformed | null>(null);
  const transform = (event: Event) => {
    event.preventDefault();
    const base = props.body();
    if (!base || steps.length === 0) return;
    setResult(null);
    void run(async () => {
      const pending = api.POST('/pdf/transform', {
        params: { header: { 'idempotency-key': crypto.randomUUID() } },
        body: { ...base, steps: steps.map(stepBody) },
        parseAs: 'blob',
      });
      const { blob, response } = await blobOf(pending);
      download(blob, filenameOf(response, 'document.pdf'));
      setResult({
        id: response.headers.get('x-document-id') ?? '',
        pages: Number(response.headers.get('x-pages') ?? 0),
        bytes: blob.size,
      });
    });
  };
  return (
    <form class="field-group" onSubmit={transform} aria-labelledby="transform-title">
      <h2 id="transform-title">Transform</h2>
      <p class="hint">Steps run in order; the result is a document in your log, counted like any other.</p>
      <StepBuilder steps={steps} onChange={setSteps} fields={props.fields} />
      <ToolError error={error} id="transform-error" />
      <button type="submit" class="primary" disabled={busy || steps.length === 0 || props.body() === null}>
        {busy ? 'Transforming…' : 'Transform'}
      </button>
      {busy && <Busy label="Transforming the PDF…" />}
      {result && (
        <p role="status" class="result pdf-tools-result">
          Made {result.pages} page{result.pages === 1 ? '' : 's'} ({formatBytes(result.bytes)}), document{' '}
          <a href={`#/documents?highlight=${result.id}`}>{result.id}</a>. The download has started.
        </p>
      )}
    </form>
  );
}

/** PDF tools: inspect, transform and split a PDF the team has (a file or a stored document). */
export function PdfToolsPage() {
  const documents = useLoad(
    () => call(api.GET('/documents', { params: { query: { limit: 50, status: 'succeeded' } } })),
    [],
  );
  const [source, setSource] = useState<SourceState>({
    kind: 'file',
    file: null,
    documentId: '',
    password: '',
  });
  const [inspection, setInspection] = useState<Inspection | null>(null);
  const inspect = useAction();

  const change = (patch: Partial<SourceState>) => {
    // Another PDF (not another password) makes the shown inspection stale.
    if (patch.kind !== undefined || patch.file !== undefined || patch.documentId !== undefined)
      setInspection(null);
    setSource((s) => ({ ...s, ...patch }));
  };

  /** The request's source and password, or null when no PDF is chosen yet. */
  const body = (): { source: Source; password?: string } | null => {
    const password = source.password ? { password: source.password } : {};
    if (source.kind === 'file')
      return source.file ? { source: { pdf_base64: source.file.base64 }, ...password } : null;
    return source.documentId ? { source: { document_id: source.documentId }, ...password } : null;
  };
  const chosen = body() !== null;

  const runInspect = () => {
    const base = body();
    if (!base) return;
    setInspection(null);
    void inspect.run(async () => setInspection(await call(api.POST('/pdf/inspect', { body: base }))));
  };

  return (
    <Page title="PDF tools">
      <p>
        Inspect, transform and split a PDF you already have — one you received, or one of your documents. No
        OCR and no redaction: see the <a href="/docs">API reference</a> for what each step does.
      </p>
      <SourcePicker value={source} onChange={change} documents={documents.data?.data ?? []} />
      <ErrorText error={documents.error} />
      <div class="actions">
        <button type="button" class="primary" disabled={!chosen || inspect.busy} onClick={runInspect}>
          {inspect.busy ? 'Inspecting…' : 'Inspect'}
        </button>
        {!chosen && <span class="hint">Choose a PDF first.</span>}
      </div>
      <ToolError error={inspect.error} id="inspect-error" />
      {inspect.busy && <Busy label="Reading the PDF…" />}
      {inspection && <InspectionView inspection={inspection} />}
      <TransformForm body={body} fields={inspection?.form_fields ?? []} />
      <SplitForm body={body} />
    </Page>
  );
}
