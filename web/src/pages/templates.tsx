import { useState } from 'preact/hooks';
import { api, call, type Session } from '../api';
import { Busy, ErrorText, formatDate, go, liveOnlyReason, Page, Reason, useLoad } from '../ui';

const STARTER_HTML = `<h1>Invoice {{ number }}</h1>
<p>Bill to: {{ customer.name }}</p>
<table>
  {% for item in items %}<tr><td>{{ item.name }}</td><td>{{ item.price }}</td></tr>{% endfor %}
</table>
`;

const STARTER_DATA = {
  number: '1001',
  customer: { name: 'Ada Lovelace' },
  items: [{ name: 'Consulting', price: 100 }],
};

export function TemplatesPage({ session }: { session: Session }) {
  const list = useLoad(
    () => call(api.GET('/templates', { params: { query: { limit: 100, offset: 0 } } })),
    [],
  );
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const reason = liveOnlyReason(session.mode, 'create templates');

  const create = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name'));
    setBusy(true);
    setError(null);
    try {
      const template = await call(
        api.POST('/templates', {
          body: { name, html: STARTER_HTML, css: 'h1 { color: #123; }', sample_data: STARTER_DATA },
        }),
      );
      go(`/templates/${template.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Templates">
      <form class="inline" onSubmit={create}>
        <label for="new-template-name">New template name</label>
        <input id="new-template-name" name="name" required maxLength={100} aria-describedby="create-error" />
        <button
          type="submit"
          class="primary"
          disabled={busy || reason !== null}
          aria-describedby={reason ? 'create-reason' : undefined}
        >
          {busy ? 'Creating…' : 'Create template'}
        </button>
        <Reason id="create-reason" text={reason} />
      </form>
      <ErrorText error={error} id="create-error" />
      {list.loading && <Busy label="Loading templates…" />}
      <ErrorText error={list.error} />
      {list.data && list.data.data.length === 0 && <p>No templates yet.</p>}
      <ul class="cards">
        {list.data?.data.map((t) => (
          <li key={t.id} class="card">
            <a class="card-link" href={`#/templates/${t.id}`}>
              {t.thumbnail_url && (
                <img src={t.thumbnail_url} alt={`Page 1 of ${t.name}`} loading="lazy" width={240} />
              )}
              <strong>{t.name}</strong>
            </a>
            <span>
              v{t.current_version}
              {t.pinned_version !== null && ` · pinned v${t.pinned_version}`} · {formatDate(t.updated_at)}
            </span>
            <a href={`#/generate?template=${t.id}`}>Generate</a>
          </li>
        ))}
      </ul>
    </Page>
  );
}
