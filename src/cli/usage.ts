/**
 * Usage text of every command, keyed by its words (`team delete`). `--help`/`-h` anywhere on a command line
 * prints the entry of the longest matching words and exits 0 before anything runs (no config, no database).
 * A new command adds one entry here.
 */
const USAGE: Record<string, string> = {
  serve:
    'quire serve\n  Run the HTTP API (and in-process workers). Configuration: environment variables (`quire config`).',
  worker: 'quire worker\n  Run background workers only, against the same data directory as `quire serve`.',
  team: 'quire team create|list|suspend|unsuspend|set-plan|billing|set-billing|delete …\n  Manage teams. `quire team SUBCOMMAND --help` for each.',
  'team create':
    'quire team create --name NAME --plan PLAN [--email ADDRESS] [--email-verified] [--json]\n  Create a team with a live and a test key (shown once).',
  'team list': 'quire team list [--json]\n  List the teams.',
  'team suspend':
    'quire team suspend TEAM_ID\n  Refuse every request of the team’s keys (403) until unsuspended.',
  'team unsuspend': 'quire team unsuspend TEAM_ID\n  Lift a suspension.',
  'team set-plan':
    'quire team set-plan TEAM_ID PLAN\n  Move the team to another plan (the change time is kept: the period is prorated).',
  'team billing':
    'quire team billing TEAM_ID [--json]\n  Show the team’s subscription, spending cap and this period’s usage (as GET /v1/account/usage).',
  'team set-billing':
    'quire team set-billing TEAM_ID [--subscription active|past_due|cancel_scheduled|none] [--spending-cap-cents N | --no-spending-cap] [--overage-billed]\n  Change the team’s billing state; --overage-billed marks this period’s overage as billed.',
  usage: 'quire usage export …\n  Usage for billing. `quire usage export --help`.',
  'usage export':
    'quire usage export --period YYYY-MM [--format csv|json]\n  One line per team: id, name, plan, period, docs_used, docs_included, rollover_docs, overage_docs, overage_cost_cents.',
  'team delete':
    'quire team delete TEAM_ID --yes\n  Erase the team and all its data: documents and their files, templates, keys, webhooks, batches, jobs, emails. Cannot be undone.',
  key: 'quire key create|list|revoke …\n  Manage API keys. `quire key SUBCOMMAND --help` for each.',
  'key create':
    'quire key create --team TEAM_ID --mode live|test [--role admin|member] [--name NAME] [--json]\n  Create a key (shown once; role admin unless --role member).',
  'key list':
    'quire key list --team TEAM_ID [--json]\n  List a team’s keys (prefixes only; keys are stored hashed).',
  'key revoke': 'quire key revoke KEY_OR_PREFIX\n  Revoke a key by the whole key or its 12-character prefix.',
  user: 'quire user create …\n  Manage dashboard users. `quire user create --help`.',
  'user create':
    'quire user create --email ADDRESS --team TEAM_ID --role owner|admin|member [--json]\n  Add a dashboard user to a team and print a single-use sign-in link (valid 24 h) that asks for a password.',
  einvoice:
    'quire einvoice validate FILE… | quire einvoice parse FILE\n  Check received e-invoices (XML or Factur-X/ZUGFeRD PDF) with the official rules, or read one into the e-invoice model.',
  'einvoice validate':
    'quire einvoice validate FILE…\n  XSD + official schematron rules (EN 16931, XRechnung, Factur-X, Peppol BIS 3.0) for each file, as POST /v1/e-invoices/validate answers; JSON out, exit 1 when any file is invalid.',
  'einvoice parse':
    'quire einvoice parse FILE\n  The e-invoice as the model POST /v1/pdf takes (POST /v1/e-invoices/parse); JSON out, exit 1 when it is not an e-invoice.',
  config:
    'quire config [--effective]\n  Print every setting (environment variable) with its default and description; --effective: the values in effect here, secrets hidden.',
  'migrate-data':
    'quire migrate-data --to DATA_DIR|postgres://… [--storage s3://BUCKET/PREFIX?…]\n  Copy this install (every table, every blob) to another database and blob store, verifying counts and SHA-256s. Run it with Quire stopped.',
  backup:
    'quire backup DIR\n  Copy the database (SQLite online backup), stored files and server secret into DIR (new or empty); safe while Quire runs.',
  restore:
    'quire restore DIR\n  Restore a `quire backup` into QUIRE_DATA_DIR (new or empty) with Quire stopped; migrations run at the next start.',
};

/** The overview printed by `quire`, `quire help` and `quire --help`. */
export function overview(): string {
  const names = Object.keys(USAGE);
  // Group entries (`team`) are left out: their subcommands are listed one by one.
  const leaves = names.filter((name) => !names.some((other) => other.startsWith(`${name} `)));
  const lines = leaves.map((name) => {
    const [usage = '', summary = ''] = (USAGE[name] ?? '').split('\n');
    return `  ${usage.replace(/^quire /, '')}\n      ${summary.trim()}`;
  });
  return [
    'Usage: quire <command> [options]   (quire <command> --help for one command; quire --version)',
    '',
    ...lines,
    '',
    'Configuration comes from environment variables (see `quire config`).',
  ].join('\n');
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** The usage of the longest known command the leading words name, else the overview. */
export function usageFor(argv: readonly string[]): string {
  const words = argv.filter((a) => !a.startsWith('-'));
  for (let n = Math.min(words.length, 3); n > 0; n--) {
    const text = USAGE[words.slice(0, n).join(' ')];
    if (text) return `Usage: ${text}`;
  }
  return overview();
}
