import { api, call, type Session } from '../api';
import { toast } from '../feedback';
import { copyName, duplicateTemplate } from '../template-actions';
import {
  EmptyState,
  ErrorText,
  formatDate,
  go,
  liveOnlyReason,
  Page,
  Pager,
  Reason,
  type Route,
  Skeleton,
  useLoad,
} from '../ui';
import { useAction } from '../use-action';

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

/** Templates per page of cards (the API lists at most 100 at once). */
const PAGE_SIZE = 24;

export function TemplatesPage({ session, route }: { session: Session; route: Route }) {
  const pageNumber = Math.max(1, Number(route.query.get('page') ?? 1) || 1);
  const list = useLoad(
    () =>
      call(
        api.GET('/templates', {
          params: { query: { limit: PAGE_SIZE, offset: (pageNumber - 1) * PAGE_SIZE } },
        }),
      ),
    [pageNumber],
  );
  const { busy, error, run } = useAction();
  const reason = liveOnlyReason(session.mode, 'create templates');

  const create = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name'));
    await run(async () => {
      const template = await call(
        api.POST('/templates', {
          body: { name, html: STARTER_HTML, css: 'h1 { color: #123; }', sample_data: STARTER_DATA },
        }),
      );
      go(`/templates/${template.id}`);
    });
  };

  const duplicate = (t: { id: string; name: string }) =>
    run(async () => {
      const copy = await duplicateTemplate(t.id, copyName(t.name));
      toast(`Duplicated ${t.name} as ${copy.name}.`);
      go(`/templates/${copy.id}`);
    });

  const rows = list.data?.data ?? [];
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
      {list.loading && !list.data && <Skeleton label="Loading templates…" rows={4} kind="cards" />}
      <ErrorText error={list.error} />
      {list.data && rows.length === 0 && pageNumber === 1 && (
        <EmptyState title="No templates yet">
          A template is HTML with Liquid placeholders, a stylesheet and sample data. Name your first one
          above: it starts as a small invoice you can edit with a live preview, then render from the API or
          the Generate page.
        </EmptyState>
      )}
      <ul class="cards">
        {rows.map((t) => (
          <li key={t.id} class="card" data-template={t.id}>
            <a class="card-link" href={`#/templates/${t.id}`}>
              <span class="card-thumb">
                {t.thumbnail_url ? (
                  <img src={t.thumbnail_url} alt={`Page 1 of ${t.name}`} loading="lazy" width={240} />
                ) : (
                  <span>No preview yet</span>
                )}
              </span>
              <strong>{t.name}</strong>
            </a>
            <span class="meta">
              v{t.current_version}
              {t.pinned_version !== null && ` · pinned v${t.pinned_version}`} · {formatDate(t.updated_at)}
            </span>
            <div class="actions">
              <a href={`#/generate?template=${t.id}`}>
                Generate <span class="sr-only">from {t.name}</span>
              </a>
              <button
                type="button"
                onClick={() => duplicate(t)}
                disabled={reason !== null}
                aria-describedby={reason ? 'create-reason' : undefined}
              >
                Duplicate <span class="sr-only">{t.name}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Pager
        label="Templates"
        page={pageNumber}
        hasPrevious={pageNumber > 1}
        hasNext={Boolean(list.data?.has_more)}
        onPrevious={() => go(`/templates?page=${pageNumber - 1}`)}
        onNext={() => go(`/templates?page=${pageNumber + 1}`)}
      />
    </Page>
  );
}
