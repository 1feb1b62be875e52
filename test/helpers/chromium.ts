import type { Config } from '../../src/config/config.js';

/**
 * The test run's one Chromium server (scripts/run-tests.mjs sets QUIRE_CHROMIUM_WS_ENDPOINT), which test
 * servers and renderers connect to instead of launching their own. A test that kills or counts Chromium's
 * processes passes OWN_CHROMIUM among its overrides.
 */
export const SHARED_CHROMIUM: Partial<Config> = {
  chromiumWsEndpoint: process.env.QUIRE_CHROMIUM_WS_ENDPOINT || null,
};
export const OWN_CHROMIUM: Partial<Config> = { chromiumWsEndpoint: null };

/**
 * The pages of a test's renderer: one, not warmed. Every pool page is a browser context and a renderer process
 * (about 0.8 s of Chromium's CPU here) and its warm-up two more prints; a test server renders a handful of
 * documents, and the suite made about 250 pages. A test about renders at once sets renderPoolSize itself.
 */
export const PAGE_ECONOMY: Partial<Config> = { renderPoolSize: 1, renderPageWarmUp: false };

/** A document whose render keeps Chromium's page busy for about `ms`: renders that overlap, or outlast a close. */
export const busyDocument = (ms: number) =>
  `<p>busy</p><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script>`;
