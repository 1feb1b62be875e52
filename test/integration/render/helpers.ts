import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { PlanId } from '../../../src/accounts/plans.js';
import { type Config, loadConfig } from '../../../src/config/config.js';
import { type PageOptionsInput, Renderer, resolvePageOptions } from '../../../src/render/index.js';
import type { RenderJob } from '../../../src/render/types.js';
import { AppError } from '../../../src/shared/errors.js';
import { PAGE_ECONOMY, SHARED_CHROMIUM } from '../../helpers/chromium.js';
import { type TestServer as QuireServer, startTestServer, type TestTeam } from '../../helpers/server.js';

/**
 * A renderer on a temp data dir. Its render limit is generous, for a machine running the suite beside other
 * work (a 3 s limit once timed out a one-line document there); tests of the limit set their own.
 */
export async function startRenderer(overrides: Partial<Config> = {}): Promise<Renderer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'quire-render-'));
  const config = loadConfig(
    {},
    { dataDir, renderTimeoutMs: 60_000, ...SHARED_CHROMIUM, ...PAGE_ECONOMY, ...overrides },
  );
  return Renderer.start(config);
}

export function job(html: string, page: PageOptionsInput = {}, extra: Partial<RenderJob> = {}): RenderJob {
  return { html, page: resolvePageOptions(page), watermark: false, ...extra };
}

/** The AppError a promise rejects with (fails the test when it resolves or throws something else). */
export async function appError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the render to fail');
}

export interface TestServer {
  origin: string;
  port: number;
  /** Paths requested so far (WebSocket upgrades as "WS <path>"). */
  hits: string[];
  close(): Promise<void>;
}

/** A loopback HTTP server for resource tests; `routes` maps a path to its handler. */
export async function testServer(routes: Record<string, http.RequestListener>): Promise<TestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const handler = routes[url.pathname];
    if (handler) return handler(req, res);
    res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`WS ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For the describe block it is called in: a page server with `routes` (testServer), and a Quire test server
 * allowed to fetch from it (urlAllowHosts) with a team on `plan`; both closed after the block, the Quire
 * server first. `use` receives them once they run (in `before`).
 */
export function serverWithPages(
  routes: Record<string, http.RequestListener>,
  plan: PlanId,
  overrides: Partial<Config>,
  use: (all: { pages: TestServer; server: QuireServer; team: TestTeam }) => void,
): void {
  let pages: TestServer | undefined;
  let server: QuireServer | undefined;
  before(async () => {
    pages = await testServer(routes);
    server = await startTestServer({ urlAllowHosts: [`127.0.0.1:${pages.port}`], ...overrides });
    use({ pages, server, team: await server.team(plan) });
  });
  after(async () => {
    await server?.close();
    await pages?.close();
  });
}

/** A 3×2 red PNG. */
export const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==',
  'base64',
);
