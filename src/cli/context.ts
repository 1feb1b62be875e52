import { loadPlans } from '../accounts/index.js';
import { type Config, loadConfig } from '../config/config.js';
import { type Db, openDatabase } from '../storage/index.js';
import type { BillingContext } from './billing-commands.js';
import { cliClock } from './clock.js';

/** What every command gets from main(): where its output goes, and whether `--json` asked for JSON. */
export interface CliIo {
  print: (line: string) => void;
  /** `--json` was given: the command prints JSON (one document, or one object a line for exports) instead of text. */
  json: boolean;
}

/** The team, key, user and usage commands: the database, the CLI's clock, the plans and the configuration. */
export interface AccountContext extends BillingContext, CliIo {
  config: Config;
}

/** Runs `use` on the configured database, closed afterwards whatever happens. */
export async function withAccounts(io: CliIo, use: (ctx: AccountContext) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const db: Db = await openDatabase(config.dataDir, config.databaseUrl);
  try {
    await use({ ...io, db, config, clock: cliClock(), plans: loadPlans(config.plansFile) });
  } finally {
    await db.destroy();
  }
}
