import { useEffect, useState } from 'preact/hooks';
import { api, call, type Session } from '../api';
import { EmailSetupNote } from '../email-setup';
import { Busy, ErrorText, go, type Route } from '../ui';
import { useAction } from '../use-action';

type OnSession = (s: Session | null) => void;

export function SignInPage({ onSession }: { onSession: OnSession }) {
  const { busy, error, run } = useAction();
  const [resetSent, setResetSent] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await run(async () => {
      onSession(
        await call(
          api.POST('/session', {
            body: { email: String(form.get('email')), password: String(form.get('password')) },
          }),
        ),
      );
      if (!location.hash || location.hash === '#/') go('/templates');
    });
  };
  const forgot = () => {
    const email = (document.getElementById('signin-email') as HTMLInputElement).value;
    return run(async () => {
      await call(api.POST('/auth/password-reset', { body: { email } }));
      setResetSent(true);
    });
  };
  return (
    <main id="main" class="auth">
      <h1>Sign in to Quire</h1>
      <form onSubmit={submit} aria-describedby="signin-error">
        <label for="signin-email">Email</label>
        <input id="signin-email" name="email" type="email" autocomplete="username" required />
        <label for="signin-password">Password</label>
        <input
          id="signin-password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <ErrorText error={error} id="signin-error" />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button type="button" class="link" onClick={forgot}>
          Email me a password reset link
        </button>
        {resetSent && (
          <>
            <p role="status">If that address has an account, a reset link is on its way.</p>
            <EmailSetupNote what="Reset links" />
          </>
        )}
      </form>
    </main>
  );
}

/**
 * A reload (or a second click on the emailed link) finds the link spent; the session it started still
 * continues the step while its user has no password, so the password form stays until it is saved.
 */
async function continueLinkStep(
  linkError: unknown,
  onSession: OnSession,
  onContinue: () => void,
  onError: (err: unknown) => void,
): Promise<void> {
  try {
    const session = await call(api.GET('/session'));
    if (!session.user.has_password) {
      onSession(session);
      onContinue();
      return;
    }
  } catch {
    // No session either: the link's own error says what to do.
  }
  onError(linkError);
}

const TITLES: Record<string, string> = {
  link: 'Welcome to Quire: choose a password',
  invite: 'Accept your invitation',
  reset: 'Choose a new password',
  verify: 'Verify your email',
};

/** #/auth/link|invite|reset|verify?token=… (tokens travel in the fragment so they never reach access logs). */
export function AuthTokenPage({ route, onSession }: { route: Route; onSession: OnSession }) {
  const kind = route.path.split('/')[2] ?? '';
  const token = route.query.get('token') ?? '';
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  const [linked, setLinked] = useState(false);

  useEffect(() => {
    if (kind === 'verify') {
      call(api.POST('/auth/verify-email', { body: { token } })).then(
        () => setDone('Your email address is verified.'),
        setError,
      );
    }
    if (kind === 'link') {
      // The link signs in at once (single use); the password form follows.
      call(api.POST('/auth/link', { body: { token } })).then(
        (s) => {
          onSession(s);
          setLinked(true);
        },
        (err) => continueLinkStep(err, onSession, () => setLinked(true), setError),
      );
    }
  }, [kind, token, onSession]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget as HTMLFormElement).get('password'));
    await run(async () => {
      const session =
        kind === 'invite'
          ? await call(api.POST('/auth/invitation', { body: { token, password } }))
          : kind === 'reset'
            ? await call(api.POST('/auth/password-reset/confirm', { body: { token, password } }))
            : await call(api.PUT('/auth/password', { body: { password } }));
      onSession(session);
      go('/templates');
    });
  };

  const asksPassword = kind === 'invite' || kind === 'reset' || (kind === 'link' && linked);
  return (
    <main id="main" class="auth">
      <h1>{TITLES[kind] ?? 'Sign in'}</h1>
      {kind === 'link' && !linked && !error && <Busy label="Signing you in…" />}
      {kind === 'verify' && !done && !error && <Busy label="Verifying…" />}
      {done && <p role="status">{done}</p>}
      {asksPassword && (
        <form onSubmit={submit}>
          <label for="new-password">New password (10 to 200 characters)</label>
          <input
            id="new-password"
            name="password"
            type="password"
            autocomplete="new-password"
            minLength={10}
            maxLength={200}
            required
            aria-describedby="auth-error"
          />
          <ErrorText error={error} id="auth-error" />
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : kind === 'invite' ? 'Create my account' : 'Save password'}
          </button>
        </form>
      )}
      {!asksPassword && <ErrorText error={error} id="auth-error" />}
      <p>
        <a href="#/templates">Go to the dashboard</a>
      </p>
    </main>
  );
}
