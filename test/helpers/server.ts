import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Role } from '../../src/accounts/auth-context.js';
import type { PlanId } from '../../src/accounts/plans.js';
import { createApiKey, createTeam, type Team } from '../../src/accounts/teams.js';
import { type BuildOptions, type BuiltApp, buildApp } from '../../src/app.js';
import { type Config, loadConfig, parseStorageUrl } from '../../src/config/config.js';
import type { Clock } from '../../src/shared/clock.js';
import type { Db } from '../../src/storage/db.js';
import { createSignInLink, type SignInLink } from '../../src/users/index.js';
import { PAGE_ECONOMY, SHARED_CHROMIUM } from './chromium.js';
import { createMigratedTestDatabase, seedMigratedSqlite } from './database.js';
import { type Rng, rng } from './random.js';
import { borrowEngines } from './shared-engines.js';

export interface TestTeam {
  team: Team;
  live: string;
  test: string;
}

export interface TestServer {
  base: string;
  built: BuiltApp;
  config: Config;
  /** A new team with a live and a test key. */
  team(plan?: PlanId, options?: { email?: string; emailVerified?: boolean }): Promise<TestTeam>;
  close(): Promise<void>;
}

/**
 * QUIRE_TEST_STORAGE_URL runs the suite on an S3-compatible store (`npm run test:s3` starts one): each server
 * gets its own prefix under it, as each gets its own data directory.
 */
function testStorage(): Config['storage'] {
  const raw = process.env.QUIRE_TEST_STORAGE_URL;
  const location = raw ? parseStorageUrl(raw, 'QUIRE_TEST_STORAGE_URL') : null;
  return location && { ...location, prefix: `${location.prefix}${randomUUID()}/` };
}

/**
 * Test servers' Liquid limit: five times the spec's second, for a machine running the suite beside other work.
 * Tests about the limit start their server with `{ liquidRenderMs: LIQUID_LIMITS.renderMs }`.
 */
const TEST_LIQUID_RENDER_MS = 5_000;

/** A fresh data directory and database, and the app's config for them; `remove` deletes both. */
export interface TestAppConfig {
  config: Config;
  remove(): Promise<void>;
}

/**
 * The config of a test's own app: a fresh data directory (named after `dirPrefix`) and a fresh database with
 * every migration applied (SQLite in it, or PostgreSQL under QUIRE_TEST_DATABASE_URL; copies of a migrated
 * template, see database.ts), loopback on a free port, silent logs; `settings` on top. A `databaseUrl` or
 * `dataDir` among the settings is used as given, and the app migrates it.
 */
export async function createTestAppConfig(
  dirPrefix: string,
  settings: Partial<Config> = {},
): Promise<TestAppConfig> {
  const dataDir = mkdtempSync(path.join(tmpdir(), dirPrefix));
  // A database or a data directory the test names (a migration's, one Quire is to create) is used as named,
  // and the app migrates it.
  const database =
    settings.databaseUrl !== undefined
      ? { url: null, drop: async () => {} }
      : await createMigratedTestDatabase();
  if (!database.url && settings.databaseUrl === undefined && settings.dataDir === undefined)
    await seedMigratedSqlite(dataDir);
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: database.url,
      host: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      ...settings,
    },
  );
  return {
    config,
    async remove() {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new team with a live and a test admin key, as the first run or `quire team create` makes one. */
export async function createTestTeam(
  db: Db,
  clock: Clock,
  plan: PlanId = 'growth',
  options: { email?: string; emailVerified?: boolean } = {},
): Promise<TestTeam> {
  const team = await createTeam(db, clock, {
    name: `Team ${plan}`,
    plan,
    email: options.email ?? 'owner@example.com',
    emailVerified: options.emailVerified ?? true,
  });
  const live = await createApiKey(db, clock, { teamId: team.id, mode: 'live', role: 'admin' });
  const test = await createApiKey(db, clock, { teamId: team.id, mode: 'test', role: 'admin' });
  return { team, live: live.key, test: test.key };
}

/**
 * A one-time dashboard sign-in link for `email` as `role` in the team, made as `quire user create` makes one
 * (the user and the membership too, when new): the way a test's user gets in without an email.
 */
export function createTestSignInLink(
  server: TestServer,
  email: string,
  teamId: string,
  role: Role,
): Promise<SignInLink> {
  const { db, clock } = server.built.services;
  return createSignInLink(db, clock, { email, teamId, role, publicUrl: server.base });
}

/** The token of a sign-in link's URL, as the dashboard's page reads it. */
export function signInToken(signInUrl: string): string {
  return decodeURIComponent(/token=(.+)$/.exec(signInUrl)?.[1] ?? '');
}

/**
 * Starts the real app on a free loopback port with a fresh data directory (real SQLite, real HTTP), or with
 * QUIRE_TEST_DATABASE_URL a fresh PostgreSQL database of its own (see database.ts).
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestServer> {
  const { config, remove } = await createTestAppConfig('quire-test-', {
    storage: testStorage(),
    // The spec's 30 s limit is for a render on a working machine; beside a CPU hog an invoice has taken
    // longer, and a test that is not about the limit must not fail on it. Tests of the limit set their own.
    renderTimeoutMs: 120_000,
    ...SHARED_CHROMIUM,
    ...PAGE_ECONOMY,
    ...overrides,
  });
  let built: BuiltApp;
  const liquidRenderMs = options.liquidRenderMs ?? TEST_LIQUID_RENDER_MS;
  const { release, ...loan } = options.earlyRenderer
    ? { release: () => undefined }
    : borrowEngines(config, liquidRenderMs);
  try {
    built = await buildApp(config, {
      warmRenderer: false,
      startSweeper: false,
      liquidRenderMs,
      ...loan,
      ...options,
    });
  } catch (err) {
    release();
    await remove();
    throw err;
  }
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const base = built.services.publicUrl();
  return {
    base,
    built,
    config,
    team: (plan, teamOptions) => createTestTeam(built.services.db, built.services.clock, plan, teamOptions),
    async close() {
      await built.close();
      release();
      await remove();
    },
  };
}

/** Config overrides, or a function giving them when the server starts (for what an earlier `before` starts). */
type Overrides = Partial<Config> | (() => Partial<Config>);

/**
 * For the describe block it is called in: a test server (as startTestServer makes it), closed after the block;
 * `use` receives it once it runs (in a `before` hook where the call stands: ahead of the block's later ones,
 * which may use it).
 */
export function serverForBlock(
  use: (server: TestServer) => unknown,
  overrides: Overrides = {},
  options: BuildOptions = {},
): void {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer(typeof overrides === 'function' ? overrides() : overrides, options);
    await use(server);
  });
  after(async () => server?.close());
}

/** serverForBlock with a new team on `plan` in the server: the set-up most describe blocks share. */
export function serverWithTeam(
  plan: PlanId,
  use: (both: { server: TestServer; team: TestTeam }) => void,
  overrides: Overrides = {},
  options: BuildOptions = {},
): void {
  serverForBlock(async (server) => use({ server, team: await server.team(plan) }), overrides, options);
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  json: any;
  buffer: Buffer;
}

/** What a request sends beyond its method and path: a bearer key, and a JSON body or a raw one. */
export interface ApiOptions {
  key?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** One HTTP request with an optional bearer key and JSON body. */
export async function api(
  base: string,
  method: string,
  urlPath: string,
  options: ApiOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Blob | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  } else if (options.rawBody !== undefined) {
    body =
      typeof options.rawBody === 'string' ? options.rawBody : new Blob([new Uint8Array(options.rawBody)]);
  }
  const response = await fetch(`${base}${urlPath}`, { method, headers, body });
  const buffer = Buffer.from(await response.arrayBuffer());
  const text = buffer.toString('utf8');
  let json: unknown = null;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status: response.status, headers: response.headers, text, json, buffer };
}

/** POST /v1/pdf that must render (200), with the key and body given: its answer. */
export async function renderedPdf(server: TestServer, key: string, body: unknown): Promise<ApiResponse> {
  const r = await api(server.base, 'POST', '/v1/pdf', { key, body });
  assert.equal(r.status, 200, r.text);
  return r;
}

/**
 * A property of POST /v1/pdf: `runs` random bodies (`randomBody`, from `seed`) with `key`. A 200 must be a
 * PDF; `check` judges every other answer (`what` names the body and the answer for its messages). Both a
 * PDF and a 400 must turn up.
 */
export async function pdfBodiesProperty<Body>(
  server: TestServer,
  key: string,
  run: { seed: number; runs: number; randomBody(r: Rng): Body },
  check: (res: ApiResponse, body: Body, what: string) => void,
): Promise<void> {
  const r = rng(run.seed);
  const seen = new Set<number>();
  for (let i = 0; i < run.runs; i++) {
    const body = run.randomBody(r);
    const res = await api(server.base, 'POST', '/v1/pdf', { key, body });
    const what = `#${i} ${JSON.stringify(body).slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
    seen.add(res.status);
    if (res.status === 200) assert.equal(res.buffer.subarray(0, 5).toString('latin1'), '%PDF-', what);
    else check(res, body, what);
  }
  assert.ok(seen.has(200) && seen.has(400), `statuses seen: ${[...seen].join(', ')}`);
}

/**
 * One page of a list route (newest first), of `limit` entries after the cursor `next` of the page before: its
 * ids, and its own `next` (null on the last).
 */
export async function listPage(
  base: string,
  key: string,
  listPath: string,
  limit: number,
  next?: string | null,
): Promise<{ ids: string[]; next: string | null }> {
  const cursor = next ? `&before=${encodeURIComponent(next)}` : '';
  const r = await api(base, 'GET', `${listPath}?limit=${limit}${cursor}`, { key });
  assert.equal(r.status, 200, r.text);
  return { ids: r.json.data.map((entry: { id: string }) => entry.id), next: r.json.next_before };
}

export const REQUEST_ID = /^req_[0-9a-f]{32}$/;

/** The same link with the first hex digit of its `sig` changed, so it is always a different (wrong) signature. */
export function forgeSignature(link: string): string {
  return link.replace(/sig=([0-9a-f])/, (_, digit: string) => `sig=${digit === '0' ? '1' : '0'}`);
}
