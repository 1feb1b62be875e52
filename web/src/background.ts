import { api, call } from './api';
import { toast } from './feedback';

/**
 * Background work the user started (a batch, an async render) is watched here, outside any page, so its
 * result is announced in a toast wherever the user has gone meanwhile. The watch list is kept in
 * sessionStorage: a reload in this tab keeps watching, another tab does not announce it twice.
 */
const POLL_MS = 2_000;
const STORE_KEY = 'quire.watching';

interface Watch {
  kind: 'batch' | 'document';
  id: string;
  /** What the toast calls it, e.g. "Batch of 20 (Invoice)". */
  label: string;
}

let watching: Watch[] = readStored();
let timer: ReturnType<typeof setTimeout> | null = null;

function readStored(): Watch[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Watch[]) : [];
  } catch {
    return [];
  }
}

function store(): void {
  try {
    sessionStorage.setItem(STORE_KEY, JSON.stringify(watching));
  } catch {
    // Storage refused: watching still works until the tab reloads.
  }
}

/** Announces the batch's result when it has one; true once it is final. */
async function checkBatch(watch: Watch): Promise<boolean> {
  const batch = await call(api.GET('/batches/{id}', { params: { path: { id: watch.id } } }));
  if (batch.status === 'canceled') {
    toast(`${watch.label} was canceled.`, { href: `#/batches?open=${batch.id}`, label: 'View batch' });
    return true;
  }
  // A completed batch is announced once its ZIP exists, so the toast's link can download it.
  if (batch.status !== 'completed' || !batch.zip) return false;
  const { succeeded, failed } = batch.counts;
  const text = `${watch.label} finished: ${succeeded} succeeded${failed ? `, ${failed} failed` : ''}.`;
  // A ZIP with nothing in it is not offered: the failed items say why instead.
  toast(
    text,
    succeeded === 0
      ? { href: `#/batches?open=${batch.id}`, label: 'See why they failed' }
      : { href: batch.zip.url, label: 'Get the ZIP' },
  );
  return true;
}

async function checkDocument(watch: Watch): Promise<boolean> {
  const doc = await call(api.GET('/pdf/{id}', { params: { path: { id: watch.id } } }));
  if (doc.status === 'queued' || doc.status === 'processing') return false;
  toast(`${watch.label} ${doc.status}.`, { href: `#/documents/${doc.id}`, label: 'View document' });
  return true;
}

async function poll(): Promise<void> {
  timer = null;
  const done = new Set<string>();
  for (const watch of watching) {
    try {
      const final = watch.kind === 'batch' ? await checkBatch(watch) : await checkDocument(watch);
      if (final) done.add(watch.id);
    } catch {
      // Signed out or gone (404): nothing left to announce.
      done.add(watch.id);
    }
  }
  watching = watching.filter((w) => !done.has(w.id));
  store();
  schedule();
}

function schedule(): void {
  if (timer === null && watching.length > 0) timer = setTimeout(poll, POLL_MS);
}

/** Watches a batch or an async document until it is final, then announces it in a toast. */
export function watchInBackground(watch: Watch): void {
  if (!watching.some((w) => w.id === watch.id)) watching = [...watching, watch];
  store();
  schedule();
}

/** Resumes watching after a reload (called once the session is known). */
export function resumeWatching(): void {
  schedule();
}
