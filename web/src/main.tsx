import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, call, onUnauthenticated, type Session, setCsrfToken } from './api';
import { resumeWatching } from './background';
import { ConfirmHost, ToastHost } from './feedback';
import { FirstRunChecklist } from './onboarding';
import { AccountPage } from './pages/account';
import { AuthTokenPage, SignInPage } from './pages/auth';
import { BatchesPage } from './pages/batches';
import { BrandPage } from './pages/brand';
import { CertificatesPage } from './pages/certificates';
import { DocumentDetailPage } from './pages/document-detail';
import { DocumentsPage } from './pages/documents';
import { EInvoiceCheckPage } from './pages/einvoice-check';
import { GalleryPage } from './pages/gallery';
import { GeneratePage } from './pages/generate';
import { KeysPage } from './pages/keys';
import { MembersPage } from './pages/members';
import { PdfToolsPage } from './pages/pdf-tools';
import { TemplateEditorPage } from './pages/template-editor';
import { TemplatesPage } from './pages/templates';
import { UsagePage } from './pages/usage';
import { WebhooksPage } from './pages/webhooks';
// The design system, in cascade order (see the list in styles.css).
import './styles.css';
import './controls.css';
import './shell.css';
import './messages.css';
import './lists.css';
import './editor.css';
import './chart-bars.css';
import './narrow.css';
import './einvoice-check.css';
import './pdf-tools.css';
import { Icon } from './icons';
import { currentItem, NAV, NAV_SECTIONS } from './nav';
import { Busy, confirmLeave, ErrorText, go, type Route, useRoute, watchTableLabels } from './ui';
import { useAction } from './use-action';

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
  // The chosen mode shows at once (it is the running action's label); the server's answer confirms it, or
  // the error puts the old one back.
  const { running, error, run } = useAction();
  const pending = running as Session['mode'] | null;
  const change = (mode: Session['mode']) =>
    run(async () => onSession(await call(api.PUT('/session/mode', { body: { mode } }))), { label: mode });
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

/** The sidebar's collapsed state is remembered per browser (a preference, not a setting of the team). */
const COLLAPSED_KEY = 'quire.sidebar.collapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

function Sidebar({
  session,
  route,
  open,
  onSignOut,
}: {
  session: Session;
  route: Route;
  open: boolean;
  onSignOut: () => void;
}) {
  const current = currentItem(route.path);
  return (
    <aside id="sidebar" class={`sidebar${open ? ' open' : ''}`} aria-label="Sidebar">
      <a class="brand" href="#/templates">
        <span class="brand-mark" aria-hidden="true">
          Q
        </span>
        <span class="label">Quire</span>
      </a>
      <nav aria-label="Main">
        {NAV_SECTIONS.map((section) => (
          <div key={section} class="nav-section">
            <p class="nav-heading label">{section}</p>
            <ul>
              {NAV.filter((item) => item.section === section).map((item) => (
                <li key={item.path}>
                  <a
                    href={`#${item.path}`}
                    aria-current={item === current ? 'page' : undefined}
                    title={item.label}
                  >
                    {item.icon && <Icon name={item.icon} />}
                    <span class="label">{item.label}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div class="who">
        <a class="label who-name" href="#/account" title={`${session.user.email}: your account`}>
          {session.user.email}
        </a>
        <span class="label who-team">
          {session.team.name} · {session.role}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </aside>
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
  const [collapsed, setCollapsed] = useState(readCollapsed);
  // The phone menu (below 800 px the sidebar is an overlay opened from the top bar).
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleCollapsed = () => {
    const next = !collapsed;
    setCollapsed(next);
    try {
      localStorage.setItem(COLLAPSED_KEY, next ? '1' : '0');
    } catch {
      // Storage refused: the choice lasts until the page reloads.
    }
  };
  useEffect(() => watchTableLabels(document.getElementById('main')!), []);
  useEffect(resumeWatching, []);
  // Following a link in the phone menu closes it.
  useEffect(() => setMenuOpen(false), [route.path, route.query.toString()]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);
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
    <div class={`shell${collapsed ? ' collapsed' : ''}`}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Sidebar session={session} route={route} open={menuOpen} onSignOut={signOut} />
      {menuOpen && <div class="scrim" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <div class="content">
        <header class="top">
          <button
            type="button"
            class="icon-button menu-button"
            aria-controls="sidebar"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <Icon name="menu" />
            <span class="sr-only">Menu</span>
          </button>
          <button
            type="button"
            class="icon-button collapse-button"
            aria-controls="sidebar"
            aria-expanded={!collapsed}
            onClick={toggleCollapsed}
          >
            <Icon name={collapsed ? 'expand' : 'collapse'} />
            <span class="sr-only">{collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}</span>
          </button>
          {/* The team the page acts for (the page's own name is its heading). */}
          <span class="top-title">{session.team.name}</span>
          <ModeSwitch session={session} onSession={onSession} />
          <a class="docs-link" href="/docs" target="_blank" rel="noreferrer">
            <Icon name="docs" />
            <span class="label">API reference</span>
          </a>
        </header>
        {session.mode === 'test' && (
          <p class="banner">
            Test mode: renders are watermarked and uncounted; templates and brand assets are read-only. Switch
            to Live to edit them.
          </p>
        )}
        <main id="main" tabIndex={-1}>
          {isHome(route) && <FirstRunChecklist session={session} />}
          {!session.user.has_password && route.path !== '/account' && (
            <p class="email-note" role="note">
              You have no password yet: <a href="#/account">choose one</a> to sign in again after this session
              ends.
            </p>
          )}
          <Routes session={session} route={route} onSession={onSession} />
        </main>
      </div>
      <ToastHost />
      <ConfirmHost />
    </div>
  );
}

/** The page a session lands on (the templates list): the first-run checklist shows there. */
function isHome(route: Route): boolean {
  return route.path === '' || route.path === '/' || route.path === '/templates';
}

function Routes({
  session,
  route,
  onSession,
}: {
  session: Session;
  route: Route;
  onSession: (s: Session) => void;
}) {
  const parts = route.path.split('/').filter(Boolean);
  const [section, id] = parts;
  switch (section) {
    case 'templates':
      return id ? (
        <TemplateEditorPage key={id} id={id} session={session} />
      ) : (
        <TemplatesPage session={session} route={route} />
      );
    case 'gallery':
      return <GalleryPage session={session} />;
    case 'generate':
      return <GeneratePage templateId={route.query.get('template')} />;
    // The documents and batches logs are the session mode's: switching mode shows the other mode's log.
    case 'documents':
      return id ? (
        <DocumentDetailPage key={id} id={id} />
      ) : (
        <DocumentsPage key={session.mode} route={route} />
      );
    case 'batches':
      return <BatchesPage key={session.mode} route={route} />;
    case 'einvoice-check':
      return <EInvoiceCheckPage />;
    // Its documents to pick from are the session mode's.
    case 'pdf-tools':
      return <PdfToolsPage key={session.mode} />;
    case 'webhooks':
      return <WebhooksPage session={session} />;
    case 'brand':
      return <BrandPage session={session} />;
    case 'certificates':
      return <CertificatesPage session={session} />;
    case 'keys':
      return <KeysPage session={session} />;
    case 'usage':
      return <UsagePage session={session} />;
    case 'members':
      return <MembersPage session={session} />;
    case 'account':
      return <AccountPage session={session} onSession={onSession} />;
    default:
      return <TemplatesPage session={session} route={route} />;
  }
}

render(<App />, document.getElementById('root')!);
