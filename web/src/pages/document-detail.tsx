import { api, call, formatBytes, type Schemas } from '../api';
import { CopyButton } from '../feedback';
import { formatCount } from '../numbers';
import { Badge, Busy, DataTable, ErrorText, formatDate, Page, useLoad } from '../ui';
import { WarningList } from '../warnings';

type Entry = Schemas['ActivityEntry'];

/** Transitions are seconds apart, so the activity shows seconds too. */
function formatInstant(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** "1.2 s" or "340 ms". */
function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function EntryDetails({ entry }: { entry: Entry }) {
  const parts: string[] = [];
  if (entry.pages !== undefined && entry.pages !== null)
    parts.push(`${formatCount(entry.pages)} page${entry.pages === 1 ? '' : 's'}`);
  if (entry.timings_ms) parts.push(`render ${formatMs(entry.timings_ms.render)}`);
  return (
    <>
      {parts.join(' · ')}
      {entry.error_code && (
        <p class="error">
          {entry.error_code}: {entry.error_message ?? ''}
        </p>
      )}
      <WarningList warnings={entry.warnings ?? []} />
    </>
  );
}

export function DocumentDetailPage({ id }: { id: string }) {
  const doc = useLoad(() => call(api.GET('/pdf/{id}', { params: { path: { id } } })), [id]);
  const activity = useLoad(() => call(api.GET('/pdf/{id}/activity', { params: { path: { id } } })), [id]);
  // The template's name, not its id; a deleted template (or one the caller cannot read) keeps the id.
  const templateId = doc.data?.template_id ?? null;
  const template = useLoad(
    async () =>
      templateId ? call(api.GET('/templates/{id}', { params: { path: { id: templateId } } })) : null,
    [templateId],
  );
  const d = doc.data;
  return (
    <Page
      title="Document"
      actions={
        <>
          <a href="#/documents">Back to documents</a>
          <button
            type="button"
            onClick={() => {
              doc.reload();
              activity.reload();
            }}
          >
            Refresh
          </button>
        </>
      }
    >
      {doc.loading && <Busy label="Loading the document…" />}
      <ErrorText error={doc.error} />
      {d && (
        <div class="row">
          {d.thumbnail_url && <img class="thumb" src={d.thumbnail_url} alt={`Page 1 of document ${d.id}`} />}
          <dl class="numbers" data-testid="document-fields">
            <dt>ID</dt>
            <dd>
              <code>{d.id}</code> <CopyButton text={d.id} label="the document id" />
            </dd>
            <dt>Status</dt>
            <dd data-testid="document-status">
              <Badge status={d.status} />
              {d.test && ' test'}
            </dd>
            <dt>Pages</dt>
            <dd>{d.pages === null ? '—' : formatCount(d.pages)}</dd>
            <dt>Size</dt>
            <dd>{d.bytes === null ? '—' : formatBytes(d.bytes)}</dd>
            <dt>Mode</dt>
            <dd>{d.mode ?? '—'}</dd>
            <dt>Template</dt>
            <dd>
              {d.template_id ? (
                <a href={`#/templates/${d.template_id}`} data-testid="document-template">
                  {template.data?.name ?? (template.loading ? '…' : d.template_id)} · version{' '}
                  {d.template_version ?? '?'}
                </a>
              ) : (
                'HTML'
              )}
            </dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={d.created_at}>{formatDate(d.created_at)}</time>
            </dd>
            <dt>Expires</dt>
            <dd>{d.expires_at ? <time dateTime={d.expires_at}>{formatDate(d.expires_at)}</time> : '—'}</dd>
            <dt>File</dt>
            <dd>
              {d.url ? (
                <>
                  <a href={d.url} download>
                    Download PDF
                  </a>{' '}
                  <CopyButton text={d.url} label="the signed download link" />
                </>
              ) : (
                'expired'
              )}
            </dd>
            {d.error_code && (
              <>
                <dt>Error</dt>
                <dd>
                  {d.error_code}: {d.error_message ?? ''}
                </dd>
              </>
            )}
          </dl>
        </div>
      )}
      <h2>Activity</h2>
      <p class="hint">Status changes with timing, page count and warnings; kept 30 days.</p>
      {activity.loading && <Busy label="Loading the activity…" />}
      <ErrorText error={activity.error} />
      {activity.data && activity.data.data.length === 0 && <p>No activity in the last 30 days.</p>}
      {activity.data && activity.data.data.length > 0 && (
        <DataTable columns={['Status', 'At', 'After', 'Details']} testId="activity">
          {activity.data.data.map((entry) => (
            <tr key={`${entry.status}-${entry.at}`}>
              <th scope="row">{entry.status}</th>
              <td>
                <time dateTime={entry.at}>{formatInstant(entry.at)}</time>
              </td>
              <td>{entry.duration_ms === null ? '—' : formatMs(entry.duration_ms)}</td>
              <td>
                <EntryDetails entry={entry} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Page>
  );
}
