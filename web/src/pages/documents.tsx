import { useState } from 'preact/hooks';
import { api, call, formatBytes, type Schemas } from '../api';
import { CopyButton } from '../feedback';
import { templateChoices } from '../template-actions';
import {
  Badge,
  CursorPager,
  DataTable,
  EmptyState,
  ErrorText,
  formatDate,
  Page,
  type Route,
  Skeleton,
  useCursorPages,
  useLoad,
} from '../ui';

type Doc = Schemas['Document'];
/** A row of the log: the Document plus the list's extensions (src/documents/list-extras.ts). */
type Listed = Doc & { warning_count?: number; e_invoice?: { standard: string; profile: string | null } };

const STANDARD_NAMES: Record<string, string> = {
  'factur-x': 'Factur-X',
  zugferd: 'ZUGFeRD',
  'xrechnung-cii': 'XRechnung (CII)',
  'xrechnung-ubl': 'XRechnung (UBL)',
  peppol: 'Peppol BIS',
  'en16931-ubl': 'EN 16931 (UBL)',
  'en16931-cii': 'EN 16931 (CII)',
  'hr-cius': 'HR-CIUS',
  ksef: 'KSeF FA(3)',
};

/** What made the document: an e-invoice by its standard, a template by name (and version when known), HTML. */
function sourceOf(d: Listed, names: Map<string, string>): string {
  if (d.e_invoice) {
    const standard = STANDARD_NAMES[d.e_invoice.standard] ?? d.e_invoice.standard;
    return `E-invoice: ${standard}${d.e_invoice.profile ? ` ${d.e_invoice.profile}` : ''}`;
  }
  if (!d.template_id) return 'HTML';
  const name = names.get(d.template_id) ?? d.template_id;
  return d.template_version === null ? name : `${name} v${d.template_version}`;
}

/** The file cell without a link: still coming, never made (a failed or canceled document), or expired. */
function noFile(d: Doc): string {
  if (d.status === 'queued' || d.status === 'processing') return '—';
  return d.expires_at === null ? 'no file' : 'expired';
}
const PAGE_SIZE = 25;
const STATUSES: Doc['status'][] = ['succeeded', 'failed', 'queued', 'processing', 'canceled'];

type Filter = { q: string; status: string; template: string; from: string; to: string };
const NO_FILTER: Filter = { q: '', status: '', template: '', from: '', to: '' };

/** The log's filters as GET /documents query parameters (the API filters; UTC days, inclusive). */
function filterQuery(filter: Filter) {
  return {
    ...(filter.q.trim() ? { q: filter.q.trim() } : {}),
    ...(filter.status ? { status: filter.status as Doc['status'] } : {}),
    ...(filter.template ? { template_id: filter.template } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
  };
}

function filtered(filter: Filter): boolean {
  return Object.values(filter).some(Boolean);
}

export function DocumentsPage({ route }: { route: Route }) {
  const pages = useCursorPages();
  const [filter, setFilterState] = useState<Filter>(NO_FILTER);
  const before = pages.cursor;
  const page = useLoad(
    () =>
      call(
        api.GET('/documents', {
          params: { query: { limit: PAGE_SIZE, ...filterQuery(filter), ...(before ? { before } : {}) } },
        }),
      ),
    [before, filter],
  );
  // A new filter starts again from the newest documents.
  const setFilter = (next: Filter) => {
    setFilterState(next);
    pages.restart();
  };
  // All of them, not the first page: the choice must offer every template (paged reads).
  const templates = useLoad(templateChoices, []);
  const highlight = route.query.get('highlight');
  const names = new Map(templates.data?.data.map((t) => [t.id, t.name]) ?? []);
  const rows: Listed[] = page.data?.data ?? [];

  return (
    <Page
      title="Documents"
      actions={
        <button type="button" onClick={page.reload}>
          Refresh
        </button>
      }
    >
      <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
        <span class="pair">
          <label for="filter-q">Search</label>
          <input
            id="filter-q"
            type="search"
            value={filter.q}
            maxLength={200}
            placeholder="Id, file name or metadata"
            aria-describedby="filter-q-hint"
            onChange={(e) => setFilter({ ...filter, q: e.currentTarget.value })}
          />
        </span>
        <span class="pair">
          <label for="filter-status">Status</label>
          <select
            id="filter-status"
            value={filter.status}
            onChange={(e) => setFilter({ ...filter, status: e.currentTarget.value })}
          >
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </span>
        <span class="pair">
          <label for="filter-template">Template</label>
          <select
            id="filter-template"
            value={filter.template}
            onChange={(e) => setFilter({ ...filter, template: e.currentTarget.value })}
          >
            <option value="">Any</option>
            {templates.data?.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </span>
        <span class="pair">
          <label for="filter-from">From</label>
          <input
            id="filter-from"
            type="date"
            value={filter.from}
            onChange={(e) => setFilter({ ...filter, from: e.currentTarget.value })}
          />
        </span>
        <span class="pair">
          <label for="filter-to">To</label>
          <input
            id="filter-to"
            type="date"
            value={filter.to}
            onChange={(e) => setFilter({ ...filter, to: e.currentTarget.value })}
          />
        </span>
      </form>
      {page.loading && !page.data && <Skeleton label="Loading documents…" rows={4} />}
      <ErrorText error={page.error} />
      <p class="hint" id="filter-q-hint">
        Search finds a whole document id, or part of a file name or metadata value (press Enter). Dates are
        UTC days, both included.
      </p>
      {page.data && rows.length === 0 && (
        <EmptyState
          title={filtered(filter) ? 'No documents match' : 'No documents yet'}
          action={
            filtered(filter) ? (
              <button type="button" onClick={() => setFilter(NO_FILTER)}>
                Clear the filters
              </button>
            ) : (
              <a href="#/generate">Generate a PDF</a>
            )
          }
        >
          {filtered(filter)
            ? 'Nothing in the log matches this search, status, template and dates.'
            : 'Every PDF made from the API, the Generate page or a batch is listed here with its thumbnail, status and signed download link.'}
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable columns={['Preview', 'Created', 'Status', 'Template', 'Pages', 'Size', 'Notes', 'File']}>
          {rows.map((d) => (
            <tr key={d.id} class={d.id === highlight ? 'highlight' : undefined} data-document={d.id}>
              <td>
                {d.thumbnail_url ? (
                  <img class="thumb" src={d.thumbnail_url} alt={`Page 1 of document ${d.id}`} />
                ) : (
                  '—'
                )}
              </td>
              <td>
                {/* The date opens the document's detail and activity (no extra column for it). */}
                <a href={`#/documents/${d.id}`}>
                  {formatDate(d.created_at)}
                  <span class="sr-only"> details of {d.id}</span>
                </a>
              </td>
              <td>
                <Badge status={d.status} />
                {d.test && ' test'}
                {d.warning_count !== undefined && (
                  <>
                    {' '}
                    <Badge status="partial">
                      {d.warning_count} {d.warning_count === 1 ? 'warning' : 'warnings'}
                    </Badge>
                  </>
                )}
              </td>
              <td>{sourceOf(d, names)}</td>
              <td>{d.pages ?? '—'}</td>
              <td>{d.bytes === null ? '—' : formatBytes(d.bytes)}</td>
              <td class="notes">
                {d.error_code ? (
                  <>
                    {d.error_message ?? 'Failed.'} <code class="code">{d.error_code}</code>
                  </>
                ) : d.delivery ? (
                  'emailed'
                ) : (
                  ''
                )}
              </td>
              <td>
                {d.url ? (
                  <>
                    <a href={d.url} download>
                      Download <span class="sr-only">{d.id}</span>
                    </a>{' '}
                    <a href={d.url} target="_blank" rel="noreferrer">
                      Open <span class="sr-only">{d.id}</span>
                    </a>
                    <CopyButton text={d.url} label={`the signed link of ${d.id}`} />
                  </>
                ) : (
                  noFile(d)
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CursorPager label="Documents" pages={pages} next={page.data?.next_before} />
    </Page>
  );
}
