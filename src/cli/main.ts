import { loadPlans } from '../accounts/plans.js';
import { CONFIG_KEYS, type Config, ConfigError, effectiveSettings, loadConfig } from '../config/config.js';
import { quireVersion } from '../shared/version.js';
import { type Db, openDatabase } from '../storage/index.js';
import { openBlobStore } from '../storage/open-blob-store.js';
import { usageExport } from './billing-commands.js';
import { cliClock } from './clock.js';
import { serve } from './serve.js';
import { StartupProblem } from './startup-problem.js';
import { keyList, teamDelete } from './team-admin.js';
import { keyCommand, teamCommand } from './team-commands.js';
import { overview, usageFor, wantsHelp } from './usage.js';
import { UsageError } from './usage-error.js';
import { userCommand } from './user-commands.js';

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    // Help and version come first: no configuration is read and nothing starts (`serve --help` too).
    if (wantsHelp(argv)) return print(usageFor(argv));
    if (command === '--version' || command === '-v' || command === 'version') return print(quireVersion());
    await run(command, rest);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof StartupProblem) {
      process.stderr.write(`Quire cannot start: ${err.message}\n`);
      process.exit(1);
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
    case 'usage':
      return withDatabase(loadConfig(), (db, config) => accountCommand(command, rest, db, config));
    case 'user':
      return withDatabase(loadConfig(), (db, config) =>
        userCommand({ db, clock: cliClock(), config, print }, rest),
      );
    case 'backup':
    case 'restore': {
      const { backupCommand, restoreCommand } = await import('./backup.js');
      const run = command === 'backup' ? backupCommand : restoreCommand;
      return run(loadConfig(), rest, print);
    }
    case 'migrate-data': {
      const { migrateData } = await import('./migrate-data.js');
      return migrateData(loadConfig(), rest, print);
    }
    case 'einvoice': {
      const { einvoiceCommand } = await import('./einvoice-commands.js');
      return einvoiceCommand(rest, print);
    }
    case 'config':
      if (rest.includes('--effective')) {
        for (const s of effectiveSettings(loadConfig())) print(`${s.env}=${s.value}`);
        return;
      }
      for (const k of CONFIG_KEYS) print(`| \`${k.env}\` | ${k.default} | ${k.description} |`);
      return;
    case undefined:
    case 'help':
      print(overview());
      return;
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${overview()}`);
  }
}

async function accountCommand(
  command: 'team' | 'key' | 'usage',
  rest: string[],
  db: Db,
  config: Config,
): Promise<void> {
  const [sub, ...args] = rest;
  const clock = cliClock();
  const ctx = { db, clock, plans: loadPlans(config.plansFile), print };
  if (command === 'usage') return usageExport(ctx, rest);
  if (command === 'team' && sub === 'delete') {
    const store = await openBlobStore(config.dataDir, config.storage);
    try {
      return await teamDelete(db, store.blobs, args, print);
    } finally {
      store.close();
    }
  }
  if (command === 'key' && sub === 'list') return keyList(db, args, print);
  if (command === 'team') return teamCommand(ctx, rest);
  return keyCommand(db, clock, rest, print);
}

async function withDatabase(config: Config, use: (db: Db, config: Config) => Promise<void>): Promise<void> {
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  try {
    await use(db, config);
  } finally {
    await db.destroy();
  }
}
