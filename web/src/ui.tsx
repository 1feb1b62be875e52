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

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const update = () => setRoute(readRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function go(path: string): void {
  location.hash = `#${path}`;
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
