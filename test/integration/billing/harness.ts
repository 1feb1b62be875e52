import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ManualClock } from '../../../src/shared/clock.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'quire.mjs');

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
  /** Runs the real CLI (a child process) at the server clock's "now"; returns its stdout. */
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
    ...process.env,
    NODE_ENV: 'test',
    QUIRE_DATA_DIR: server.config.dataDir,
    QUIRE_FROM_SOURCE: '1',
    QUIRE_PLANS_FILE: plansFile,
    QUIRE_LOG_LEVEL: 'warn',
    // With QUIRE_TEST_DATABASE_URL the server's database is PostgreSQL: the CLI must use it too.
    ...(server.config.databaseUrl ? { QUIRE_DATABASE_URL: server.config.databaseUrl } : {}),
  };
  const exec = (args: string[]) =>
    run(process.execPath, [bin, ...args], {
      env: { ...env, QUIRE_NOW: clock.now().toISOString() },
      cwd: root,
    });
  return {
    server,
    clock,
    quire: async (...args) => (await exec(args)).stdout.trim(),
    quireFails: async (...args) => {
      try {
        await exec(args);
      } catch (err) {
        return err as { code: number; stderr: string };
      }
      throw new Error(`quire ${args.join(' ')} should have failed`);
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
