import type { PlanId } from '../accounts/index.js';
import type { BuiltApp } from '../app.js';
import type { Config } from '../config/config.js';
import type { RenderLogger } from '../render/index.js';
import { type Announce, logProcessWarnings } from '../shared/log-output.js';
import { recordServerState, withKeyLock } from '../storage/index.js';
import type { SignInLink } from '../users/index.js';
import { StartupPhases } from './startup-phases.js';
import { checkPlansFile, explainStartupFailure } from './startup-problem.js';

/**
 * First run, once the server listens (a busy port must not swallow the one-time output): a default
 * team with a live and a test key, and the dashboard's owner (QUIRE_ADMIN_EMAIL) with a single-use sign-in
 * link on the bound port. All in one transaction, printed after it commits: the keys are stored only hashed,
 * so they are printed exactly once, and only by a process that is serving. Its owner runs the server, so the
 * team's email counts as verified: deliver.email works from the first start.
 * Several `quire serve` started together on an empty PostgreSQL (a scaled-out deployment's first start) take
 * turns under one lock: the first creates the team, the others find it and create none.
 */
async function createDefaultTeam(
  built: BuiltApp,
  config: Config,
  accounts: Pick<AccountsModule, 'countTeams' | 'createApiKey' | 'createTeam'>,
  users: UsersModule,
) {
  const { db, clock } = built.services;
  const { countTeams, createApiKey, createTeam } = accounts;
  const plan = config.defaultPlan as PlanId;
  return withKeyLock(db, 'accounts.default-team', (conn) =>
    conn.transaction().execute(async (trx) => {
      if ((await countTeams(trx)) > 0) return null;
      const team = await createTeam(trx, clock, { name: 'Default team', plan, emailVerified: true });
      const live = await createApiKey(trx, clock, { teamId: team.id, mode: 'live', role: 'admin' });
      const test = await createApiKey(trx, clock, { teamId: team.id, mode: 'test', role: 'admin' });
      const owner = await users.createSignInLink(trx, clock, {
        email: config.adminEmail,
        teamId: team.id,
        role: 'owner',
        publicUrl: built.services.publicUrl(),
      });
      return { team, plan, live: live.key, test: test.key, owner };
    }),
  );
}

type AccountsModule = typeof import('../accounts/index.js');
type UsersModule = typeof import('../users/index.js');

/**
 * After listening: the first run's team, keys and owner link; on any later start, a fresh owner link while
 * the owner has never signed in (the first link may have expired unused, or gone with the terminal).
 */
async function announceAccess(built: BuiltApp, config: Config, announce: Announce): Promise<void> {
  // Loaded here, like app.js, off the path to listening.
  const [{ countTeams, createApiKey, createTeam }, users] = await Promise.all([
    import('../accounts/index.js'),
    import('../users/index.js'),
  ]);
  const created = await createDefaultTeam(built, config, { countTeams, createApiKey, createTeam }, users);
  if (created) {
    const { team, plan, live, test } = created;
    announce(
      'default_team_created',
      [
        '',
        `Created the default team "${team.name}" (${team.id}) on the ${plan} plan.`,
        `  Live key: ${live}`,
        `  Test key: ${test}`,
        'These keys are shown only now; create more with `quire key create --team TEAM_ID --mode live` (`npx quire …` in a checkout).',
        '',
      ],
      { team_id: team.id, plan, live_key: live, test_key: test },
    );
    printOwnerLink(created.owner, announce);
    return;
  }
  const { db, clock } = built.services;
  const renewed = await users.renewOwnerLink(db, clock, {
    email: config.adminEmail,
    publicUrl: built.services.publicUrl(),
  });
  if (renewed) printOwnerLink(renewed, announce, ' (a new link at every start until the owner signs in)');
}

function printOwnerLink(link: SignInLink, announce: Announce, note = ''): void {
  announce(
    'owner_sign_in_link',
    [
      `Dashboard owner ${link.user.email}: sign in within 24 hours (the link works once)${note}:`,
      `  ${link.sign_in_url}`,
      '',
    ],
    { email: link.user.email, sign_in_url: link.sign_in_url },
  );
}

/**
 * `quire serve`: migrate, listen, first-run set-up (or the owner's fresh link), and drain on SIGTERM/SIGINT (shutDown).
 *
 * Start-up order (start to first PDF): Chromium is launched first, then the service's modules
 * load (app.js is imported only now, so the launch does not wait for them) and the migrations run while
 * Chromium boots on another core; buildApp awaits the browser only at its end, and meanwhile does the
 * first request's one-time work (a Liquid worker, the PDF route's schemas).
 */
export async function serve(config: Config, announce: Announce): Promise<void> {
  const started = Date.now();
  const phases = new StartupPhases();
  phases.mark('cli');
  checkPlansFile(config);
  const { startRendererEarly } = await import('../render/early-start.js');
  const earlyRenderer = await startRendererEarly(config);
  markChromiumStarted(earlyRenderer.log, phases);
  earlyRenderer.service.warm().then(
    () => phases.mark('first_page'),
    () => undefined,
  );
  const { built, rulesCompiler } = await Promise.all([import('../app.js'), prepareRules(config)])
    .then(async ([{ buildApp }, { rules, compiler }]) => {
      phases.mark('modules');
      const built = await buildApp(config, {
        earlyRenderer,
        warmUp: true,
        einvoiceRules: rules,
        onStartupPhase: (phase) => phases.mark(phase),
      });
      phases.mark('warm');
      return { built, rulesCompiler: compiler };
    })
    .catch(async (err: unknown) => {
      await earlyRenderer.service.close().catch(() => undefined);
      throw explainStartupFailure(err, config, 'build');
    });
  await built.app.listen({ host: config.host, port: config.port }).catch(async (err: unknown) => {
    await built.close().catch(() => undefined);
    throw explainStartupFailure(err, config, 'listen');
  });
  phases.mark('listening');
  logProcessWarnings(built.app.log);
  warnAboutWildcardLinks(config, (message) => built.app.log.warn(message));
  warnAboutTrustingEveryHop(config, (message) => built.app.log.warn(message));
  // The CLI's `user create` links to where this server is reachable, not to its own environment's defaults.
  await recordServerState(built.services.db, built.services.clock, 'public_url', built.services.publicUrl());
  await announceAccess(built, config, announce);
  const base = built.services.publicUrl();
  const readyMs = Date.now() - started;
  phases.mark('serving');
  announce('serving', [`Quire is serving ${base}/v1 (API docs: ${base}/docs) — ready in ${readyMs} ms`], {
    api_url: `${base}/v1`,
    docs_url: `${base}/docs`,
    ready_ms: readyMs,
    startup_ms: phases.report(),
  });
  // Only now: nothing a first PDF does not need runs before it (issue 54).
  rulesCompiler?.start(built.app.log);
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
 * Chromium's launch is logged by its supervisor into the renderer's early log (render/early-start.ts),
 * which holds lines until the server's logger exists: the phase is taken as the line is written. A launch
 * done before serve began (its line already held) leaves the phase out.
 */
function markChromiumStarted(log: RenderLogger, phases: StartupPhases): void {
  const info = log.info.bind(log);
  log.info = (fields, message) => {
    if (message === 'chromium started') phases.mark('chromium');
    info(fields, message);
  };
}

/**
 * The e-invoice rules this server checks with, and the compile of those that may be outdated (a checkout
 * after a clone, pull or install), which starts once the server listens.
 */
async function prepareRules(config: Config) {
  const [{ CompiledRules, mayBeOutdated }, { RulesCompiler }] = await Promise.all([
    import('../einvoice-inbound/index.js'),
    import('./einvoice-rules.js'),
  ]);
  const rules = new CompiledRules(config.einvoiceRulesDir);
  return { rules, compiler: RulesCompiler.prepare(rules, mayBeOutdated) };
}

/**
 * Bound to every address without QUIRE_PUBLIC_URL, signed links and docs_url would say
 * http://0.0.0.0:PORT: say so at start rather than in a customer's broken link.
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

/**
 * Graceful shutdown: stop accepting connections, let requests in flight — renders
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
  try {
    // BuiltApp.close also ends the keep-alive connections that go idle during the drain.
    await built.close();
    clearTimeout(grace);
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
