import { loadPlans } from '../accounts/plans.js';
import { CONFIG_KEYS, ConfigError, loadConfig } from '../config/config.js';
import { openDatabase } from '../storage/index.js';
import { usageExport } from './billing-commands.js';
import { cliClock } from './clock.js';
import { serve } from './serve.js';
import { keyCommand, teamCommand } from './team-commands.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: quire <command>

  serve                                   run the HTTP API (and in-process workers)
  worker                                  run background workers only, against the same database
  team create --name NAME --plan PLAN [--email ADDRESS] [--email-verified] [--json]
  team suspend TEAM_ID | team unsuspend TEAM_ID | team set-plan TEAM_ID PLAN | team list [--json]
  team billing TEAM_ID [--json]
  team set-billing TEAM_ID [--subscription active|past_due|cancel_scheduled|none]
                   [--spending-cap-cents N | --no-spending-cap] [--overage-billed]
  usage export --period YYYY-MM [--format csv|json]
  key create --team TEAM_ID --mode live|test [--json]
  key revoke KEY_OR_PREFIX
  config                                  print the configuration keys (environment variables)
  migrate-data --to DATA_DIR|postgres://… [--storage s3://BUCKET/PREFIX?…]
                                          copy this install (all tables, all blobs) and verify the copy

Configuration comes from environment variables (see \`quire config\`).`;

const print = (line: string) => process.stdout.write(`${line}\n`);

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    await run(command, rest);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    if (
      err instanceof Error &&
      err.name === 'TypeError' &&
      'code' in err &&
      String(err.code).startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

async function run(command: string | undefined, rest: string[]): Promise<void> {
  switch (command) {
    case 'serve':
      return serve(loadConfig(), print);
    case 'worker': {
      const { runWorkerProcess } = await import('./worker.js');
      return runWorkerProcess(loadConfig(), print);
    }
    case 'team':
    case 'key':
    case 'usage': {
      const config = loadConfig();
      const clock = cliClock();
      const db = await openDatabase(config.dataDir, config.databaseUrl);
      const ctx = { db, clock, plans: loadPlans(config.plansFile), print };
      try {
        if (command === 'team') await teamCommand(ctx, rest);
        else if (command === 'usage') await usageExport(ctx, rest);
        else await keyCommand(db, clock, rest, print);
      } finally {
        await db.destroy();
      }
      return;
    }
    case 'migrate-data': {
      const { migrateData } = await import('./migrate-data.js');
      return migrateData(loadConfig(), rest, print);
    }
    case 'config':
      for (const k of CONFIG_KEYS) print(`| \`${k.env}\` | ${k.default} | ${k.description} |`);
      return;
    case undefined:
    case 'help':
    case '--help':
      print(HELP);
      return;
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
  }
}
