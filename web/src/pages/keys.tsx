import { useEffect, useState } from 'preact/hooks';
import { api, call, canManage, type Schemas, type Session } from '../api';
import { CopyButton, toast } from '../feedback';
import { Badge, DataTable, EmptyState, ErrorText, formatDate, Page, Skeleton, useLoad } from '../ui';
import { useAction } from '../use-action';

type Mode = Session['mode'];
type ApiKey = Schemas['ApiKey'];
type KeyRole = ApiKey['role'];

const LIVE_IN_TEST_MODE =
  'Live keys are created in live mode only: switch the dashboard to live at the top (a test-mode session acts like a test key).';

/** "ada@example.com", "key CI (qk_live_AbCd…)" or "operator" for a key's `created_by`. */
function creatorText(
  createdBy: ApiKey['created_by'],
  keys: readonly ApiKey[],
  members: readonly Schemas['Member'][],
): string {
  if (!createdBy) return 'operator';
  if (createdBy.kind === 'user')
    return members.find((m) => m.user_id === createdBy.id)?.email ?? 'a former member';
  const key = keys.find((k) => k.id === createdBy.id);
  return key ? `key ${key.name} (${key.prefix}…)` : 'a deleted key';
}

export function KeysPage({ session }: { session: Session }) {
  const keys = useLoad(() => call(api.GET('/keys')), []);
  const members = useLoad(() => call(api.GET('/members')), []);
  const { busy, error, run } = useAction();
  const [created, setCreated] = useState<Schemas['CreatedApiKey'] | null>(null);
  const manage = canManage(session);
  const liveRefused = session.mode === 'test';
  // The form's mode is state, not the select's own: creating a key (form reset) keeps the chosen mode,
  // and switching the session to test mode moves it to the only mode then allowed.
  const [mode, setMode] = useState<Mode>(session.mode);
  useEffect(() => setMode(session.mode), [session.mode]);

  const create = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setCreated(null);
    await run(async () => {
      setCreated(
        await call(
          api.POST('/keys', {
            body: {
              name: String(form.get('name')),
              mode,
              role: String(form.get('role')) as KeyRole,
            },
          }),
        ),
      );
      // Only the name is cleared: mode and role stay as chosen for the next key.
      ((event.target as HTMLFormElement).elements.namedItem('name') as HTMLInputElement).value = '';
      keys.reload();
    });
  };

  const revoke = async (key: { id: string; name: string; mode: Mode }) => {
    await run(
      async () => {
        await call(api.DELETE('/keys/{id}', { params: { path: { id: key.id } } }));
        toast(`Key ${key.name} revoked.`);
        keys.reload();
      },
      {
        ask: {
          title: `Revoke ${key.mode} key ${key.name}?`,
          body:
            'Every request made with this key is refused from now on (401). Revoking cannot be undone; ' +
            'clients need a new key.',
          action: 'Revoke key',
          // A live key is in production use: the name must be typed.
          ...(key.mode === 'live' ? { typeToConfirm: key.name } : {}),
        },
      },
    );
  };

  return (
    <Page title="API keys">
      {manage ? (
        <form class="inline" onSubmit={create}>
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxLength={100} />
          <label for="key-mode">Mode</label>
          <select
            id="key-mode"
            name="mode"
            value={mode}
            onChange={(e) => setMode(e.currentTarget.value as Mode)}
            aria-describedby={liveRefused ? 'key-mode-hint' : undefined}
          >
            <option value="test">Test</option>
            <option value="live" disabled={liveRefused}>
              Live
            </option>
          </select>
          <label for="key-role">Role</label>
          <select id="key-role" name="role" aria-describedby="key-role-hint">
            <option value="member" selected>
              member
            </option>
            <option value="admin">admin</option>
          </select>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </form>
      ) : (
        <p class="hint">Only admins and owners can create or revoke keys.</p>
      )}
      {manage && liveRefused && (
        <p class="hint" id="key-mode-hint">
          {LIVE_IN_TEST_MODE}
        </p>
      )}
      {manage && (
        <p class="hint" id="key-role-hint">
          A member key renders and reads. An admin key in live mode also manages keys, members and
          invitations; a test key never does.
        </p>
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
      {keys.loading && !keys.data && <Skeleton label="Loading keys…" />}
      <ErrorText error={keys.error} />
      {keys.data && keys.data.data.length === 0 && (
        <EmptyState title="No API keys yet">
          A key lets your own code call the API: a test key makes watermarked, uncounted PDFs to try things
          with; a live key makes the real ones. {manage ? 'Name one above to create it.' : ''}
        </EmptyState>
      )}
      {keys.data && keys.data.data.length > 0 && (
        <DataTable
          columns={['Name', 'Prefix', 'Mode', 'Role', 'Created by', 'Created', 'Status', manage && 'Action']}
        >
          {keys.data?.data.map((k) => (
            <tr key={k.id} data-key={k.prefix}>
              <td>{k.name}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>
                <Badge status={k.mode} />
              </td>
              <td>{k.role}</td>
              <td>{creatorText(k.created_by, keys.data?.data ?? [], members.data?.data ?? [])}</td>
              <td>{formatDate(k.created_at)}</td>
              <td>
                {k.revoked_at ? (
                  <Badge status="revoked">revoked {formatDate(k.revoked_at)}</Badge>
                ) : (
                  <Badge status="active" />
                )}
              </td>
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
        </DataTable>
      )}
    </Page>
  );
}
