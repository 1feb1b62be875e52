import { readFileSync } from 'node:fs';
import { loadPlans } from '../accounts/plans.js';
import { type Config, ConfigError, redactUrl } from '../config/config.js';
import { logRecordLine } from '../shared/log-output.js';

/** What kind of start-up failure, as the JSON log record's `code` says (docs/operations.md "Logs"). */
export type StartupCode =
  | 'port_in_use'
  | 'port_not_allowed'
  | 'host_unavailable'
  | 'chromium_failed'
  | 'plans_file_invalid'
  | 'database_unreachable'
  | 'data_dir_not_writable';

/** A start-up failure explained in one line naming the setting to fix: printed without a stack, exit 1. */
export class StartupProblem extends Error {
  override name = 'StartupProblem';
  constructor(
    readonly code: StartupCode,
    message: string,
  ) {
    super(message);
  }
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
      'plans_file_invalid',
      `QUIRE_PLANS_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw new StartupProblem(
      'plans_file_invalid',
      `QUIRE_PLANS_FILE: ${file} is not valid JSON (${(err as Error).message}).`,
    );
  }
  try {
    loadPlans(file);
  } catch (err) {
    throw new StartupProblem(
      'plans_file_invalid',
      `QUIRE_PLANS_FILE: ${(err as Error).message.replace(/^plans file: /, '')} in ${file}.`,
    );
  }
}

/** The system error codes of a database server that is down, unknown or unreachable. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** PostgreSQL's refusals: wrong password / no such role (28P01, 28000), no such database (3D000). */
const REFUSED_BY_POSTGRES = new Set(['28P01', '28000', '3D000']);

/**
 * Turns the failures an operator causes by configuration into one line naming the setting and how to fix it;
 * anything else is returned unchanged (a bug, reported with its stack). `phase` tells a failure to build the
 * service (database, data directory, Chromium) from one to listen (port, host): both can say EACCES.
 */
export function explainStartupFailure(err: unknown, config: Config, phase: 'build' | 'listen'): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : '';
  // playwright's launch errors start with its method name; the first line says what went wrong.
  if (message.startsWith('browserType.launch')) {
    const reason = message.split('\n')[0]?.replace(/^browserType\.launch: /, '') ?? '';
    return new StartupProblem(
      'chromium_failed',
      `QUIRE_CHROMIUM_PATH: Chromium at ${config.chromiumPath} did not start (${reason.slice(0, 200)}). Install Chromium (npm run bootstrap does, or apt-get install chromium) or set QUIRE_CHROMIUM_PATH to a Chromium that runs.`,
    );
  }
  return phase === 'listen'
    ? (explainListenFailure(code, config) ?? err)
    : explainBuildFailure(err, code, config);
}

function explainListenFailure(code: string | undefined, config: Config): StartupProblem | null {
  if (code === 'EADDRINUSE')
    return new StartupProblem(
      'port_in_use',
      `QUIRE_PORT: port ${config.port} on ${config.host} is already in use. Stop the process that holds it or set QUIRE_PORT to a free port.`,
    );
  if (code === 'EACCES')
    return new StartupProblem(
      'port_not_allowed',
      `QUIRE_PORT: not allowed to listen on port ${config.port} (ports below 1024 need privileges). Set QUIRE_PORT to 1024 or above.`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartupProblem(
      'host_unavailable',
      `QUIRE_HOST: cannot listen on ${config.host} (no such local address). Set QUIRE_HOST to an address of this machine, e.g. 127.0.0.1 or 0.0.0.0.`,
    );
  return null;
}

/** The first error in `err`'s cause chain with a code (the driver's, under a migration's wrapper). */
function codedCause(err: unknown): (Error & { code: string }) | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (typeof (e as NodeJS.ErrnoException).code === 'string') return e as Error & { code: string };
  }
  return null;
}

function explainBuildFailure(err: unknown, code: string | undefined, config: Config): unknown {
  // Node 20 reports a refused connection to every address of a name as an AggregateError with the code.
  const cause = codedCause(err);
  if (config.databaseUrl && cause && (UNREACHABLE.has(cause.code) || REFUSED_BY_POSTGRES.has(cause.code))) {
    const reason = cause.message ? `${cause.code}: ${cause.message.split('\n')[0]}` : cause.code;
    return new StartupProblem(
      'database_unreachable',
      `QUIRE_DATABASE_URL: cannot connect to ${redactUrl(config.databaseUrl)} (${reason.slice(0, 200)}). Check that PostgreSQL runs there and that the URL's host, port, user, password and database are right.`,
    );
  }
  const file = (err as NodeJS.ErrnoException | undefined)?.path;
  if ((code === 'EACCES' || code === 'EROFS' || code === 'EPERM') && typeof file === 'string')
    return new StartupProblem(
      'data_dir_not_writable',
      `QUIRE_DATA_DIR: cannot write ${file} (${code}). Give the user running Quire write access to ${config.dataDir} or set QUIRE_DATA_DIR to a writable folder.`,
    );
  return err;
}

interface Streams {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown; isTTY?: boolean };
}

/**
 * A failed start of `quire serve` or `quire worker`, reported where their logs go: one JSON
 * record on stdout (pino's shape, level 60, `event: "startup_failed"`, a `code` and a `msg` that names the
 * setting and the fix; `problems` for invalid settings, `err` with the stack for a bug), so a log collector
 * sees why the process ended; the readable text on stderr only for a terminal or with QUIRE_LOG_FORMAT=pretty
 * (then instead of the record). Read from the environment: the configuration itself may be what failed.
 * Returns the exit code: 2 for invalid settings (like a usage error), else 1.
 */
export function reportStartupFailure(
  failure: unknown,
  env: NodeJS.ProcessEnv = process.env,
  streams: Streams = { out: process.stdout, err: process.stderr },
): number {
  const pretty = env.QUIRE_LOG_FORMAT?.trim() === 'pretty';
  const { code, text, fields } = describeFailure(failure);
  if (pretty || streams.err.isTTY === true) streams.err.write(`${text}\n`);
  if (!pretty)
    streams.out.write(logRecordLine(60, { event: 'startup_failed', code, ...fields }, oneLine(text)));
  return failure instanceof ConfigError ? 2 : 1;
}

function describeFailure(failure: unknown): { code: string; text: string; fields: Record<string, unknown> } {
  if (failure instanceof StartupProblem)
    return { code: failure.code, text: `Quire cannot start: ${failure.message}`, fields: {} };
  if (failure instanceof ConfigError) {
    const problems = failure.message
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => line.slice(4));
    return {
      code: 'invalid_configuration',
      text: failure.message,
      fields: { problems: problems.length > 0 ? problems : [failure.message] },
    };
  }
  const error = failure instanceof Error ? failure : new Error(String(failure));
  return {
    code: 'startup_failed',
    text: `Quire cannot start: ${error.stack ?? error.message}`,
    fields: { err: { type: error.name, message: error.message, stack: error.stack } },
  };
}

/** The text as one line: `Invalid configuration: A; B` rather than a list, a stack's first line only. */
function oneLine(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  const items = rest.filter((line) => line.startsWith('  - ')).map((line) => line.slice(4));
  return items.length > 0 ? `Quire cannot start: ${first.replace(/:$/, '')}: ${items.join('; ')}` : first;
}
