import { COMMANDS, type Command, findCommand, SECTIONS, type Subcommand } from './commands.js';

/**
 * Help texts, all built from COMMANDS (commands.ts): the overview (`quire`, `quire help`, `quire --help`), a
 * command group's help (`quire help team`, `quire team --help`) and one subcommand's (`quire team create
 * --help`). `--help`/`-h` anywhere before `--` prints help and exits 0 before anything runs (no config, no
 * database).
 */

const HELP_FOOTER = [
  '`quire help COMMAND` or `quire COMMAND --help`: its subcommands, options and examples.',
  '--json: every command that prints data prints JSON instead (serve and worker log JSON lines).',
  'Configuration comes from environment variables (`quire config`).',
];

/** `quire team create --name NAME … [--json]`: the whole command line of a command or subcommand. */
export function commandLine(command: Command, sub?: Subcommand): string {
  const words = ['quire', command.name, sub?.name, sub ? sub.args : command.args].filter(Boolean);
  return `${words.join(' ')}${command.json ? ' [--json]' : ''}`;
}

/** What a group's first line lists: `team create|list|…` or `backup DIR`. */
function synopsis(command: Command): string {
  if (command.subcommands) return `${command.name} ${command.subcommands.map((s) => s.name).join('|')}`;
  return [command.name, command.args].filter(Boolean).join(' ');
}

function indented(lines: readonly string[], by = '  '): string[] {
  return lines.map((line) => `${by}${line}`);
}

/** The overview: every command under its section with all its subcommands, then examples. */
export function overview(): string {
  const lines = ['Usage: quire <command> [subcommand] [options]', ''];
  for (const section of SECTIONS) {
    lines.push(`${section}:`);
    for (const command of COMMANDS.filter((c) => c.section === section))
      lines.push(`  ${synopsis(command)}`, `      ${command.summary}`);
    lines.push('');
  }
  lines.push('Examples:', ...indented(COMMANDS.flatMap((c) => c.examples.slice(0, 1))), '', ...HELP_FOOTER);
  return lines.join('\n');
}

/** A command's help: its usage, what it does and, for a group, each subcommand with its usage. */
export function commandHelp(command: Command): string {
  const lines: string[] = [];
  if (command.subcommands) {
    lines.push(
      `Usage: quire ${command.name} <subcommand> [options]`,
      '',
      command.summary,
      '',
      'Subcommands:',
    );
    for (const sub of command.subcommands)
      lines.push(`  ${commandLine(command, sub)}`, `      ${sub.summary}`);
  } else {
    lines.push(`Usage: ${commandLine(command)}`, '', command.summary);
    if (command.details) lines.push(command.details);
  }
  lines.push('', 'Examples:', ...indented(command.examples));
  if (command.subcommands) lines.push('', `\`quire ${command.name} SUBCOMMAND --help\` for one subcommand.`);
  return lines.join('\n');
}

/** One subcommand's help. */
function subcommandHelp(command: Command, sub: Subcommand): string {
  const lines = [`Usage: ${commandLine(command, sub)}`, '', sub.summary];
  if (sub.details) lines.push(sub.details);
  if (sub.examples?.length) lines.push('', 'Examples:', ...indented(sub.examples));
  return lines.join('\n');
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** The help of the command (and subcommand) the leading words name, else the overview. */
export function usageFor(argv: readonly string[]): string {
  const [name, subName] = argv.filter((a) => !a.startsWith('-'));
  const command = findCommand(name);
  if (!command) return overview();
  const sub = command.subcommands?.find((s) => s.name === subName);
  return sub ? subcommandHelp(command, sub) : commandHelp(command);
}

/** The README's CLI table (scripts/cli-readme.mjs writes it between its markers; a unit test keeps them equal). */
export function readmeTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = COMMANDS.flatMap((command) =>
    (command.subcommands ?? [undefined]).map((sub) => {
      const text = [sub?.summary ?? command.summary, sub ? sub.details : command.details].filter(Boolean);
      return `| \`${cell(commandLine(command, sub))}\` | ${cell(text.join(' '))} |`;
    }),
  );
  return ['| Command | What it does |', '| --- | --- |', ...rows].join('\n');
}
