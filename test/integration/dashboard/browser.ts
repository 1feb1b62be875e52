import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Download,
  type Locator,
  type Page,
  type Request,
} from 'playwright-core';
import type { Clock } from '../../../src/shared/clock.js';
import { BROWSER_TEST_ARGS, BROWSER_TEST_EXECUTABLE } from '../../helpers/browser-server.js';
import { assertLooksLikeReference } from '../../helpers/images.js';
import { api, createTestSignInLink, startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors and what the dashboard's Content-Security-Policy blocked: a test ends with none. */
  errors: string[];
  /**
   * A browser of the test's own (`own`): its profile directory, which names the browser process
   * (`--user-data-dir`) among the machine's. Null in the run's shared browser.
   */
  profile: string | null;
  close(): Promise<void>;
}

/**
 * Where the clocks of tests with reference screenshots start, the server's and the browser's alike: pages
 * draw the current period day by day and write dates out, so today's date would otherwise change the
 * pictures (the usage page's chart has a bar, and a row in its screen-reader table, per day so far). The
 * 15th at 09:00 UTC: no run crosses a day or a billing period. The browser's time zone is UTC (openBrowser).
 */
const REFERENCE_START = Date.UTC(2026, 5, 15, 9, 0, 0);
const DAY_MS = 24 * 60 * 60 * 1000;

/** A clock that reads REFERENCE_START when made and runs on in real time (for the server and the browser). */
export function referenceClock(): Clock {
  const offset = REFERENCE_START - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** The context every test's browser gets: a desktop window, downloads, British English, UTC. */
const CONTEXT: BrowserContextOptions = {
  viewport: DESKTOP,
  acceptDownloads: true,
  locale: 'en-GB',
  timezoneId: 'UTC',
};

/**
 * A browser context with one page in Debian's Chromium: a context of its own in the run's shared browser
 * (scripts/run-tests.mjs starts one for the browser tests, QUIRE_TEST_BROWSER_WS_ENDPOINT), which spares a
 * Chromium launched and ended per test file; or, with `own` or no shared browser (a file run by hand), a
 * Chromium of its own with a profile directory, for a test that reads its browser's processes (rendererPids).
 * A context starts as empty as a new profile: no cookies, no storage.
 */
export async function openBrowser(options: { clock?: Clock; own?: boolean } = {}): Promise<Browser> {
  const shared = process.env.QUIRE_TEST_BROWSER_WS_ENDPOINT;
  const opened = shared && !options.own ? await sharedContext(shared) : await ownContext();
  const { context } = opened;
  context.setDefaultTimeout(30_000);
  // The server's time in the page too: the page asks for date ranges that end on the server's today.
  if (options.clock) await context.clock.install({ time: options.clock.now() });
  context.on('page', trackRequests);
  const page = context.pages()[0] ?? (await context.newPage());
  if (!inFlight.has(page)) trackRequests(page);
  return { ...opened, page, errors: pageErrors(page) };
}

type Opened = Pick<Browser, 'context' | 'profile' | 'close'>;

/** A new context in the run's shared browser; closing it disconnects (the browser runs on for other files). */
async function sharedContext(wsEndpoint: string): Promise<Opened> {
  const browser = await chromium.connect(wsEndpoint);
  try {
    const context = await browser.newContext(CONTEXT);
    return {
      context,
      profile: null,
      close: async () => {
        await context.close();
        await browser.close();
      },
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/** A Chromium of the test's own, with a profile directory that names its processes. */
async function ownContext(): Promise<Opened> {
  const profile = mkdtempSync(path.join(tmpdir(), 'quire-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: BROWSER_TEST_EXECUTABLE,
    args: [...BROWSER_TEST_ARGS],
    ...CONTEXT,
  });
  return {
    context,
    profile,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A finished download's bytes. Read through the protocol, not from `download.path()`: a browser the test
 * connected to keeps its downloads on its own side, and Playwright refuses their path.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface ProcEntry {
  pid: number;
  ppid: number;
  cmdline: string;
}

/**
 * A /proc stat line's fields after the command name (which may hold spaces and parentheses): [0] is the state,
 * [1] the parent's id, [11] and [12] the user and system CPU time in clock ticks.
 */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Every process of the machine with its parent and command line, from /proc (Linux). */
function listProcesses(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(statFields(readFileSync(`/proc/${name}/stat`, 'utf8'))[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      entries.push({ pid: Number(name), ppid, cmdline });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return entries;
}

/** The renderer processes of this browser (and only this one: the server under test runs its own Chromium). */
export function rendererPids(browser: Browser): number[] {
  if (!browser.profile)
    throw new Error('rendererPids needs a browser of its own: openBrowser({ own: true })');
  const processes = listProcesses();
  const root = processes.find(
    (p) => p.cmdline.includes(`--user-data-dir=${browser.profile}`) && !p.cmdline.includes('--type='),
  );
  if (!root) throw new Error(`no browser process with the profile ${browser.profile}`);
  const ours = new Set([root.pid]);
  // Parents come before children only by chance in /proc's order: repeat until no process joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of processes) {
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
    }
  }
  return processes.filter((p) => ours.has(p.pid) && p.cmdline.includes('--type=renderer')).map((p) => p.pid);
}

const CLOCK_TICK_MS = 10;

/**
 * CPU time, in ms, that the main threads of these renderer processes have used since they started (a main
 * thread's id is its process's). It tells a page that is busy from one the machine did not schedule: a
 * descheduled page waits without using CPU time.
 */
export function mainThreadCpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = statFields(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // A renderer that ended has no more time to add.
    }
  }
  return ticks * CLOCK_TICK_MS;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core injected into the page; serious and critical violations fail the test (the brief's bar). */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  // Evaluated through DevTools rather than added as a <script>: the dashboard's CSP refuses inline scripts,
  // and the test tool must not need a weaker policy than users get.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the injected script defines
    const axe = (window as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
    [],
    `axe on ${label}`,
  );
}

const REFERENCES = new URL('./reference/', import.meta.url);
const OUT = new URL('../../visual/out/dashboard/', import.meta.url);
/** The share of pixels that may differ from the reference. */
const MAX_DIFF_RATIO = 0.02;

/**
 * Compares a screenshot of the settled page (settled) with the committed reference
 * (test/integration/dashboard/reference/NAME.png). Dynamic parts (dates, ids, secrets) are masked. A missing
 * reference, or QUIRE_UPDATE_VISUAL=1, writes it: review the PNG in the diff before committing.
 */
export async function assertLooksLike(page: Page, name: string, mask: Locator[] = []): Promise<void> {
  await assertReferenceDay(page, name);
  await settled(page);
  const shot = await page.screenshot({
    fullPage: false,
    mask,
    animations: 'disabled',
    caret: 'hide',
    // Screen-reader-only content is clipped to nothing, but a mask covers an element's whole box: the
    // usage chart's table (a row per day so far) was painted as a magenta block as tall as the period
    // was old. Toasts that arrive after settling are background work finishing, not the page's look.
    style: '.sr-only { display: none !important; } .toasts { visibility: hidden !important; }',
  });
  const file = new URL(`${name}.png`, REFERENCES);
  if (process.env.QUIRE_UPDATE_VISUAL === '1' || !existsSync(file)) {
    mkdirSync(REFERENCES, { recursive: true });
    writeFileSync(file, shot);
    return;
  }
  assertLooksLikeReference(shot, readFileSync(file), { name, maxDiffRatio: MAX_DIFF_RATIO, out: OUT });
}

/** A reference screenshot is taken on the reference day (referenceClock), never on whatever today is. */
async function assertReferenceDay(page: Page, name: string): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  assert.ok(
    now >= REFERENCE_START && now < REFERENCE_START + DAY_MS,
    `${name}: the page's clock reads ${new Date(now).toISOString()}; run the server and the browser on referenceClock()`,
  );
}

/** A page must not scroll sideways at phone width (the brief: works at 390 px). */
export async function assertFitsWidth(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(
    overflow <= 1,
    `${label} is ${overflow}px wider than the ${await page.evaluate(() => window.innerWidth)}px viewport`,
  );
}

/** The top bar is one row at desktop width (issue 30: it wrapped to two at 1280 px). */
export async function assertHeaderOneRow(page: Page, label: string): Promise<void> {
  const bar = await page.evaluate(() => {
    const top = document.querySelector('header.top');
    if (!top) return null;
    const visible = [...top.children]
      .map((child) => child.getBoundingClientRect())
      .filter((rect) => rect.width > 0 && rect.height > 0);
    const centres = visible.map((rect) => rect.top + rect.height / 2);
    return {
      height: top.getBoundingClientRect().height,
      spread: Math.max(...centres) - Math.min(...centres),
    };
  });
  if (!bar) return;
  assert.ok(bar.height <= 64, `${label}: the top bar is ${bar.height}px tall (one row is at most 64px)`);
  assert.ok(bar.spread <= 4, `${label}: the top bar's items are on different rows (${bar.spread}px apart)`);
}

/**
 * At phone width no table is wider than the viewport and every button or link in a table row is on
 * screen (tables become stacked rows; actions must not be pushed off to the right).
 */
export async function assertTablesFit(page: Page, label: string): Promise<void> {
  const problems = await page.evaluate(() => {
    const width = window.innerWidth;
    const out: string[] = [];
    for (const table of document.querySelectorAll('main table')) {
      const rect = table.getBoundingClientRect();
      if (rect.width === 0) continue;
      if (rect.right > width + 1 || table.scrollWidth > table.clientWidth + 1) {
        out.push(`table ${table.getAttribute('data-testid') ?? ''} is ${Math.round(rect.right)}px wide`);
      }
      for (const control of table.querySelectorAll('tbody button, tbody a, tbody select')) {
        const r = control.getBoundingClientRect();
        if (r.width > 0 && (r.right > width + 1 || r.left < -1)) {
          out.push(
            `"${control.textContent?.trim()}" is off-screen (${Math.round(r.left)}–${Math.round(r.right)}px)`,
          );
        }
      }
    }
    return out;
  });
  assert.deepEqual(problems, [], `${label} at ${PHONE.width}px`);
}

/** Requests each page has in flight, from the page's events: a page is not settled while one is pending. */
const inFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page): void {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on('request', (request) => pending.add(request));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
}

/** What still moves on the page (empty when nothing does), and a fingerprint of its layout. */
interface Unsettled {
  reasons: string[];
  layout: number;
}

/** Runs in the page: fonts, loading indicators, toasts, running animations and where every box is. */
function readPage(): Unsettled {
  const reasons: string[] = [];
  if (document.fonts.status !== 'loaded') reasons.push('fonts loading');
  const loading = document.querySelectorAll('.busy, .skeleton, [aria-busy="true"]').length;
  if (loading > 0) reasons.push(`${loading} loading indicator(s)`);
  const toasts = document.querySelectorAll('.toast').length;
  if (toasts > 0) reasons.push(`${toasts} toast(s)`);
  // Endless ones (a spinner) are stopped by the screenshot itself (animations: 'disabled').
  const running = document
    .getAnimations()
    .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
  if (running.length > 0) reasons.push(`${running.length} animation(s) or transition(s)`);
  let layout = 0;
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect();
    for (const n of [box.x, box.y, box.width, box.height]) layout = (layout * 31 + Math.round(n)) | 0;
  }
  return { reasons, layout };
}

/**
 * Dismisses the toasts shown, in the page: no mouse moved (a pointer left over the page would hover it) and
 * no locator kept waiting for a button that the previous dismissal re-rendered away.
 */
async function dismissToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const button of document.querySelectorAll<HTMLButtonElement>('.toast button')) button.click();
  });
}

/**
 * Waits for a settled page: fonts loaded, no loading indicator, no toast (dismissed), no finite animation
 * or transition running, no request in flight, and every box where it was a moment before (late data
 * moves things). Every reference screenshot waits through here (assertLooksLike), and so does a test that
 * asserts what a page shows once its requests are done.
 */
export async function settled(page: Page, timeoutMs = 60_000): Promise<void> {
  if (!inFlight.has(page)) trackRequests(page);
  const pending = inFlight.get(page)!;
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  let last: Unsettled | null = null;
  let stableLayout: number | null = null;
  try {
    await waitFor(
      'a settled page',
      async () => {
        await dismissToasts(page);
        const now = await page.evaluate(readPage);
        if (pending.size > 0)
          now.reasons.push(`requests in flight: ${[...pending].map((r) => r.url()).join(', ')}`);
        last = now;
        if (now.reasons.length > 0 || now.layout !== stableLayout) {
          stableLayout = now.reasons.length > 0 ? null : now.layout;
          return null;
        }
        return true;
      },
      timeoutMs,
      100,
    );
  } catch (err) {
    if (err instanceof Error && last)
      err.message += ` (still: ${(last as Unsettled).reasons.join('; ') || 'the layout moving'})`;
    throw err;
  }
}

/**
 * The quality bar for one page as it is now (issue 30 item 9): no serious or critical axe violation, the
 * top bar on one row and the reference screenshot at 1280 px; at 390 px no sideways scrolling, tables
 * that fit with their actions on screen, axe again, and the phone reference screenshot (`NAME-phone`).
 * `dynamic` selects what changes between runs (dates, ids, images): masked in the screenshots.
 */
export async function checkPage(page: Page, name: string, dynamic: string): Promise<void> {
  const mask = [page.locator(dynamic)];
  await settled(page);
  await assertAccessible(page, name);
  await assertHeaderOneRow(page, name);
  await assertLooksLike(page, name, mask);
  await atPhoneWidth(page, async () => {
    await assertFitsWidth(page, name);
    await assertTablesFit(page, name);
    // The phone layout (menu button, stacked tables) is its own markup state: axe checks it too.
    await assertAccessible(page, `${name} at ${PHONE.width}px`);
    await assertLooksLike(page, `${name}-phone`, mask);
  });
}

/**
 * The bar for a page without reference screenshots (its content differs run to run): axe at desktop width,
 * and no sideways scrolling at phone width.
 */
export async function assertAccessibleAndFits(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  await atPhoneWidth(page, () => assertFitsWidth(page, name));
}

/** Runs `body` at phone width; the desktop width comes back even when it fails, for the steps after it. */
export async function atPhoneWidth(page: Page, body: () => Promise<void>): Promise<void> {
  await page.setViewportSize(PHONE);
  try {
    await body();
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) errors.push(`CSP: ${msg.text()}`);
  });
  return errors;
}

/** Closes the browser, then the test's servers, and fails when the page reported errors (Browser.errors). */
export async function closeAll(
  browser: Browser | undefined,
  ...servers: Array<{ close(): Promise<unknown> | unknown } | undefined>
): Promise<void> {
  await browser?.close();
  for (const server of servers) await server?.close();
  assert.deepEqual(browser?.errors ?? [], [], 'no uncaught errors in the page');
}

/**
 * On the batches page: picks the template, uploads `csv` as rows.csv, reads its columns and starts the batch,
 * whose button names its `rows` documents.
 */
export async function startCsvBatch(
  page: Page,
  templateId: string,
  csv: string,
  rows: number,
): Promise<void> {
  await page.getByLabel('Template').selectOption(templateId);
  await page.getByLabel('Spreadsheet (CSV or XLSX)').setInputFiles({
    name: 'rows.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByRole('button', { name: 'Read columns' }).click();
  await page.getByRole('button', { name: `Start batch of ${rows} documents` }).click();
}

/** On the generate page: clicks "Generate PDF" and returns the downloaded file. */
export async function generatePdf(page: Page): Promise<Buffer> {
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Generate PDF' }).click();
  return downloadedBytes(await download);
}

/** Switches the signed-in dashboard to live mode unless it is there already. */
export async function useLiveMode(page: Page): Promise<void> {
  if (await page.getByRole('radio', { name: 'Live' }).isChecked()) return;
  await page.getByRole('radio', { name: 'Live' }).check();
  await page.locator('.mode-live').waitFor();
}

/** Runs one step of a browser test; when it fails, keeps a full-page screenshot (test/visual/out/dashboard/). */
export async function step(page: Page | undefined, name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    mkdirSync(OUT, { recursive: true });
    await page
      ?.screenshot({ path: new URL(`failed-${name}.png`, OUT).pathname, fullPage: true })
      .catch(() => {});
    // CI keeps only the log: the errors the page showed say more than a selector that timed out.
    const shown = await page
      ?.locator('[role="alert"]')
      .allTextContents()
      .catch(() => []);
    if (shown?.length && err instanceof Error) err.message += `\nThe page showed: ${shown.join(' | ')}`;
    throw err;
  }
}

/**
 * Signs a new owner in through a one-time link (as the first run prints it) and sets their password; the
 * caller waits for the page it expects next.
 */
export async function signInNewOwner(
  page: Page,
  server: TestServer,
  teamId: string,
  email = 'owner@example.com',
  password = 'owner password 123',
): Promise<void> {
  const link = await createTestSignInLink(server, email, teamId, 'owner');
  await page.goto(link.sign_in_url);
  await page.getByLabel('New password (10 to 200 characters)').fill(password);
  await page.getByRole('button', { name: 'Save password' }).click();
}

/**
 * A browser (openBrowser) signed in as a new owner of the team (signInNewOwner), on the Templates page where
 * a first sign-in lands. A failed sign-in closes the browser: the caller has none to close yet.
 */
export async function openSignedInBrowser(
  server: TestServer,
  teamId: string,
  email?: string,
  password?: string,
  options: { clock?: Clock; own?: boolean } = {},
): Promise<Browser> {
  const browser = await openBrowser(options);
  try {
    await signInNewOwner(browser.page, server, teamId, email, password);
    await browser.page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
  } catch (err) {
    await browser.close();
    throw err;
  }
  return browser;
}

/** Where the editor's tests start: a server with one template, a browser in Live mode (openEditorSetUp). */
export interface EditorSetUp {
  server: TestServer;
  /** The team's live key, which made the template. */
  liveKey: string;
  templateId: string;
  browser: Browser;
}

/**
 * A server (one render worker), a team with `template` made through the API, and a browser signed in as the
 * team's owner and switched to Live mode, where the template is (`ownBrowser`: a Chromium of the test's own, see
 * openBrowser). What started is closed again if a later step fails: the caller has nothing to close yet.
 */
export async function openEditorSetUp(
  template: Record<string, unknown>,
  options: { ownBrowser?: boolean } = {},
): Promise<EditorSetUp> {
  const server = await startTestServer({ workers: 1 });
  let browser: Browser | undefined;
  try {
    const team = await server.team('growth');
    const created = await api(server.base, 'POST', '/v1/templates', { key: team.live, body: template });
    assert.equal(created.status, 201);
    browser = await openSignedInBrowser(server, team.team.id, undefined, undefined, {
      own: options.ownBrowser,
    });
    await useLiveMode(browser.page);
    return { server, liveKey: team.live, templateId: (created.json as { id: string }).id, browser };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}

/**
 * Clicks the editor's "Open PDF" and returns the draft PDF it fetched. The new tab shows it from a blob: URL,
 * which the test cannot fetch inside the page (the dashboard's CSP, connect-src 'self', refuses it, as it
 * should), and Playwright does not keep the body of a response read as a blob, so a route passes the answer
 * through and keeps a copy. Returns the bytes and the tab (to close).
 */
export async function openDraftPdf(page: Page): Promise<{ pdf: Buffer; tab: Page }> {
  const got: { pdf?: Buffer } = {};
  const pattern = '**/draft-preview';
  await page.route(pattern, async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    if (response.ok()) got.pdf = body;
    await route.fulfill({ response, body });
  });
  try {
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Open PDF' }).click();
    const tab = await popup;
    await waitFor('the tab to show the draft PDF', async () => (tab.url().startsWith('blob:') ? true : null));
    assert.ok(got.pdf, 'the draft PDF was fetched');
    return { pdf: got.pdf, tab };
  } finally {
    await page.unroute(pattern);
  }
}

/**
 * Puts the caret at the end of an editor pane (Ctrl+End, as a user would) and waits until it stays there: on
 * a loaded machine text typed next would otherwise land in the middle.
 */
export async function caretToEnd(page: Page, label: string): Promise<void> {
  const pane = page.getByRole('textbox', { name: label });
  // Focused, not clicked: CodeMirror applies a click's caret in a later frame, which on a busy machine came
  // after Ctrl+End and put the typing before the pane's last characters.
  await pane.focus();
  const atEnd = () =>
    pane.evaluate((el) => {
      const selection = getSelection();
      if (!selection?.isCollapsed || !selection.focusNode || !el.contains(selection.focusNode)) return false;
      const rest = document.createRange();
      rest.setStart(selection.focusNode, selection.focusOffset);
      rest.setEnd(el, el.childNodes.length);
      return rest.toString() === '';
    });
  // At the end on two looks in a row with no key between them: a caret that something still moves is not kept.
  let before = false;
  await waitFor(
    `the caret at the end of ${label}`,
    async () => {
      const now = await atEnd();
      if (now && before) return true;
      before = now;
      if (!now) await page.keyboard.press('Control+End');
      return null;
    },
    30_000,
    200,
  );
}
