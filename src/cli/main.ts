import { ConfigError } from '../config/config.js';
import { quireVersion } from '../shared/version.js';
import { type Command, findCommand } from './commands.js';
import type { CliIo } from './context.js';
import { reportStartupFailure, StartupProblem } from './startup-problem.js';
import { commandHelp, overview, usageFor, wantsHelp } from './usage.js';
import { UsageError } from './usage-error.js';

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    // Help and version come first: no configuration is read and nothing starts (`serve --help` too).
    if (wantsHelp(argv)) return print(usageFor(argv));
    if (command === '--version' || command === '-v') return print(quireVersion());
    if (command === undefined || command === 'help') return print(usageFor(rest));
    await run(command, rest);
  } catch (err) {
    if (err instanceof UsageError || isParseArgsError(err)) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(2);
    }
    // The long-running commands write logs: their start-up failures are a log record.
    if (command === 'serve' || command === 'worker') process.exit(reportStartupFailure(err));
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof StartupProblem) {
      process.stderr.write(`Quire cannot start: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** node:util parseArgs' refusal of an unknown or malformed option: a usage error. */
function isParseArgsError(err: unknown): boolean {
  return (
    err instanceof Error &&
    err.name === 'TypeError' &&
    'code' in err &&
    String(err.code).startsWith('ERR_PARSE_ARGS')
  );
}

/** Finds the command (and subcommand) in COMMANDS and runs it with `--json` taken off its arguments. */
async function run(name: string, args: string[]): Promise<void> {
  const command = findCommand(name);
  if (!command) throw new UsageError(`Unknown command "${name}".\n\n${overview()}`);
  const { rest, json } = takeJsonFlag(command, args);
  const io: CliIo = { print, json };
  if (command.run) return command.run(rest, io);
  const [subName, ...subArgs] = rest;
  const sub = command.subcommands?.find((s) => s.name === subName);
  if (!sub) {
    const problem = subName === undefined ? 'needs a subcommand' : `has no subcommand "${subName}"`;
    throw new UsageError(`quire ${name} ${problem}.\n\n${commandHelp(command)}`);
  }
  return sub.run(subArgs, io);
}

/** `--json` (before any `--`) for the commands that print data; serve and worker keep it as an argument. */
function takeJsonFlag(command: Command, args: string[]): { rest: string[]; json: boolean } {
  const end = args.indexOf('--');
  const head = end === -1 ? args : args.slice(0, end);
  if (!command.json || !head.includes('--json')) return { rest: args, json: false };
  const tail = end === -1 ? [] : args.slice(end);
  return { rest: [...head.filter((a) => a !== '--json'), ...tail], json: true };
}
