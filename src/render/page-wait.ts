import type { ConsoleMessage, Page, Request } from 'playwright-core';
import { AppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { callIsolated, documentExpressionTruthy } from './in-page.js';
import type { PoolSlot } from './pool-slot.js';
import type { WaitFor } from './types.js';

/** Extension: at most this many script_error warnings per render. */
export const MAX_SCRIPT_ERRORS = 10;
/** How long the network must have been quiet for `network_idle`. */
export const NETWORK_IDLE_MS = 500;
const MESSAGE_MAX_CHARS = 200;
const EXPRESSION_POLL_MS = 100;
const CHROMIUM_LOAD_FAILURE = /^Failed to load resource\b/;

/** What one render's page did while Quire watched it: its errors and its requests in flight. */
export interface PageWatch {
  scriptErrors(): Warning[];
  /** True once no request has been in flight for `quietMs`; false when `until` (performance.now()) came first. */
  networkIdle(quietMs: number, until: number): Promise<boolean>;
  stop(): void;
}

function shorten(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > MESSAGE_MAX_CHARS ? `${line.slice(0, MESSAGE_MAX_CHARS - 1)}…` : line;
}

/** One render's share of a page's watcher: what happened between `begin` and `stop`. */
interface WatchSession {
  errors: Warning[];
  inFlight: Set<Request>;
  lastActivity: number;
}

/**
 * Listens to a pool page for its whole life; each render takes a session (`begin`) before its document
 * loads, so its first requests and errors count. The listeners are added once per page, not per render:
 * with playwright, the first listener of an event and the removal of the last are each a round trip to its
 * server side (`updateSubscription`), ten per document when they were added and removed around every render.
 * Events outside a session (the blank page between documents) are ignored.
 */
export class PageWatcher {
  private session: WatchSession | null = null;

  constructor(page: Page) {
    page.on('console', (msg: ConsoleMessage) => {
      // Chromium's own report of a resource that did not load is not the page's script: the resource guard
      // reports those as blocked_resources (spec), and a spec document must not gain a warning for them.
      if (msg.type() === 'error' && !CHROMIUM_LOAD_FAILURE.test(msg.text())) this.addError(msg.text());
    });
    page.on('pageerror', (error: Error) => this.addError(`Uncaught ${error.name}: ${error.message}`));
    page.on('request', (request: Request) => {
      if (!this.session) return;
      this.session.inFlight.add(request);
      this.session.lastActivity = performance.now();
    });
    const onDone = (request: Request) => {
      if (!this.session) return;
      this.session.inFlight.delete(request);
      this.session.lastActivity = performance.now();
    };
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
  }

  private addError(message: string): void {
    const errors = this.session?.errors;
    if (errors && errors.length < MAX_SCRIPT_ERRORS)
      errors.push({ code: 'script_error', message: shorten(message) });
  }

  /** Starts one render's watch, before its document loads. */
  begin(): PageWatch {
    const session: WatchSession = { errors: [], inFlight: new Set(), lastActivity: performance.now() };
    this.session = session;
    return {
      scriptErrors: () => [...session.errors],
      networkIdle: async (quietMs, until) => {
        for (;;) {
          const now = performance.now();
          const quietFor = now - session.lastActivity;
          if (session.inFlight.size === 0 && quietFor >= quietMs) return true;
          if (now >= until) return false;
          await sleep(Math.min(session.inFlight.size === 0 ? quietMs - quietFor : 50, until - now));
        }
      },
      stop: () => {
        if (this.session === session) this.session = null;
      },
    };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Runs in Quire's isolated world: resolves 'found' once the selector matches, 'timeout' after `ms`. */
const WAIT_FOR_SELECTOR = `function (selector, ms) {
  try { document.querySelector(selector); } catch (e) { return 'invalid'; }
  return new Promise((resolve) => {
    const done = (answer) => { observer.disconnect(); clearTimeout(timer); resolve(answer); };
    const observer = new MutationObserver(() => { if (document.querySelector(selector)) done('found'); });
    const timer = setTimeout(() => done('timeout'), ms);
    if (document.querySelector(selector)) return done('found');
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  });
}`;

function describe(waitFor: WaitFor): string {
  const parts: string[] = [];
  if (waitFor.selector !== undefined) parts.push(`the selector ${JSON.stringify(waitFor.selector)}`);
  if (waitFor.expression !== undefined) parts.push(`the expression ${JSON.stringify(waitFor.expression)}`);
  if (waitFor.network_idle) parts.push(`${NETWORK_IDLE_MS} ms without network requests`);
  return parts.join(', then ') || 'nothing';
}

function invalidWait(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field: `wait_for.${field}` });
}

/** Polls the caller's expression in the document's main world (it sees the page's globals and DOM). */
async function untilTruthy(slot: PoolSlot, expression: string, until: number): Promise<boolean> {
  for (;;) {
    if (until - performance.now() <= 0) return false;
    const value = await beforeDeadline(
      documentExpressionTruthy(slot, expression).then(
        (v) => ({ v }),
        (err: unknown) => ({ err: String(err) }),
      ),
      until,
    );
    if (value === 'late') return false;
    if ('err' in value && /SyntaxError/.test(value.err))
      throw invalidWait('expression', `"wait_for.expression" is not valid JavaScript: ${shorten(value.err)}`);
    if ('v' in value && value.v) return true;
    await sleep(Math.min(EXPRESSION_POLL_MS, until - performance.now()));
  }
}

/**
 * `work`'s value, or 'late' once `deadline` (performance.now() time) has passed. Decided by this process's own
 * timer, not by an answer from the page: on a busy machine the page's answer can come after the render limit,
 * which would then win with a message that no longer says what was waited for.
 */
async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - performance.now()));
  });
  work.catch(() => undefined); // it may fail after the race was decided
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Waits until every condition of `wait_for` holds, in order (selector, expression, network idle), or
 * fails with render_timeout naming what it waited for. `deadline` (performance.now() time) is the end of
 * the wait: `timeout_ms`, never past the render limit.
 */
export async function waitForPage(
  slot: PoolSlot,
  watch: PageWatch,
  waitFor: WaitFor,
  deadline: number,
): Promise<void> {
  const timedOut = () =>
    new AppError(
      'render_timeout',
      `The page did not become ready in time: waited for ${describe(waitFor)}. Check wait_for or raise wait_for.timeout_ms.`,
    );
  if (waitFor.selector !== undefined) {
    const ms = Math.max(0, Math.floor(deadline - performance.now()));
    const answer = await beforeDeadline(
      callIsolated(slot, WAIT_FOR_SELECTOR, waitFor.selector, ms),
      deadline,
    );
    if (answer === 'invalid')
      throw invalidWait('selector', `"wait_for.selector" is not a valid CSS selector: ${waitFor.selector}`);
    if (answer !== 'found') throw timedOut();
  }
  if (waitFor.expression !== undefined && !(await untilTruthy(slot, waitFor.expression, deadline)))
    throw timedOut();
  if (waitFor.network_idle && !(await watch.networkIdle(NETWORK_IDLE_MS, deadline))) throw timedOut();
}
