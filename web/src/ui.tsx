import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api';

/** The current hash route: `#/templates/abc?x=1` → path `/templates/abc`, query {x: '1'}. */
export interface Route {
  path: string;
  query: URLSearchParams;
}

function readRoute(): Route {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = hash.split('?');
  return { path, query: new URLSearchParams(search) };
}

/**
 * The page's reason not to be left (unsaved work), set by useLeaveGuard; asked before in-app navigation
 * and, through beforeunload, before the tab closes or reloads.
 */
let leaveMessage: string | null = null;

/** True when nothing is unsaved or the user confirms leaving anyway. */
export function confirmLeave(): boolean {
  if (!leaveMessage || window.confirm(leaveMessage)) {
    leaveMessage = null;
    return true;
  }
  return false;
}

/** Lets the page go without asking (its unsaved work no longer matters, e.g. it was deleted). */
export function releaseLeaveGuard(): void {
  leaveMessage = null;
}

/** Keeps the user on the page while `message` is set (unsaved changes), with `message` as the question. */
export function useLeaveGuard(message: string | null): void {
  useEffect(() => {
    if (!message) return;
    leaveMessage = message;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium needs returnValue set; browsers show their own text.
      event.returnValue = message;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      if (leaveMessage === message) leaveMessage = null;
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [message]);
}

/** A click on an in-app link (#/…) asks first when the page has unsaved work. */
function guardLinkClick(event: MouseEvent): void {
  const link = (event.target as Element | null)?.closest?.('a[href^="#/"]');
  if (!link || event.defaultPrevented || link.getAttribute('href') === location.hash) return;
  if (!confirmLeave()) event.preventDefault();
}

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    let shown = location.href;
    const update = () => {
      // Back/forward or a typed address: the hash has already changed, so put it back when the user stays.
      if (!confirmLeave()) {
        history.replaceState(history.state, '', shown);
        return;
      }
      shown = location.href;
      setRoute(readRoute());
    };
    window.addEventListener('hashchange', update);
    document.addEventListener('click', guardLinkClick, true);
    return () => {
      window.removeEventListener('hashchange', update);
      document.removeEventListener('click', guardLinkClick, true);
    };
  }, []);
  return route;
}

export function go(path: string): void {
  if (confirmLeave()) location.hash = `#${path}`;
}

/** The API's message for an error (what to fix), or the thrown text. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** An error shown beside the control it concerns; role=alert so screen readers announce it. */
export function ErrorText({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : null;
  return (
    <p class="error" role="alert" id={id}>
      {messageOf(error)}
      {code && <span class="code"> ({code})</span>}
    </p>
  );
}

/**
 * Why an action that changes templates or brand assets is off in test mode (null in live mode): shown
 * beside the disabled control, which points at it with aria-describedby.
 */
export function liveOnlyReason(mode: 'live' | 'test', what: string): string | null {
  return mode === 'test' ? `Switch to Live to ${what}.` : null;
}

/** The reason beside a disabled control (see liveOnlyReason); nothing when there is none. */
export function Reason({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <span class="hint reason" id={id}>
      {text}
    </span>
  );
}

/** Progress for a long action: an indeterminate bar with its label. */
export function Busy({ label }: { label: string }) {
  return (
    <div class="busy" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  useEffect(() => {
    document.title = `${title} · Quire`;
  }, [title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title">{title}</h1>
        {actions && <div class="actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** Loads data on mount and when `deps` change; `reload` fetches again without a page reload. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
