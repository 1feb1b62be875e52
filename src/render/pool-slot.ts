import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { blankDocument, clearWindowName, loadDocument } from './in-page.js';
import { PageWatcher } from './page-wait.js';
import { toPrintToPdfParams } from './paper.js';
import { printToPdf } from './print-to-pdf.js';
import type { ResourceFetcher } from './resource-fetcher.js';
import { ResourceGuard } from './resource-guard.js';

/** A page returned to the pool gets this long to navigate to about:blank before it is replaced. */
const RESET_TIMEOUT_MS = 5000;
/** Fresh pages are 2–3× slower for their first documents (perf-anchors.md "Cold start"). */
const WARM_UP_RENDERS = 2;
const WARM_UP_HTML = `<!DOCTYPE html><html><head><style>
body{font-family:"Liberation Sans",sans-serif;font-size:10pt} table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:2px 4px;text-align:left} h1{font-weight:300}</style></head>
<body><h1>Quire warm-up</h1><p>Ünïcödé — 1,234.56 €</p><table><thead><tr><th>A</th><th>B</th></tr></thead>
<tbody>${'<tr><td>row</td><td>1.00</td></tr>'.repeat(30)}</tbody></table></body></html>`;

/** playwright's default viewport, set explicitly so the reset can restore it after print emulation. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

/** The break reason of a renderer crash: the document's doing, unlike a page closed with its browser. */
export const PAGE_CRASHED = 'the page crashed';

/** One pool page: its own BrowserContext (shared contexts get throttled), page, CDP session, guard. */
export interface PoolSlot {
  readonly id: number;
  /** The Chromium this page lives in (after a relaunch, older slots belong to a dead one). */
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly guard: ResourceGuard;
  /** The page's script errors and requests, listened to once for the page's life (page-wait.ts). */
  readonly watcher: PageWatcher;
  /** The page's main frame (for an isolated world of Quire's own scripts). */
  readonly frameId: string;
  /** Quire's isolated world in the current document, made on first use. */
  world: number | null;
  /** Some document script ran in the page's main world since the last full reset. */
  scriptRan: boolean;
  /** A mode strategy changed the media or viewport emulation (InPage) since the last reset. */
  emulated: boolean;
  renders: number;
  /** Why the page can no longer be used (crashed, closed), else null. */
  broken: string | null;
  /** Calls `listener` once when the page breaks; returns the unsubscribe function. */
  onBreak(listener: (reason: string) => void): () => void;
}

function watchBreakage(slot: PoolSlot, listeners: Set<(reason: string) => void>): void {
  const breakWith = (reason: string) => {
    if (slot.broken) return;
    slot.broken = reason;
    for (const listener of listeners) listener(reason);
    listeners.clear();
  };
  slot.page.on('crash', () => breakWith(PAGE_CRASHED));
  slot.page.on('close', () => breakWith('the page closed'));
  slot.context.on('close', () => breakWith('the browser context closed'));
}

export async function createSlot(
  browser: Browser,
  id: number,
  fetcher: ResourceFetcher,
  warm: boolean,
): Promise<PoolSlot> {
  // No `serviceWorkers: 'block'`: playwright implements it as a script in every document's main world,
  // which would mark every render as "ran script" (watchScripts). It is not needed either: the
  // document's opaque origin cannot register a worker, and documents that reach other origins get
  // their context replaced (GuardReport.usedOtherOrigins).
  const context = await browser.newContext({ acceptDownloads: false, viewport: DEFAULT_VIEWPORT });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const guard = await ResourceGuard.install(context, page, cdp, fetcher);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const listeners = new Set<(reason: string) => void>();
    const slot: PoolSlot = {
      id,
      browser,
      context,
      page,
      cdp,
      guard,
      watcher: new PageWatcher(page),
      frameId: frameTree.frame.id,
      world: null,
      scriptRan: false,
      emulated: false,
      renders: 0,
      broken: null,
      onBreak(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    watchBreakage(slot, listeners);
    await watchScripts(slot);
    if (warm) await warmUp(slot);
    return slot;
  } catch (err) {
    await context.close().catch(() => undefined);
    throw err;
  }
}

/**
 * V8 reports every script it compiles; one in a main world (inline script, event handler, eval,
 * srcdoc frame) means the document may have left state in the Window. Quire's own in-page code
 * runs in an isolated world and does not count. `debugger;` statements are ignored.
 */
async function watchScripts(slot: PoolSlot): Promise<void> {
  slot.cdp.on('Debugger.scriptParsed', (event) => {
    if ((event.executionContextAuxData as { isDefault?: boolean } | undefined)?.isDefault)
      slot.scriptRan = true;
  });
  // No cache of collected scripts: the debugger would otherwise keep every document's scripts alive.
  await slot.cdp.send('Debugger.enable', { maxScriptsCacheSize: 0 });
  await slot.cdp.send('Debugger.setSkipAllPauses', { skip: true });
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

async function warmUp(slot: PoolSlot): Promise<void> {
  const params = toPrintToPdfParams({ format: 'A4', preferCSSPageSize: false, printBackground: true });
  for (let i = 0; i < WARM_UP_RENDERS; i++) {
    slot.guard.begin();
    try {
      await loadDocument(slot, WARM_UP_HTML);
      await printToPdf(slot.cdp, params);
    } finally {
      slot.guard.end();
    }
  }
  await resetSlot(slot);
}

/**
 * Makes a used page safe for the next document, off the render's latency path (docs/tenant-isolation.md
 * "Page pool and isolation"; nothing of one tenant's document may reach the next).
 * The document is first replaced by an empty one, which removes its nodes, listeners and animations,
 * so no handler of it can run any more, and `window.name` (kept by the tab, not the document) is
 * cleared. If any document script ran, the page also navigates to about:blank for a fresh Window
 * (setContent keeps `window`, its globals and timers). That navigation costs ~30–40 ms of CPU and makes
 * the next load slower, so documents without script — nearly all invoices and reports — skip it:
 * without script there is no state in the Window to leak. What survives a same-page navigation is
 * undone here too: the name again (a surviving timer may have set it), the session history
 * (`history.length` would count earlier documents) and the print emulation. Cookies and the HTTP cache
 * of the context are cleared after every render that made a request (nothing else can change them).
 * Storage needs nothing: the document's about:blank origin is opaque (localStorage, sessionStorage,
 * IndexedDB, Cache API, cookies and service workers are all refused), and documents that reached other
 * origins get their context replaced (GuardReport.usedOtherOrigins).
 * test/integration/render/isolation.test.ts reads every one back.
 */
export async function resetSlot(slot: PoolSlot): Promise<void> {
  // Cookies and the cache change only through requests (ResourceGuard.takeNetworkUse): a document that made
  // none, as most invoices (inline CSS, data: images), saves the two calls and the browser's clearing work.
  const storage = slot.guard.takeNetworkUse()
    ? [slot.context.clearCookies(), slot.cdp.send('Network.clearBrowserCache')]
    : [];
  await Promise.all([withTimeout(blankDocument(slot), RESET_TIMEOUT_MS, 'blanking the page'), ...storage]);
  // Checked after the blanking was answered: CDP delivers the session's events in order, so every
  // script the document compiled before it was blanked has been reported by now.
  if (slot.scriptRan) {
    await slot.page.goto('about:blank', { timeout: RESET_TIMEOUT_MS });
    slot.world = null;
    slot.scriptRan = false;
    await Promise.all([clearWindowName(slot), slot.cdp.send('Page.resetNavigationHistory')]);
  }
  if (slot.emulated) {
    // On the blank page this costs no real layout (unlike restoring it right after the analysis).
    await Promise.all([slot.page.emulateMedia({ media: null }), slot.page.setViewportSize(DEFAULT_VIEWPORT)]);
    slot.emulated = false;
  }
}

export async function disposeSlot(slot: PoolSlot): Promise<void> {
  await slot.context.close().catch(() => undefined);
}
