import type { PlanId } from '../accounts/plans.js';
import { countTeams, createApiKey, createTeam } from '../accounts/teams.js';
import type { BuiltApp } from '../app.js';
import type { Config } from '../config/config.js';
import type { Clock } from '../shared/clock.js';
import { type Db, withKeyLock } from '../storage/db.js';
import { checkPlansFile, explainStartupFailure } from './startup-problem.js';

/**
 * First run: a default team with a live and a test key, printed once (the keys are stored only hashed). Its
 * owner runs the server, so its email counts as verified: deliver.email works from the first start.
 * Several `quire serve` started together on an empty PostgreSQL (a scaled-out deployment's first start) take
 * turns under one lock: the first creates the team, the others find it and create none.
 * Returns the new team's id (null when teams exist already).
 */
async function ensureDefaultTeam(
  db: Db,
  clock: Clock,
  plan: PlanId,
  print: (line: string) => void,
): Promise<string | null> {
  const created = await withKeyLock(db, 'accounts.default-team', async (conn) => {
    if ((await countTeams(conn)) > 0) return null;
    const team = await createTeam(conn, clock, { name: 'Default team', plan, emailVerified: true });
    const live = await createApiKey(conn, clock, { teamId: team.id, mode: 'live', role: 'admin' });
    const test = await createApiKey(conn, clock, { teamId: team.id, mode: 'test', role: 'admin' });
    return { team, live, test };
  });
  if (!created) return null;
  const { team, live, test } = created;
  print('');
  print(`Created the default team "${team.name}" (${team.id}) on the ${plan} plan.`);
  print(`  Live key: ${live.key}`);
  print(`  Test key: ${test.key}`);
  print('These keys are shown only now; create more with `npx quire key create --team TEAM_ID --mode live`.');
  print('');
  return team.id;
}

/**
 * First run, once listening (the link needs the bound port): the dashboard's owner (QUIRE_ADMIN_EMAIL) and
 * a single-use sign-in link that asks for a password.
 */
async function printOwnerLink(
  built: BuiltApp,
  config: Config,
  teamId: string,
  print: (line: string) => void,
) {
  const { db, clock } = built.services;
  // Loaded here, like app.js: a first run only, off the start-up path of every other start.
  const { ensureAdminUser } = await import('../users/index.js');
  const admin = await ensureAdminUser(db, clock, {
    email: config.adminEmail,
    teamId,
    publicUrl: built.services.publicUrl(),
  });
  print(`Dashboard owner ${admin.user.email}: sign in within 24 hours (the link works once):`);
  print(`  ${admin.sign_in_url}`);
  print('');
}

/**
 * `quire serve`: migrate, first-run set-up, listen, and drain on SIGTERM/SIGINT (shutDown).
 *
 * Start-up order (issue 17, start to first PDF): Chromium is launched first, then the service's modules
 * load (app.js is imported only now, so the launch does not wait for them) and the migrations run while
 * Chromium boots on another core; buildApp awaits the browser only at its end, and meanwhile does the
 * first request's one-time work (a Liquid worker, the PDF route's schemas).
 */
export async function serve(config: Config, print: (line: string) => void): Promise<void> {
  const started = Date.now();
  checkPlansFile(config);
  const { startRendererEarly } = await import('../render/early-start.js');
  const earlyRenderer = await startRendererEarly(config);
  const built = await import('../app.js')
    .then(({ buildApp }) => buildApp(config, { earlyRenderer, warmUp: true }))
    .catch(async (err: unknown) => {
      await earlyRenderer.service.close().catch(() => undefined);
      throw explainStartupFailure(err, config);
    });
  const newTeam = await ensureDefaultTeam(
    built.services.db,
    built.services.clock,
    config.defaultPlan as PlanId,
    print,
  );
  await built.app.listen({ host: config.host, port: config.port }).catch(async (err: unknown) => {
    await built.close().catch(() => undefined);
    throw explainStartupFailure(err, config);
  });
  warnAboutWildcardLinks(config, (message) => built.app.log.warn(message));
  warnAboutTrustingEveryHop(config, (message) => built.app.log.warn(message));
  if (newTeam) await printOwnerLink(built, config, newTeam, print);
  print(
    `Quire is serving ${built.services.publicUrl()}/v1 (API docs: ${built.services.publicUrl()}/docs) — ready in ${Date.now() - started} ms`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await shutDown(built, config.shutdownGraceMs, signal);
  };
  // `once`: a second SIGINT/SIGTERM gets Node's default and ends the process at once.
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/**
 * Bound to every address without QUIRE_PUBLIC_URL, signed links and docs_url would say http://0.0.0.0:PORT
 * (issue 16 item 3): say so at start rather than in a customer's broken link.
 */
export function warnAboutWildcardLinks(config: Config, warn: (message: string) => void): void {
  if (config.publicUrl || !['0.0.0.0', '::', '[::]', ''].includes(config.host)) return;
  warn(
    `QUIRE_HOST is ${config.host || '(empty)'} (every address) and QUIRE_PUBLIC_URL is unset: links in responses would point at ${config.host || '0.0.0.0'}. Set QUIRE_PUBLIC_URL to the address clients use.`,
  );
}

/**
 * QUIRE_TRUST_PROXY=true takes the left-most X-Forwarded-For address, which the client writes itself: it
 * could pick a fresh address for every sign-in attempt and per-IP budget. Still accepted (a proxy that
 * replaces the header makes it safe), but said at start.
 */
export function warnAboutTrustingEveryHop(config: Config, warn: (message: string) => void): void {
  if (config.trustProxy !== true) return;
  warn(
    'QUIRE_TRUST_PROXY=true trusts every X-Forwarded-For hop: unless your proxy replaces that header, a client can choose the address its sign-in throttling and per-IP budget count under. Set the number of proxies in front of Quire (e.g. 1) or their addresses/CIDRs instead.',
  );
}

/** How often connections that went idle during the drain are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * Graceful shutdown (issue 11 item 12): stop accepting connections, let requests in flight — renders
 * included — finish for up to `graceMs`, then close the connections still open; then background
 * workers, Chromium and the database, in that order (BuiltApp.close). Chromium outlives the signal:
 * playwright's own signal handlers are off (render/browser-supervisor.ts).
 */
async function shutDown(built: BuiltApp, graceMs: number, signal: string): Promise<void> {
  const log = built.app.log;
  log.info({ signal, grace_ms: graceMs }, 'shutting down: finishing in-flight requests');
  const grace = setTimeout(() => {
    log.warn({ grace_ms: graceMs }, 'shutdown grace period over; closing the connections still open');
    built.app.server.closeAllConnections();
  }, graceMs);
  // Closing the server ends only the connections idle at that moment; a keep-alive connection whose
  // request finishes later would hold the shutdown until its keep-alive timeout.
  const idle = setInterval(() => built.app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await built.close();
    clearTimeout(grace);
    clearInterval(idle);
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
