import { readFileSync } from 'node:fs';
import { loadPlans } from '../accounts/plans.js';
import type { Config } from '../config/config.js';

/** A start-up failure explained in one line naming the setting to fix: printed without a stack, exit 1. */
export class StartupProblem extends Error {
  override name = 'StartupProblem';
}

/** Checks QUIRE_PLANS_FILE before anything starts: readable, JSON, known plans and settings. */
export function checkPlansFile(config: Config): void {
  const file = config.plansFile;
  if (!file) return;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new StartupProblem(
      `QUIRE_PLANS_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw new StartupProblem(`QUIRE_PLANS_FILE: ${file} is not valid JSON (${(err as Error).message}).`);
  }
  try {
    loadPlans(file);
  } catch (err) {
    throw new StartupProblem(
      `QUIRE_PLANS_FILE: ${(err as Error).message.replace(/^plans file: /, '')} in ${file}.`,
    );
  }
}

/**
 * Turns the failures an operator causes by configuration into one line naming the setting; anything else
 * is returned unchanged (a bug, shown with its stack).
 */
export function explainStartupFailure(err: unknown, config: Config): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : '';
  if (code === 'EADDRINUSE')
    return new StartupProblem(`QUIRE_PORT: port ${config.port} on ${config.host} is already in use.`);
  if (code === 'EACCES')
    return new StartupProblem(
      `QUIRE_PORT: not allowed to listen on port ${config.port} (ports below 1024 need privileges).`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartupProblem(`QUIRE_HOST: cannot listen on ${config.host} (no such local address).`);
  // playwright's launch errors start with its method name; the first line says what went wrong.
  if (message.startsWith('browserType.launch')) {
    const reason = message.split('\n')[0]?.replace(/^browserType\.launch: /, '') ?? '';
    return new StartupProblem(
      `QUIRE_CHROMIUM_PATH: Chromium at ${config.chromiumPath} did not start (${reason.slice(0, 200)}).`,
    );
  }
  return err;
}
