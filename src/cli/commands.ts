import { CONFIG_KEYS, type Config, effectiveSettings, loadConfig } from '../config/config.js';
import { type Announce, createAnnouncer } from '../shared/log-output.js';
import { quireVersion } from '../shared/version.js';
import { teamBilling, teamSetBilling, usageExport } from './billing-commands.js';
import { type AccountContext, type CliIo, withAccounts } from './context.js';
import { keyList, teamDelete } from './team-admin.js';
import { keyCreate, keyRevoke, teamCreate, teamList, teamSetPlan, teamSuspend } from './team-commands.js';
import { UsageError } from './usage-error.js';
import { userCreate } from './user-commands.js';

/**
 * Every `quire` command: its help (usage, summary, details, examples) and what runs it. The overview, `quire
 * help COMMAND`, `COMMAND --help`, the dispatch in main.ts and the README's CLI table (scripts/cli-readme.mjs)
 * all come from this list, so a subcommand cannot be runnable yet missing from its group's help.
 * A new command or command group is one entry in COMMANDS.
 */
export interface Subcommand {
  name: string;
  /** Its arguments and options after `quire GROUP NAME` (`--json` is added when the group supports it). */
  args: string;
  /** One line: what it does. */
  summary: string;
  /** More sentences for its own help and the README. */
  details?: string;
  examples?: readonly string[];
  run: (args: string[], io: CliIo) => Promise<void>;
}

export interface Command {
  name: string;
  /** The overview's heading it is listed under. */
  section: Section;
  summary: string;
  details?: string;
  /** Arguments of a command without subcommands. */
  args?: string;
  /** Whether `--json` switches its output to JSON (every command that prints data; not serve and worker). */
  json: boolean;
  examples: readonly string[];
  /** Either subcommands (`quire team create`) or its own run (`quire serve`). */
  subcommands?: readonly Subcommand[];
  run?: (args: string[], io: CliIo) => Promise<void>;
}

export const SECTIONS = ['Run Quire', 'Teams, keys and users', 'Billing', 'Data', 'Settings'] as const;
type Section = (typeof SECTIONS)[number];

/** A subcommand that works on the configured database. */
const onAccounts =
  (run: (ctx: AccountContext, args: string[]) => Promise<void>) =>
  (args: string[], io: CliIo): Promise<void> =>
    withAccounts(io, (ctx) => run(ctx, args));

/** A long-running process (`serve`, `worker`) on the configuration, announcing in its log format. */
const runProcess =
  (load: () => Promise<(config: Config, announce: Announce) => Promise<void>>) => async (): Promise<void> => {
    const start = await load();
    const config = loadConfig();
    return start(config, createAnnouncer(config.logFormat));
  };

/** A command on the configured install, loaded only when it runs (the data commands bring heavy modules). */
const onConfig =
  (load: () => Promise<(config: Config, args: string[], io: CliIo) => Promise<void>>) =>
  async (args: string[], io: CliIo): Promise<void> =>
    (await load())(loadConfig(), args, io);

/** `quire pdf SUB`: the PDF tools load only when one runs. */
const onPdf =
  (subcommand: string) =>
  async (args: string[], io: CliIo): Promise<void> => {
    const { pdfCommand } = await import('./pdf-commands.js');
    return pdfCommand([subcommand, ...args], io.print);
  };

/** `quire einvoice SUB`: the e-invoice tools load only when one runs. */
const onEinvoice =
  (subcommand: string) =>
  async (args: string[], io: CliIo): Promise<void> => {
    const { einvoiceCommand } = await import('./einvoice-commands.js');
    return einvoiceCommand([subcommand, ...args], io.print);
  };

export const COMMANDS: readonly Command[] = [
  {
    name: 'serve',
    section: 'Run Quire',
    summary: 'Run the HTTP API (and in-process background workers).',
    details:
      'Configuration comes from environment variables (`quire config`). On the first run, once listening, it creates the default team and prints its keys and the dashboard owner’s sign-in link to stderr (docs/operations.md "Logs"). Logs are JSON lines on stdout (QUIRE_LOG_FORMAT=pretty for readable ones); a failed start is one of them, `event` startup_failed, with a `code` and the fix, and a non-zero exit.',
    args: '',
    json: false,
    examples: ['quire serve', 'QUIRE_PORT=8080 QUIRE_PUBLIC_URL=https://pdf.example.com quire serve'],
    run: runProcess(async () => (await import('./serve.js')).serve),
  },
  {
    name: 'worker',
    section: 'Run Quire',
    summary: 'Run background workers only (renders, webhooks, emails, batches).',
    details:
      'Uses the same database and store as `quire serve`; job leases keep several processes from running one job twice (docs/deployment.md "Running several processes").',
    args: '',
    json: false,
    examples: ['QUIRE_WORKERS=2 quire worker'],
    run: runProcess(async () => (await import('./worker.js')).runWorkerProcess),
  },
  {
    name: 'mcp',
    section: 'Run Quire',
    summary: 'Serve the MCP tools on stdin/stdout for a desktop assistant.',
    details:
      'Relays the Model Context Protocol to the `/mcp` endpoint of the Quire at QUIRE_URL (default http://127.0.0.1:3000) with the API key in QUIRE_API_KEY: the tools act as that key (docs/mcp.md).',
    args: '',
    json: false,
    examples: ['QUIRE_URL=https://pdf.example.com QUIRE_API_KEY=qk_test_… quire mcp'],
    run: async () => {
      const apiKey = process.env.QUIRE_API_KEY;
      if (!apiKey) throw new UsageError('quire mcp needs the API key in QUIRE_API_KEY.');
      const { runStdioMcp } = await import('../mcp/index.js');
      return runStdioMcp({ url: process.env.QUIRE_URL || 'http://127.0.0.1:3000', apiKey });
    },
  },
  {
    name: 'team',
    section: 'Teams, keys and users',
    summary: 'Manage teams: create, list, change plan, suspend, delete.',
    json: true,
    examples: ['quire team create --name "Acme Ltd" --plan starter', 'quire team list'],
    subcommands: [
      {
        name: 'create',
        args: '--name NAME --plan PLAN [--email ADDRESS] [--email-verified]',
        summary: 'Create a team with a live and a test key (shown once).',
        details: 'With --json: `{"team":{"id","name","plan"},"keys":{"live","test"}}`.',
        examples: ['quire team create --name "Acme Ltd" --plan starter --email billing@acme.example --json'],
        run: onAccounts(teamCreate),
      },
      {
        name: 'list',
        args: '',
        summary: 'List the teams: id, plan, status, email, creation date, name.',
        examples: ['quire team list --json'],
        run: onAccounts(teamList),
      },
      {
        name: 'billing',
        args: 'TEAM_ID',
        summary: 'Show the team’s subscription, spending cap and this period’s usage.',
        details:
          'With --json: `{"team_id","subscription","spending_cap_cents","usage"}`, `usage` as GET /v1/account/usage (docs/plans-and-billing.md "Usage and billing").',
        run: onAccounts(teamBilling),
      },
      {
        name: 'set-billing',
        args: 'TEAM_ID [--subscription active|past_due|cancel_scheduled|none] [--spending-cap-cents N | --no-spending-cap] [--overage-billed]',
        summary: 'Change the team’s billing state and print it as `team billing --json` does.',
        details: '--overage-billed marks this period’s overage as billed.',
        examples: ['quire team set-billing team_123 --subscription active --spending-cap-cents 50000'],
        run: onAccounts(teamSetBilling),
      },
      {
        name: 'set-plan',
        args: 'TEAM_ID PLAN',
        summary: 'Move the team to another plan: free, starter, growth, pro or scale.',
        details: 'The change time is recorded: the period’s included documents are prorated around it.',
        examples: ['quire team set-plan team_123 growth'],
        run: onAccounts(teamSetPlan),
      },
      {
        name: 'suspend',
        args: 'TEAM_ID',
        summary: 'Refuse every request of the team’s keys (403 forbidden) until unsuspended.',
        run: onAccounts((ctx, args) => teamSuspend(ctx, args, true)),
      },
      {
        name: 'unsuspend',
        args: 'TEAM_ID',
        summary: 'Lift a suspension.',
        run: onAccounts((ctx, args) => teamSuspend(ctx, args, false)),
      },
      {
        name: 'delete',
        args: 'TEAM_ID --yes',
        summary:
          'Erase the team and everything it owns: documents and their files, templates, keys, webhooks, batches, jobs, emails.',
        details: 'Cannot be undone; without --yes it refuses.',
        examples: ['quire team delete team_123 --yes'],
        run: onAccounts(teamDelete),
      },
    ],
  },
  {
    name: 'key',
    section: 'Teams, keys and users',
    summary: 'Manage API keys: create, list, revoke.',
    json: true,
    examples: ['quire key create --team team_123 --mode live', 'quire key list --team team_123'],
    subcommands: [
      {
        name: 'create',
        args: '--team TEAM_ID --mode live|test [--role admin|member] [--name NAME]',
        summary: 'Create a key (shown only here; role admin unless --role member).',
        details: 'With --json: `{"key","id","team_id","mode","role","prefix"}`.',
        examples: ['quire key create --team team_123 --mode test --role member --name CI --json'],
        run: onAccounts(keyCreate),
      },
      {
        name: 'list',
        args: '--team TEAM_ID',
        summary: 'List a team’s keys: prefix, mode, role, status, created and revoked dates, name.',
        details: 'Never the keys themselves: they are stored hashed.',
        examples: ['quire key list --team team_123'],
        run: onAccounts(keyList),
      },
      {
        name: 'revoke',
        args: 'KEY_OR_PREFIX',
        summary:
          'Revoke a key by the whole key, or by its 12-character prefix when only one active key has it.',
        examples: ['quire key revoke qk_live_AbCd'],
        run: onAccounts(keyRevoke),
      },
    ],
  },
  {
    name: 'user',
    section: 'Teams, keys and users',
    summary: 'Manage dashboard users.',
    json: true,
    examples: ['quire user create --email owner@acme.example --team team_123 --role owner'],
    subcommands: [
      {
        name: 'create',
        args: '--email ADDRESS --team TEAM_ID --role owner|admin|member',
        summary:
          'Add a user to a team (or change an existing member’s role) and print a single-use sign-in link (valid 24 h).',
        details:
          'The link points at QUIRE_PUBLIC_URL, else at the address the server last listened on. It is the way back in for a locked-out owner.',
        examples: ['quire user create --email owner@acme.example --team team_123 --role owner'],
        run: onAccounts(userCreate),
      },
    ],
  },
  {
    name: 'usage',
    section: 'Billing',
    summary: 'Usage for billing.',
    json: true,
    examples: ['quire usage export --period 2026-10 > usage-2026-10.csv'],
    subcommands: [
      {
        name: 'export',
        args: '--period YYYY-MM [--format csv|json]',
        summary:
          'One line per team with the period’s numbers: id, name, plan, period, docs_used, docs_included, rollover_docs, overage_docs, overage_cost_cents.',
        details: 'CSV with a header line, or one JSON object a line (--format json, or --json).',
        examples: ['quire usage export --period 2026-10 --json'],
        run: onAccounts(usageExport),
      },
    ],
  },
  {
    name: 'backup',
    section: 'Data',
    summary:
      'Copy the database, stored files and server secret into DIR (new or empty); safe while Quire runs.',
    details: 'SQLite installs only (docs/deployment.md "Backups and upgrades").',
    args: 'DIR',
    json: true,
    examples: ['quire backup /var/backups/quire-$(date +%F)'],
    run: onConfig(async () => (await import('./backup.js')).backupCommand),
  },
  {
    name: 'restore',
    section: 'Data',
    summary: 'Restore a `quire backup` into QUIRE_DATA_DIR (new or empty), with Quire stopped.',
    details: 'Migrations run at the next start.',
    args: 'DIR',
    json: true,
    examples: ['QUIRE_DATA_DIR=/srv/quire quire restore /var/backups/quire-2026-11-01'],
    run: onConfig(async () => (await import('./backup.js')).restoreCommand),
  },
  {
    name: 'migrate-data',
    section: 'Data',
    summary:
      'Copy this install (every table, every blob) to another database and blob store, verifying counts and SHA-256s.',
    details: 'Run it with Quire stopped (docs/deployment.md "Moving an install").',
    args: '--to DATA_DIR|postgres://… [--storage s3://BUCKET/PREFIX?…]',
    json: true,
    examples: [
      'quire migrate-data --to postgres://quire@db/quire --storage "s3://quire/pdfs/?region=eu-west-1"',
    ],
    run: onConfig(async () => (await import('./migrate-data.js')).migrateData),
  },
  {
    name: 'einvoice',
    section: 'Data',
    summary:
      'Check received e-invoices (XML or Factur-X/ZUGFeRD PDF) with the official rules, or read one into the e-invoice model.',
    details: 'JSON out (always), exit code 1 when a file is invalid or not an e-invoice. No server needed.',
    json: true,
    examples: ['quire einvoice validate invoice.xml factur-x.pdf', 'quire einvoice parse invoice.xml'],
    subcommands: [
      {
        name: 'validate',
        args: 'FILE…',
        summary:
          'XSD and the official schematron rules (EN 16931, XRechnung, Factur-X, Peppol BIS 3.0) for each file, as POST /v1/e-invoices/validate answers.',
        examples: ['quire einvoice validate received/*.xml'],
        run: onEinvoice('validate'),
      },
      {
        name: 'parse',
        args: 'FILE',
        summary: 'The e-invoice as the model POST /v1/pdf takes (POST /v1/e-invoices/parse).',
        examples: ['quire einvoice parse invoice.xml > invoice.json'],
        run: onEinvoice('parse'),
      },
    ],
  },
  {
    name: 'pdf',
    section: 'Data',
    summary: 'Inspect, transform or split PDFs on this machine (the API’s PDF tools, docs/pdf-tools.md).',
    details:
      'JSON out (always), exit code 1 when a file is refused. No server needed; merging stored documents and `sign` with a team certificate are the API’s only.',
    json: true,
    examples: [
      'quire pdf inspect contract.pdf --text',
      'quire pdf transform scan.pdf --steps \'[{"op":"rotate","pages":"all","degrees":90}]\' --out turned.pdf',
      'quire pdf split bundle.pdf --every 1 --out-dir parts/',
    ],
    subcommands: [
      {
        name: 'inspect',
        args: 'FILE… [--password P] [--text]',
        summary:
          'Pages, sizes, metadata, attachments, form fields, signatures and fonts, as POST /v1/pdf/inspect answers.',
        examples: ['quire pdf inspect received/*.pdf'],
        run: onPdf('inspect'),
      },
      {
        name: 'transform',
        args: 'FILE --steps JSON|@steps.json [--out OUT.pdf] [--password P]',
        summary:
          'The steps of POST /v1/pdf/transform in order (pages, rotate, merge, fill, flatten, stamp, metadata, attach, pdf_a, protect).',
        examples: ['quire pdf transform form.pdf --steps @fill.json --out filled.pdf'],
        run: onPdf('transform'),
      },
      {
        name: 'split',
        args: 'FILE (--ranges "1;2-3" | --every N) [--out-dir DIR] [--password P]',
        summary: 'One PDF per range or per N pages, named FILE-1.pdf, FILE-2.pdf…',
        examples: ['quire pdf split bundle.pdf --ranges "1;2-last"'],
        run: onPdf('split'),
      },
    ],
  },
  {
    name: 'config',
    section: 'Settings',
    summary: 'Print every setting (environment variable) with its default and description.',
    details: '--effective: the values in effect here instead, secrets hidden.',
    args: '[--effective]',
    json: true,
    examples: ['quire config', 'quire config --effective --json'],
    run: async (args, io) => printConfig(args, io),
  },
  {
    name: 'version',
    section: 'Settings',
    summary: 'Print Quire’s version (also `quire --version`).',
    args: '',
    json: true,
    examples: ['quire version'],
    run: async (_args, io) =>
      io.print(io.json ? JSON.stringify({ version: quireVersion() }) : quireVersion()),
  },
];

/** `quire config [--effective]`: the settings table (Markdown rows), or the values in effect. */
async function printConfig(args: string[], io: CliIo): Promise<void> {
  const effective = args.includes('--effective');
  const unknown = args.find((a) => a !== '--effective');
  if (unknown !== undefined)
    throw new UsageError(`Unexpected "${unknown}". Usage: quire config [--effective] [--json]`);
  if (effective) {
    const settings = effectiveSettings(loadConfig());
    if (io.json) return io.print(JSON.stringify({ settings }));
    for (const s of settings) io.print(`${s.env}=${s.value}`);
    return;
  }
  if (io.json) return io.print(JSON.stringify({ settings: CONFIG_KEYS }));
  for (const k of CONFIG_KEYS) io.print(`| \`${k.env}\` | ${k.default} | ${k.description} |`);
}

/** The command named `name`, if any. */
export function findCommand(name: string | undefined): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
