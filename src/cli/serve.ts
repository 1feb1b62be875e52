import type { PlanId } from '../accounts/plans.js';
import { countTeams, createApiKey, createTeam } from '../accounts/teams.js';
import { buildApp } from '../app.js';
import type { Config } from '../config/config.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';

/** First run: a default team with a live and a test key, printed once (the keys are stored only hashed). */
async function ensureDefaultTeam(
  db: Db,
  clock: Clock,
  plan: PlanId,
  print: (line: string) => void,
): Promise<void> {
  if ((await countTeams(db)) > 0) return;
  const team = await createTeam(db, clock, { name: 'Default team', plan, emailVerified: false });
  const live = await createApiKey(db, clock, { teamId: team.id, mode: 'live' });
  const test = await createApiKey(db, clock, { teamId: team.id, mode: 'test' });
  print('');
  print(`Created the default team "${team.name}" (${team.id}) on the ${plan} plan.`);
  print(`  Live key: ${live.key}`);
  print(`  Test key: ${test.key}`);
  print('These keys are shown only now; create more with `npx quire key create --team TEAM_ID --mode live`.');
  print('');
}

/** `quire serve`: migrate, first-run set-up, listen, and drain on SIGTERM/SIGINT. */
export async function serve(config: Config, print: (line: string) => void): Promise<void> {
  const started = Date.now();
  const built = await buildApp(config);
  await ensureDefaultTeam(built.services.db, built.services.clock, config.defaultPlan as PlanId, print);
  await built.app.listen({ host: config.host, port: config.port });
  print(
    `Quire is serving ${built.services.publicUrl()}/v1 (API docs: ${built.services.publicUrl()}/docs) — ready in ${Date.now() - started} ms`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    built.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await built.close();
      process.exit(0);
    } catch (err) {
      built.app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
