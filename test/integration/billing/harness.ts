import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManualClock } from '../../../src/shared/clock.js';
import { quireInProcess } from '../../helpers/quire-process.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

/**
 * Small plan numbers so that limits are reached in a few renders: starter 3 included at 7 ¢ (overage),
 * pro 5 included, growth 900 and scale 2700 (round numbers for proration). Enough render slots that
 * concurrent requests meet the usage check, not the concurrency limit.
 */
export const TEST_PLANS = {
  starter: { docs_per_period: 3, overage_cents_per_doc: 7, render_concurrency: 20 },
  pro: { docs_per_period: 5, render_concurrency: 20, rate_limit_per_min: 1_000 },
  growth: { docs_per_period: 900 },
  scale: { docs_per_period: 2_700 },
};

export interface BillingHarness {
  server: TestServer;
  clock: ManualClock;
  /**
   * Runs the real CLI (its main(argv), in this process: the commands open and close their own connection to
   * the server's database) at the server clock's "now"; returns its stdout.
   */
  quire(...args: string[]): Promise<string>;
  /** Runs the CLI expecting it to fail; returns its exit code and stderr. */
  quireFails(...args: string[]): Promise<{ code: number; stderr: string }>;
  usage(key: string): Promise<Record<string, unknown>>;
  /** One live POST /pdf; returns the status and the error code, if any. */
  render(key: string, headers?: Record<string, string>): Promise<{ status: number; code: string | null }>;
}

/** A real server on a manual clock starting at `start`, with TEST_PLANS, and the real CLI beside it. */
export async function billingHarness(start: Date): Promise<BillingHarness> {
  const plansFile = path.join(mkdtempSync(path.join(tmpdir(), 'quire-plans-')), 'plans.json');
  writeFileSync(plansFile, JSON.stringify(TEST_PLANS));
  const clock = new ManualClock(start);
  const server = await startTestServer({ maxPreparing: 64, plansFile }, { clock });
  const env = {
    NODE_ENV: 'test',
    QUIRE_DATA_DIR: server.config.dataDir,
    QUIRE_PLANS_FILE: plansFile,
    QUIRE_LOG_LEVEL: 'warn',
    // With QUIRE_TEST_DATABASE_URL the server's database is PostgreSQL: the CLI must use it too.
    QUIRE_DATABASE_URL: server.config.databaseUrl ?? '',
  };
  const exec = (args: string[]) => quireInProcess({ ...env, QUIRE_NOW: clock.now().toISOString() }, ...args);
  return {
    server,
    clock,
    quire: async (...args) => {
      const result = await exec(args);
      assert.equal(result.code, 0, `quire ${args.join(' ')} failed: ${result.stderr}`);
      return result.stdout.trim();
    },
    quireFails: async (...args) => {
      const result = await exec(args);
      assert.notEqual(result.code, 0, `quire ${args.join(' ')} should have failed`);
      return { code: result.code, stderr: result.stderr };
    },
    usage: async (key) => {
      const r = await api(server.base, 'GET', '/v1/account/usage', { key });
      assert.equal(r.status, 200, r.text);
      return r.json;
    },
    render: async (key, headers = {}) => {
      const r = await api(server.base, 'POST', '/v1/pdf', { key, body: { html: '<p>x</p>' }, headers });
      assert.ok(r.status === 200 || r.status === 402, `unexpected ${r.status}: ${r.text}`);
      return { status: r.status, code: r.json?.error?.code ?? null };
    },
  };
}
