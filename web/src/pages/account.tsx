import { useState } from 'preact/hooks';
import { api, call, callRoute, type Session } from '../api';
import { EmailSetupNote } from '../email-setup';
import { toast } from '../feedback';
import { Badge, DataTable, ErrorText, formatDate, Page, Skeleton, useLoad } from '../ui';
import { useAction } from '../use-action';

/** One row of GET /session/list (an extension). */
interface SessionRow {
  id: string;
  team: { id: string; name: string };
  mode: 'live' | 'test';
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  current: boolean;
}

/** #/account: the signed-in person's password and sessions, and where emails go on this server. */
export function AccountPage({ session, onSession }: { session: Session; onSession: (s: Session) => void }) {
  const [changed, setChanged] = useState(0);
  return (
    <Page title="Account">
      <p>
        Signed in as <strong>{session.user.email}</strong>
        {session.user.email_verified ? ' (verified)' : ' (not verified yet)'}.
      </p>
      <EmailSetupNote what="Password reset links, invitations and sign-in links" />
      <PasswordForm
        session={session}
        onSaved={(s) => {
          onSession(s);
          setChanged((n) => n + 1);
        }}
      />
      <Sessions key={changed} />
    </Page>
  );
}

function PasswordForm({ session, onSaved }: { session: Session; onSaved: (s: Session) => void }) {
  const { busy, error, run } = useAction();
  const hasPassword = session.user.has_password;
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const current = String(data.get('current_password') ?? '');
    const body = {
      password: String(data.get('password')),
      ...(hasPassword ? { current_password: current } : {}),
    };
    const ok = await run(async () => onSaved(await call(api.PUT('/auth/password', { body }))));
    if (ok) {
      form.reset();
      toast('Password saved. Your other sessions were signed out.');
    }
  };
  return (
    <section class="panel" aria-labelledby="password-title">
      <h2 id="password-title">{hasPassword ? 'Change your password' : 'Choose a password'}</h2>
      {!hasPassword && (
        <p class="hint">
          You signed in with a one-time link and have no password yet: choose one to sign in again after this
          session ends.
        </p>
      )}
      <form class="stack" onSubmit={submit} aria-describedby="password-error">
        {hasPassword && (
          <>
            <label for="current-password">Current password</label>
            <input
              id="current-password"
              name="current_password"
              type="password"
              autocomplete="current-password"
              required
            />
          </>
        )}
        <label for="account-new-password">New password (10 to 200 characters)</label>
        <input
          id="account-new-password"
          name="password"
          type="password"
          autocomplete="new-password"
          minLength={10}
          maxLength={200}
          required
        />
        <ErrorText error={error} id="password-error" />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save password'}
        </button>
      </form>
    </section>
  );
}

function Sessions() {
  const [reload, setReload] = useState(0);
  const list = useLoad(() => callRoute<{ data: SessionRow[] }>('GET', '/session/list'), [reload]);
  const { busy, error, run } = useAction();
  const rows = list.data?.data ?? [];
  const others = rows.filter((row) => !row.current).length;
  const signOutOthers = () =>
    run(
      async () => {
        await callRoute('DELETE', '/session/others');
        setReload((n) => n + 1);
      },
      {
        ask: {
          title: 'Sign out your other sessions?',
          body: 'Every other browser signed in as you has to sign in again.',
          action: 'Sign them out',
        },
      },
    );
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Your sessions</h2>
      <p class="hint">
        Every browser signed in as you. A session ends after 12 hours without use, or 7 days after it began.
      </p>
      {list.loading && !list.data && <Skeleton label="Loading sessions…" rows={2} />}
      <ErrorText error={list.error ?? error} />
      {rows.length > 0 && (
        <DataTable columns={['Session', 'Team', 'Mode', 'Signed in', 'Last used', 'Ends']} testId="sessions">
          {rows.map((row) => (
            <tr key={row.id}>
              <td>
                <code>{row.id}</code> {row.current && <Badge status="active">this session</Badge>}
              </td>
              <td>{row.team.name}</td>
              <td>{row.mode}</td>
              <td>
                <time dateTime={row.created_at}>{formatDate(row.created_at)}</time>
              </td>
              <td>
                <time dateTime={row.last_seen_at}>{formatDate(row.last_seen_at)}</time>
              </td>
              <td>
                <time dateTime={row.expires_at}>{formatDate(row.expires_at)}</time>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {others > 0 && (
        <button type="button" onClick={signOutOthers} disabled={busy}>
          Sign out {others === 1 ? 'the other session' : `the ${others} other sessions`}
        </button>
      )}
    </section>
  );
}
