import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
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
  // A layout effect, not an effect: it runs in the same commit as the render that made the work unsaved or
  // saved, so no reload or link between the two (a passive effect waits for the next frame) asks wrongly or
  // not at all.
  useLayoutEffect(() => {
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

function touchesTable(mutation: MutationRecord): boolean {
  const target = mutation.target as Element;
  if (target.closest?.('table')) return true;
  return [...mutation.addedNodes].some(
    (node) => node instanceof Element && (node.matches('table') || node.querySelector('table') !== null),
  );
}

/**
 * Gives every body cell of the tables under `root` a `data-label` with its column's header text, so that
 * on phones (where narrow.css stacks each row into a card) every value keeps its name. One observer for
 * the whole app: pages write plain tables and need not repeat the labels.
 */
export function watchTableLabels(root: HTMLElement): () => void {
  const label = () => {
    for (const table of root.querySelectorAll('table')) {
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      for (const row of table.querySelectorAll('tbody tr')) {
        [...row.children].forEach((cell, i) => {
          const text = headers[i] ?? '';
          if (cell.getAttribute('data-label') !== text) cell.setAttribute('data-label', text);
        });
      }
    }
  };
  label();
  // Only mutations that touch a table relabel (the editor panes mutate the DOM on every key). Attribute
  // changes are not observed, so setting the labels cannot loop.
  const observer = new MutationObserver((mutations) => {
    if (mutations.some(touchesTable)) label();
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** Statuses of documents, batches, deliveries and keys, and the colour family each is drawn in. */
const BADGE_TONES: Record<string, 'ok' | 'bad' | 'warn' | 'busy' | 'off' | 'live'> = {
  live: 'live',
  test: 'busy',
  succeeded: 'ok',
  completed: 'ok',
  active: 'ok',
  delivered: 'ok',
  failed: 'bad',
  partial: 'warn',
  revoked: 'bad',
  expired: 'off',
  canceled: 'off',
  queued: 'busy',
  processing: 'busy',
  pending: 'busy',
  retrying: 'busy',
};

/** A status as a coloured pill; the word is always written (colour is never the only signal). */
export function Badge({ status, children }: { status: string; children?: ComponentChildren }) {
  const tone = BADGE_TONES[status] ?? 'off';
  return (
    <span class={`badge badge-${tone}`} data-status={status}>
      {children ?? status}
    </span>
  );
}

/** Grey placeholder rows in the shape of the content being loaded (announced once as loading). */
export function Skeleton({
  label,
  rows = 3,
  kind = 'rows',
}: {
  label: string;
  rows?: number;
  kind?: 'rows' | 'cards';
}) {
  return (
    <div class={`skeleton skeleton-${kind}`} role="status" aria-live="polite">
      <span class="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} class="skeleton-item" aria-hidden="true" />
      ))}
    </div>
  );
}

/** What an empty list means and the first thing to do about it. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children: ComponentChildren;
  action?: ComponentChildren;
}) {
  return (
    <div class="empty">
      <h2>{title}</h2>
      <p>{children}</p>
      {action && <div class="actions">{action}</div>}
    </div>
  );
}

/**
 * Keyset paging through the API's cursors: the cursor of every page visited (undefined: the first), so
 * "Previous" goes back without the API paging backwards. `cursor` is the one to load now.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors.at(-1),
    page: cursors.length,
    back: () => setCursors(cursors.slice(0, -1)),
    forward: (next: string) => setCursors([...cursors, next]),
    /** Back to the first page (a new filter starts again from it). */
    restart: () => setCursors([undefined]),
  };
}

/** The Pager of a cursor-paged list; `next` is the cursor the API gave for the page after this one. */
export function CursorPager({
  label,
  pages,
  next,
}: {
  label: string;
  pages: ReturnType<typeof useCursorPages>;
  next: string | null | undefined;
}) {
  return (
    <Pager
      label={label}
      page={pages.page}
      hasPrevious={pages.page > 1}
      hasNext={Boolean(next)}
      onPrevious={pages.back}
      onNext={() => next && pages.forward(next)}
    />
  );
}

/**
 * A list as a table: its column heads (a `false` one is left out: a column only some roles see) and its
 * rows as children. watchTableLabels gives each cell its column's head for the stacked phone layout.
 */
export function DataTable({
  columns,
  caption,
  testId,
  children,
}: {
  columns: readonly (string | false)[];
  caption?: string;
  testId?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns
              .filter((column) => column !== false)
              .map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Previous/Next paging under a list; `label` names the list for screen readers. */
export function Pager({
  label,
  page,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={!hasPrevious} onClick={onPrevious}>
        Previous
      </button>
      <span>Page {page}</span>
      <button type="button" disabled={!hasNext} onClick={onNext}>
        Next
      </button>
    </nav>
  );
}

/** Counts grouped in the reader's locale ("200,000"). */
export function formatCount(n: number): string {
  return n.toLocaleString();
}
