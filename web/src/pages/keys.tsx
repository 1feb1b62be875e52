import { useState } from 'preact/hooks';
import { api, call, canManage, type Schemas, type Session } from '../api';
import { CopyButton, confirmAction, toast } from '../feedback';
import { Busy, ErrorText, formatDate, Page, useLoad } from '../ui';

type Mode = Session['mode'];

export function KeysPage({ session }: { session: Session }) {
  const keys = useLoad(() => call(api.GET('/keys')), []);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Schemas['CreatedApiKey'] | null>(null);
  const manage = canManage(session);

  const create = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      setCreated(
        await call(
          api.POST('/keys', {
            body: { name: String(form.get('name')), mode: String(form.get('mode')) as Mode },
          }),
        ),
      );
      (event.target as HTMLFormElement).reset();
      keys.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (key: { id: string; name: string; mode: Mode }) => {
    const ok = await confirmAction({
      title: `Revoke ${key.mode} key ${key.name}?`,
      body:
        'Every request made with this key is refused from now on (401). Revoking cannot be undone; ' +
        'clients need a new key.',
      action: 'Revoke key',
      // A live key is in production use: the name must be typed.
      ...(key.mode === 'live' ? { typeToConfirm: key.name } : {}),
    });
    if (!ok) return;
    setError(null);
    try {
      await call(api.DELETE('/keys/{id}', { params: { path: { id: key.id } } }));
      toast(`Key ${key.name} revoked.`);
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Page title="API keys">
      {manage ? (
        <form class="inline" onSubmit={create}>
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxLength={100} />
          <label for="key-mode">Mode</label>
          <select id="key-mode" name="mode">
            <option value="test" selected={session.mode === 'test'}>
              Test
            </option>
            <option value="live" selected={session.mode === 'live'}>
              Live
            </option>
          </select>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </form>
      ) : (
        <p class="hint">Only admins and owners can create or revoke keys.</p>
      )}
      <ErrorText error={error} id="keys-error" />
      {created && (
        <div role="status">
          <p>
            Key <strong>{created.key.name}</strong> created. Copy it now: it is shown only once.
          </p>
          <p class="secret" data-testid="new-key-secret">
            {created.secret}
          </p>
          <CopyButton text={created.secret} label="the new key" />
        </div>
      )}
      {keys.loading && <Busy label="Loading keys…" />}
      <ErrorText error={keys.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Mode</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              {manage && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {keys.data?.data.map((k) => (
              <tr key={k.id} data-key={k.prefix}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{k.mode}</td>
                <td>{formatDate(k.created_at)}</td>
                <td>{k.revoked_at ? `revoked ${formatDate(k.revoked_at)}` : 'active'}</td>
                {manage && (
                  <td>
                    {!k.revoked_at && (
                      <button type="button" class="danger" onClick={() => revoke(k)}>
                        Revoke {k.name}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}
