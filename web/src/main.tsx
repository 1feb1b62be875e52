import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, call, onUnauthenticated, type Session, setCsrfToken } from './api';
import { ConfirmHost, ToastHost } from './feedback';
import { AuthTokenPage, SignInPage } from './pages/auth';
import { BatchesPage } from './pages/batches';
import { BrandPage } from './pages/brand';
import { DocumentDetailPage } from './pages/document-detail';
import { DocumentsPage } from './pages/documents';
import { EInvoiceCheckPage } from './pages/einvoice-check';
import { GeneratePage } from './pages/generate';
import { KeysPage } from './pages/keys';
import { MembersPage } from './pages/members';
import { TemplateEditorPage } from './pages/template-editor';
import { TemplatesPage } from './pages/templates';
import { UsagePage } from './pages/usage';
import { WebhooksPage } from './pages/webhooks';
import './styles.css';
import { Busy, confirmLeave, ErrorText, go, type Route, useRoute } from './ui';

const NAV: { path: string; label: string }[] = [
  { path: '/templates', label: 'Templates' },
  { path: '/generate', label: 'Generate' },
  { path: '/documents', label: 'Documents' },
  { path: '/batches', label: 'Batches' },
  { path: '/einvoice-check', label: 'E-invoice check' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/brand', label: 'Brand' },
  { path: '/keys', label: 'API keys' },
  { path: '/usage', label: 'Usage' },
  { path: '/members', label: 'Members' },
];

function App() {
  const route = useRoute();
  const [session, setSessionState] = useState<Session | null | undefined>(undefined);
  // Set once anything but the first read decides the session (a token page may sign in before it answers).
  const decided = useRef(false);
  const setSession = useCallback((s: Session | null) => {
    decided.current = true;
    setCsrfToken(s?.csrf_token ?? null);
    setSessionState(s);
  }, []);

  useEffect(() => {
    onUnauthenticated(() => setSession(null));
    const first = (s: Session | null) => {
      if (decided.current) return;
      setCsrfToken(s?.csrf_token ?? null);
      setSessionState(s);
    };
    call(api.GET('/session')).then(first, () => first(null));
  }, [setSession]);

  if (route.path.startsWith('/auth/')) {
    return <AuthTokenPage route={route} onSession={setSession} />;
  }
  if (session === undefined) return <Busy label="Loading…" />;
  if (session === null) return <SignInPage onSession={setSession} />;
  return <Shell session={session} route={route} onSession={setSession} />;
}

function ModeSwitch({ session, onSession }: { session: Session; onSession: (s: Session) => void }) {
  const [error, setError] = useState<unknown>(null);
  // The chosen mode shows at once; the server's answer confirms it (or the error puts the old one back).
  const [pending, setPending] = useState<Session['mode'] | null>(null);
  const change = async (mode: Session['mode']) => {
    setPending(mode);
    setError(null);
    try {
      onSession(await call(api.PUT('/session/mode', { body: { mode } })));
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  };
  const shown = pending ?? session.mode;
  return (
    <fieldset class={`mode mode-${session.mode}`} disabled={pending !== null} aria-busy={pending !== null}>
      <legend>Mode</legend>
      {(['test', 'live'] as const).map((mode) => (
        <label key={mode}>
          <input
            type="radio"
            name="mode"
            value={mode}
            checked={shown === mode}
            onChange={() => change(mode)}
          />
          {mode === 'test' ? 'Test' : 'Live'}
        </label>
      ))}
      <ErrorText error={error} />
    </fieldset>
  );
}

function Shell({
  session,
  route,
  onSession,
}: {
  session: Session;
  route: Route;
  onSession: (s: Session | null) => void;
}) {
  const signOut = async () => {
    if (!confirmLeave()) return;
    try {
      await call(api.DELETE('/session'));
    } finally {
      onSession(null);
      go('/templates');
    }
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Quire</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.path}>
                <a
                  href={`#${item.path}`}
                  aria-current={route.path.startsWith(item.path) ? 'page' : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <ModeSwitch session={session} onSession={onSession} />
        <div class="who">
          <span>
            {session.user.email} · {session.team.name} ({session.role})
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      {session.mode === 'test' && (
        <p class="banner">
          Test mode: renders are watermarked and uncounted; templates and brand assets are read-only. Switch
          to Live to edit them.
        </p>
      )}
      <main id="main" tabIndex={-1}>
        <Routes session={session} route={route} />
      </main>
      <ToastHost />
      <ConfirmHost />
    </div>
  );
}

function Routes({ session, route }: { session: Session; route: Route }) {
  const parts = route.path.split('/').filter(Boolean);
  const [section, id] = parts;
  switch (section) {
    case 'templates':
      return id ? (
        <TemplateEditorPage key={id} id={id} session={session} />
      ) : (
        <TemplatesPage session={session} />
      );
    case 'generate':
      return <GeneratePage templateId={route.query.get('template')} />;
    case 'documents':
      return id ? <DocumentDetailPage key={id} id={id} /> : <DocumentsPage route={route} />;
    case 'batches':
      return <BatchesPage />;
    case 'einvoice-check':
      return <EInvoiceCheckPage />;
    case 'webhooks':
      return <WebhooksPage session={session} />;
    case 'brand':
      return <BrandPage session={session} />;
    case 'keys':
      return <KeysPage session={session} />;
    case 'usage':
      return <UsagePage session={session} />;
    case 'members':
      return <MembersPage session={session} />;
    default:
      return <TemplatesPage session={session} />;
  }
}

render(<App />, document.getElementById('root')!);
