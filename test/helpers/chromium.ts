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
