import type { BrowserContext, CDPSession, Page, Request, Route } from 'playwright-core';
import { BlockedResources } from './blocked-resources.js';
import type { ResourceBudget } from './resource-budget.js';
import type { FetchOutcome, ResourceFetcher } from './resource-fetcher.js';
import type { LocalResources } from './types.js';

/** What the guard saw during one render. */
export interface GuardReport {
  blocked: BlockedResources;
  /**
   * The document loaded another document (an http(s) iframe) or started a worker. Those have an
   * origin with cookies and storage of their own, so the pool replaces the whole context afterwards
   * instead of trusting a reset (nothing may cross between teams).
   */
  usedOtherOrigins: boolean;
}

interface Session extends GuardReport {
  abort: AbortController;
  budget: ResourceBudget;
  routed: WeakSet<Request>;
  local: LocalResources | undefined;
}

// Schemes that never leave the document, so nothing to refuse or fetch.
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const LOCAL_RESOURCE_DENIED = 'Not allowed to load local resource: ';

function schemeOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return 'invalid:';
  }
}

/**
 * A navigation of the page's own document or of any other page (a popup). Requests whose frame is
 * unknown yet (a popup's first navigation) count as such too: only subframes may load documents.
 */
function isNavigationAway(request: Request, page: Page): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    const frame = request.frame();
    return frame.parentFrame() === null || frame.page() !== page;
  } catch {
    return true;
  }
}

/**
 * Sends every request of a pool page's documents through Quire's fetcher. Chromium
 * itself is launched unable to resolve any host (browser-supervisor.ts), so a request that somehow
 * escaped interception still reaches nothing.
 */
export class ResourceGuard {
  private session: Session | null = null;
  /** A request reached the guard (or failed in the browser) since the last `takeNetworkUse`. */
  private networkUsed = false;

  private constructor(
    private readonly page: Page,
    private readonly fetcher: ResourceFetcher,
  ) {}

  static async install(
    context: BrowserContext,
    page: Page,
    cdp: CDPSession,
    fetcher: ResourceFetcher,
  ): Promise<ResourceGuard> {
    const guard = new ResourceGuard(page, fetcher);
    await context.route(
      () => true,
      (route) => guard.handle(route),
    );
    // Popups (window.open, target=_blank) are closed at once; their navigation was refused anyway.
    context.on('page', (other) => {
      if (other !== page) void other.close().catch(() => undefined);
    });
    page.on('worker', () => guard.markOtherOrigins());
    page.on('requestfailed', (request) => guard.onRequestFailed(request));
    // Chromium refuses file:, chrome: and similar itself, before any interception; it reports that
    // through the Log domain, which (unlike console) the document cannot write to.
    cdp.on('Log.entryAdded', ({ entry }) => {
      if (entry.text.startsWith(LOCAL_RESOURCE_DENIED)) {
        const url = entry.text.slice(LOCAL_RESOURCE_DENIED.length).trim();
        guard.session?.blocked.add(url, `scheme ${schemeOf(url)} not allowed`);
      }
    });
    await cdp.send('Log.enable');
    return guard;
  }

  begin(local?: LocalResources): void {
    this.session = {
      local,
      blocked: new BlockedResources(),
      usedOtherOrigins: false,
      abort: new AbortController(),
      budget: this.fetcher.newBudget(),
      routed: new WeakSet(),
    };
  }

  /** Ends the render's session: fetches still running are cancelled, later requests refused. */
  end(): GuardReport {
    const session = this.session;
    this.session = null;
    if (!session) return { blocked: new BlockedResources(), usedOtherOrigins: false };
    session.abort.abort();
    return { blocked: session.blocked, usedOtherOrigins: session.usedOtherOrigins };
  }

  /**
   * Fetches a source_url page through the same fetcher, rules and budget as the document's resources
   * (DNS pinning, every redirect checked again); cancelled with the render.
   */
  fetchDocument(url: string): Promise<FetchOutcome> {
    const session = this.session;
    if (!session) return Promise.resolve({ ok: false, reason: 'render ended' });
    const headers = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' };
    return this.fetcher.fetch(url, 'GET', headers, session.abort.signal, session.budget);
  }

  /**
   * Whether any request was made since the last call (and forgets it): cookies and the HTTP cache can only
   * change through a request (the document's opaque origin refuses `document.cookie`), so the page reset
   * clears them only after a render that made one (pool-slot.ts).
   */
  takeNetworkUse(): boolean {
    const used = this.networkUsed;
    this.networkUsed = false;
    return used;
  }

  private markOtherOrigins(): void {
    if (this.session) this.session.usedOtherOrigins = true;
  }

  private async handle(route: Route): Promise<void> {
    this.networkUsed = true;
    const request = route.request();
    const session = this.session;
    if (!session) return route.abort('aborted').catch(() => undefined);
    session.routed.add(request);
    const url = request.url();
    if (isNavigationAway(request, this.page)) {
      // Spec: the document is what gets printed; it may not replace itself (location =, meta refresh).
      session.blocked.add(url, 'navigation away from the document refused');
      return route.abort('aborted').catch(() => undefined);
    }
    if (request.isNavigationRequest()) session.usedOtherOrigins = true;
    // Quire's own resources (brand assets) come from its storage: Chromium never reaches the server,
    // and the fetcher keeps refusing this host's addresses for everything else.
    const local =
      session.local && !request.isNavigationRequest()
        ? await session.local(url).catch(() => ({ ok: false as const, reason: 'local storage unavailable' }))
        : null;
    if (local) {
      if (!local.ok) {
        session.blocked.add(url, local.reason);
        return route.abort('blockedbyclient').catch(() => undefined);
      }
      return route
        .fulfill({ status: 200, contentType: local.contentType, body: local.body })
        .catch(() => undefined);
    }
    const outcome = await this.fetcher.fetch(
      url,
      request.method(),
      request.headers(),
      session.abort.signal,
      session.budget,
    );
    if (!outcome.ok) {
      session.blocked.add(url, outcome.reason);
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    await route
      .fulfill({ status: outcome.status, headers: outcome.headers, body: outcome.body })
      .catch(() => undefined);
  }

  private onRequestFailed(request: Request): void {
    this.networkUsed = true;
    const session = this.session;
    if (!session || session.routed.has(request)) return;
    const url = request.url();
    const scheme = schemeOf(url);
    if (LOCAL_SCHEMES.has(scheme)) return;
    const error = request.failure()?.errorText ?? 'failed';
    if (scheme !== 'http:' && scheme !== 'https:') session.blocked.add(url, `scheme ${scheme} not allowed`);
    else if (!error.includes('ERR_ABORTED')) session.blocked.add(url, `refused by the browser (${error})`);
  }
}
