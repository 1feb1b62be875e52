import { useEffect, useState } from 'preact/hooks';
import { api, call, canManage, type Schemas, type Session } from '../api';
import { DeliveryExchange } from '../delivery-exchange';
import { type ConfirmOptions, CopyButton } from '../feedback';
import { Busy, DataTable, ErrorText, formatDate, Page, useLoad } from '../ui';
import { useAction } from '../use-action';

type Endpoint = Schemas['WebhookEndpoint'];
type EventType = Schemas['EventType'];
const EVENTS: EventType[] = ['pdf.created', 'pdf.failed', 'batch.completed'];
/** The receiver's status and the attempt's error in full, the error left out when it only restates the status. */
function responseText(status: number | null, error: string | null): string {
  const extra = error && error !== `HTTP ${status}` ? error : null;
  if (status === null) return extra ?? '—';
  return extra ? `${status} · ${extra}` : String(status);
}

/** How often the delivery log refreshes while a delivery is pending. */
const PENDING_REFRESH_MS = 2_000;

function EventBoxes({ prefix, selected }: { prefix: string; selected: EventType[] }) {
  return (
    <fieldset class="inline-set">
      <legend>Events</legend>
      {EVENTS.map((e) => (
        <label key={e}>
          <input
            type="checkbox"
            name="events"
            value={e}
            id={`${prefix}-${e}`}
            defaultChecked={selected.includes(e)}
          />{' '}
          {e}
        </label>
      ))}
    </fieldset>
  );
}

function eventsOf(form: FormData): EventType[] {
  return form.getAll('events').map(String) as EventType[];
}

export function WebhooksPage({ session }: { session: Session }) {
  const list = useLoad(() => call(api.GET('/webhooks')), []);
  const { busy, error, run } = useAction();
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const manage = canManage(session);

  const create = async (event: Event) => {
    event.preventDefault();
    const formEl = event.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    setSecret(null);
    await run(async () => {
      const endpoint = await call(
        api.POST('/webhooks', {
          body: {
            url: String(form.get('url')),
            events: eventsOf(form),
            description: String(form.get('description') ?? '') || null,
            // An endpoint takes the mode of the session that creates it (the API refuses another).
            mode: session.mode,
          },
        }),
      );
      setSecret({ url: endpoint.url, secret: endpoint.secret ?? '' });
      formEl.reset();
      list.reload();
    });
  };

  return (
    <Page title="Webhooks">
      {manage ? (
        <form class="stack" onSubmit={create} aria-label="New endpoint">
          <label for="wh-url">Endpoint URL</label>
          <input id="wh-url" name="url" type="url" required placeholder="https://example.com/quire" />
          <label for="wh-description">Description</label>
          <input id="wh-description" name="description" maxLength={200} />
          <EventBoxes prefix="wh-new" selected={EVENTS} />
          <ErrorText error={error} id="wh-error" />
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create endpoint'}
          </button>
        </form>
      ) : (
        <p class="hint">Only admins and owners can manage webhooks.</p>
      )}
      {secret && <SecretNotice what={`Signing secret for ${secret.url}`} secret={secret.secret} />}
      {list.loading && <Busy label="Loading endpoints…" />}
      <ErrorText error={list.error} />
      {list.data?.data.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} manage={manage} onChanged={list.reload} />
      ))}
    </Page>
  );
}

function SecretNotice({ what, secret }: { what: string; secret: string }) {
  return (
    <div role="status">
      <p>{what}. Copy it now: it is shown only once.</p>
      <p class="secret" data-testid="webhook-secret">
        {secret}
      </p>
      <CopyButton text={secret} label="the signing secret" />
    </div>
  );
}

function EndpointCard({
  endpoint,
  manage,
  onChanged,
}: {
  endpoint: Endpoint;
  manage: boolean;
  onChanged: () => void;
}) {
  const path = { id: endpoint.id };
  const { error, run } = useAction();
  const [note, setNote] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [tick, setTick] = useState(0);
  const deliveries = useLoad(
    () => call(api.GET('/webhooks/{id}/deliveries', { params: { path, query: { limit: 20 } } })),
    [endpoint.id, tick],
  );
  // While a delivery waits for an attempt the log refreshes itself (retries are minutes apart; a test
  // event or a resend takes seconds).
  const pending = deliveries.data?.data.some((d) => d.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending || deliveries.loading) return;
    const timer = setTimeout(() => setTick((t) => t + 1), PENDING_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries.loading]);

  const act = async (what: () => Promise<unknown>, done?: string, ask?: ConfirmOptions) => {
    await run(
      async () => {
        setNote(null);
        await what();
        if (done) setNote(done);
        onChanged();
        setTick((t) => t + 1);
      },
      { ask },
    );
  };

  const save = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    return act(async () => {
      await call(
        api.PUT('/webhooks/{id}', {
          params: { path },
          body: {
            url: String(form.get('url')),
            description: String(form.get('description') ?? '') || null,
            events: eventsOf(form),
          },
        }),
      );
      setEditing(false);
    }, 'Saved.');
  };

  const toggleEnabled = () =>
    act(
      () =>
        call(
          api.PUT('/webhooks/{id}', { params: { path }, body: { enabled: endpoint.status !== 'enabled' } }),
        ),
      endpoint.status === 'enabled' ? 'Disabled.' : 'Enabled.',
    );
  const resend = (deliveryId: string) =>
    act(
      () =>
        call(
          api.POST('/webhooks/{id}/deliveries/{deliveryId}/retry', {
            params: { path: { ...path, deliveryId } },
          }),
        ),
      'Resend queued.',
    );

  const label = endpoint.description ?? endpoint.url;
  return (
    <article class="card endpoint" aria-label={`Endpoint ${label}`} data-endpoint={endpoint.id}>
      <h2>{label}</h2>
      <p>
        <code>{endpoint.url}</code> · {endpoint.mode} · {endpoint.status}
        {endpoint.disabled_reason === 'failing' && ' (disabled after failing deliveries)'} · events{' '}
        {endpoint.events.join(', ')} · secret {endpoint.secret_prefix}…
      </p>
      {manage && (
        <div class="actions">
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit
          </button>
          <button type="button" onClick={toggleEnabled}>
            {endpoint.status === 'enabled' ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            onClick={() =>
              act(
                async () => {
                  const rotated = await call(api.POST('/webhooks/{id}/rotate-secret', { params: { path } }));
                  setSecret(rotated.secret ?? '');
                },
                undefined,
                {
                  title: `Rotate the signing secret of ${label}?`,
                  body: 'Deliveries are signed with a new secret at once; a receiver still checking the old one rejects them until it is updated.',
                  action: 'Rotate secret',
                },
              )
            }
          >
            Rotate secret
          </button>
          <button
            type="button"
            onClick={() =>
              act(() => call(api.POST('/webhooks/{id}/test', { params: { path } })), 'Test event sent.')
            }
          >
            Send test event
          </button>
          <button
            type="button"
            class="danger"
            onClick={() =>
              act(() => call(api.DELETE('/webhooks/{id}', { params: { path } })), 'Deleted.', {
                title: `Delete the endpoint ${label}?`,
                body: 'No more events are sent to it and its delivery log is gone. This cannot be undone.',
                action: 'Delete endpoint',
              })
            }
          >
            Delete
          </button>
        </div>
      )}
      {editing && (
        <form class="stack" onSubmit={save}>
          <label for={`wh-url-${endpoint.id}`}>Endpoint URL</label>
          <input id={`wh-url-${endpoint.id}`} name="url" type="url" required defaultValue={endpoint.url} />
          <label for={`wh-desc-${endpoint.id}`}>Description</label>
          <input id={`wh-desc-${endpoint.id}`} name="description" defaultValue={endpoint.description ?? ''} />
          <EventBoxes prefix={`wh-${endpoint.id}`} selected={endpoint.events} />
          <button type="submit" class="primary">
            Save endpoint
          </button>
        </form>
      )}
      <ErrorText error={error} />
      {note && <p role="status">{note}</p>}
      {secret && <SecretNotice what="New signing secret" secret={secret} />}
      <h3>Deliveries</h3>
      <button type="button" onClick={() => setTick((t) => t + 1)}>
        Refresh deliveries
      </button>
      {pending && (
        <p class="hint" role="status">
          Deliveries pending: this log refreshes every few seconds.
        </p>
      )}
      {deliveries.loading && !deliveries.data && <Busy label="Loading deliveries…" />}
      <ErrorText error={deliveries.error} />
      <DataTable
        columns={['Event', 'Status', 'Attempts', 'Response', 'When', 'Exchange', manage && 'Resend']}
      >
        {deliveries.data?.data.map((d) => (
          <tr key={d.id} data-delivery={d.id}>
            <td>
              {d.event_type}
              {d.test_event && ' (test)'}
            </td>
            <td>
              <span class="delivery-status">{d.status}</span>
              {d.status === 'pending' && d.next_attempt_at && (
                <span class="hint next-attempt">
                  {' '}
                  next attempt <time dateTime={d.next_attempt_at}>{formatDate(d.next_attempt_at)}</time>
                </span>
              )}
            </td>
            <td>{d.attempts}</td>
            <td class="delivery-response">{responseText(d.response_status, d.last_error)}</td>
            <td>{formatDate(d.last_attempt_at ?? d.created_at)}</td>
            <td>
              <DeliveryExchange detail={d.last_attempt_detail} />
            </td>
            {manage && (
              <td>
                <button
                  type="button"
                  onClick={() => resend(d.id)}
                  disabled={d.status === 'pending'}
                  title={d.status === 'pending' ? 'Waiting for its next attempt' : undefined}
                >
                  Resend <span class="sr-only">{d.id}</span>
                </button>
              </td>
            )}
          </tr>
        ))}
      </DataTable>
    </article>
  );
}
