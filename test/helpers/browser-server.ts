import { type BrowserServer, chromium } from 'playwright-core';
import { DISABLED_FEATURES } from '../../src/render/browser-supervisor.js';

/**
 * The browser the dashboard's tests drive (test/integration/dashboard/browser.ts): Debian's Chromium with the
 * features Quire's renderer switches off (the omnibox popups cost two renderer processes per window). Not the
 * renderer's own arguments: those take the network away, and a dashboard page must reach its server.
 */
export const BROWSER_TEST_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** The Chromium the browser tests open their pages in unless a test launches its own. */
export const BROWSER_TEST_EXECUTABLE = process.env.QUIRE_CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * One browser server for a test run's browser tests (scripts/run-tests.mjs gives its endpoint to the tests as
 * QUIRE_TEST_BROWSER_WS_ENDPOINT): each test file connects and opens a context of its own instead of
 * launching a Chromium per file.
 */
export function launchBrowserTestServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: BROWSER_TEST_EXECUTABLE, args: [...BROWSER_TEST_ARGS] });
}
