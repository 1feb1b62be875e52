// Which test files run, and which run a second time on PostgreSQL (scripts/run-tests.mjs and the unit test
// test/unit/test-plan.test.ts use this module).
//
// The PostgreSQL pass is an explicit list: a file that opens a database (directly or through a helper it
// imports) must be listed either in POSTGRES_PASS (its outcome depends on the SQL dialect) or in SQLITE_ONLY
// (it does not, or it tests SQLite itself), each entry with its reason. A new file that opens a database and
// is in neither list fails test/unit/test-plan.test.ts and every whole run, with a message saying where to add it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * Run again on PostgreSQL: a path prefix (a folder ending in '/' or one file) and why the dialect matters.
 * To add a file or folder, add its path to the group whose reason fits, or a new group with its own reason.
 */
export const POSTGRES_PASS = [
  {
    paths: ['test/integration/jobs/', 'test/integration/pdf/async-events.test.ts'],
    reason:
      'the job queue: claim with FOR UPDATE SKIP LOCKED, leases, requeue, cancel, LISTEN/NOTIFY wake-ups',
  },
  {
    paths: ['test/integration/batches/'],
    reason: "batch completion counted under an advisory lock; a batch's jobs and cancellation in the queue",
  },
  {
    paths: ['test/integration/billing/'],
    reason: 'the usage ledger (reserve/settle/release), periods and plan enforcement: counting writes',
  },
  {
    paths: ['test/integration/documents/', 'test/integration/pdf/lifecycle.test.ts'],
    reason:
      'document lifecycle transitions with their outbox events; list filters, cursors and date comparisons',
  },
  {
    paths: ['test/integration/templates/'],
    reason: 'template quota and version numbers taken under an advisory lock; JSON and text columns',
  },
  {
    paths: ['test/integration/webhooks/', 'test/integration/pdf/email.test.ts'],
    reason:
      'the webhook outbox and delivery log, the 10-endpoint limit and the email budget (count-then-write)',
  },
  {
    paths: ['test/integration/pdf/idempotency.test.ts'],
    reason: 'idempotency claim/complete/release: unique-key races settled by the database',
  },
  {
    paths: ['test/integration/users/'],
    reason: 'members, sessions and invitations: unique constraints and case-insensitive email lookups',
  },
  {
    paths: ['test/integration/storage/migrate-data.test.ts'],
    reason: '`quire migrate-data` copies every table between SQLite and PostgreSQL',
  },
  {
    paths: ['test/integration/certificates/'],
    reason:
      'the 10-certificate limit (count-then-insert in a transaction), team-scoped lookups and documents.signed',
  },
  {
    paths: ['test/integration/postgres/'],
    reason: 'written for PostgreSQL: queue claims and shared rate windows across processes',
  },
  {
    paths: ['test/integration/cluster/'],
    reason: 'several processes on one database: render leases, the default team, shared limits',
  },
];

/** Open a database but run on SQLite only: the dialect plays no part in what they assert, or they test SQLite. */
export const SQLITE_ONLY = [
  {
    paths: [
      'test/integration/foundation/cli.test.ts',
      'test/integration/foundation/data-dir.test.ts',
      'test/integration/foundation/startup-race.test.ts',
    ],
    reason: 'the SQLite data directory itself: file modes, the migration lock of processes started together',
  },
  {
    paths: ['test/integration/jobs/migration.test.ts'],
    reason: 'upgrades an old SQLite file in place (a PostgreSQL install starts at the current schema)',
  },
  {
    paths: ['test/integration/ops/backup.test.ts'],
    reason: '`quire backup` copies the SQLite database (a PostgreSQL install is backed up with pg_dump)',
  },
  {
    paths: ['test/integration/render/', 'test/integration/capture/'],
    reason: 'Chromium, the page pool, signal handling and page capture; the database only stores the keys',
  },
  {
    paths: ['test/integration/merge/'],
    reason: 'merging PDFs (qpdf, poppler): a source document is one row read by team and id',
  },
  {
    paths: ['test/integration/pdf-tools/'],
    reason:
      'inspecting, transforming and splitting PDFs (qpdf, poppler, pdf-lib): a source is one row read by team and ' +
      'id, and a transform is recorded through the same lifecycle pdf/ and documents/ run on both dialects',
  },
  {
    paths: ['test/integration/telemetry/', 'test/integration/mcp/'],
    reason:
      'what is exported over OTLP and what the MCP tools answer: spans, metrics and REST calls, whatever the dialect',
  },
  {
    paths: ['test/integration/einvoice-inbound/'],
    reason: 'received e-invoices checked and read in the worker pool; the database only holds the test keys',
  },
  {
    paths: ['test/integration/einvoice-ksef/'],
    reason:
      'KSeF FA(3) XML generated, checked and read back over HTTP; the database only holds the test keys',
  },
  {
    paths: ['test/integration/einvoice-fr-hr/'],
    reason:
      'French EXTENDED-CTC-FR and Croatian HR-CIUS generated, checked and read back over HTTP; the database only holds the test keys',
  },
  {
    paths: ['test/integration/untrusted/'],
    reason: "uploaded files parsed in the worker pool, timed against another team's requests; one row each",
  },
  {
    paths: ['test/integration/batches/spreadsheets.test.ts'],
    reason:
      'XLSX and CSV read in the worker pool, then a batch: the 200 rows go through the same batch insert and ' +
      'completion as batches/batches, and cluster/cluster runs a 200-item batch across processes on PostgreSQL',
  },
  {
    paths: [
      'test/integration/templates/draft-preview-pages.test.ts',
      'test/integration/templates/draft-preview-property.test.ts',
    ],
    reason:
      'draft previews rendered as page images and random draft bodies: nothing is stored; the template is one ' +
      'row read by team and id (draft-preview.test.ts runs on PostgreSQL: nothing stored or counted, the budget)',
  },
  {
    paths: ['test/integration/users/key-roles-upgrade.test.ts'],
    reason: 'upgrades an old SQLite file to key roles (a PostgreSQL install starts at the current schema)',
  },
  {
    paths: [
      'test/integration/foundation/',
      'test/integration/ops/',
      'test/integration/pdf/',
      'test/integration/storage/',
    ],
    reason:
      'HTTP conventions, validation, auth headers, CLI output, metrics and blob stores: the rows they touch are ' +
      'single-row reads and writes the dialect cannot change (the counting writes are in the groups above)',
  },
  {
    paths: ['test/integration/brand/', 'test/integration/dashboard/', 'test/integration/liquid/'],
    reason: 'brand settings, the dashboard in Chromium and Liquid: HTML and rendering, one row per request',
  },
  {
    paths: ['test/integration/client/'],
    reason:
      'the TypeScript client against the server: HTTP behaviour, covered on PostgreSQL by the route groups',
  },
];

function walk(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(walk(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

export function unitFiles() {
  return [...walk(path.join(root, 'src')), ...walk(path.join(root, 'test', 'unit'))];
}

/** The integration tests, with the visual regression tests (real Chromium, like the integration tests). */
export function integrationFiles() {
  return [...walk(path.join(root, 'test', 'integration')), ...walk(path.join(root, 'test', 'visual'))];
}

/**
 * The test helpers that create a database under the PostgreSQL switch (test/helpers/database.ts), and those in
 * test/helpers/ that call one (helpers are not followed, so each is named here: serverWithReceiver,
 * serverForBlock and serverWithTeam start a server, databaseForBlock opens a database for a describe block).
 */
const OPENS_DATABASE =
  /startTestServer|createTestAppConfig|openTestDatabase|createTestDatabase|createPostgresDatabase|startHarness|serverWithReceiver|serverForBlock|serverWithTeam|databaseForBlock/;
const NOT_FOLLOWED = [path.join(root, 'src') + path.sep, path.join(root, 'test', 'helpers') + path.sep];
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/**
 * Whether a test source reaches a database: it calls one of the helpers that create one, or imports (a test
 * module, transitively) a module that does — e.g. billing/enforcement.test.ts through billingHarness().
 */
export function opensDatabase(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (OPENS_DATABASE.test(source)) return true;
  for (const [, spec] of source.matchAll(RELATIVE_IMPORT)) {
    const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
    // The product's code and the helpers define the database openers; a test module that calls one names it.
    if (!target.startsWith(root + path.sep) || NOT_FOLLOWED.some((dir) => target.startsWith(dir))) continue;
    if (opensDatabase(target, seen)) return true;
  }
  return false;
}

function groupOf(groups, relative) {
  // The longest matching path wins, so a file listed by name overrides its folder's group.
  let best = null;
  for (const group of groups) {
    for (const p of group.paths) {
      const hit = p.endsWith('/') ? relative.startsWith(p) : relative === p;
      if (hit && (!best || p.length > best.path.length)) best = { group, path: p };
    }
  }
  return best;
}

/**
 * Sorts test files into the PostgreSQL pass, SQLite only, and unclassified (open a database, listed nowhere).
 * A file matched by both lists goes where its longer (more specific) path is.
 */
export function classify(files) {
  const postgres = [];
  const sqliteOnly = [];
  const unclassified = [];
  for (const file of files) {
    if (!opensDatabase(file)) continue;
    const relative = path.relative(root, file).split(path.sep).join('/');
    const pg = groupOf(POSTGRES_PASS, relative);
    const lite = groupOf(SQLITE_ONLY, relative);
    if (pg && (!lite || pg.path.length > lite.path.length)) postgres.push(file);
    else if (lite) sqliteOnly.push(file);
    else unclassified.push(relative);
  }
  return { postgres, sqliteOnly, unclassified };
}

/** What to tell someone who added a test file that opens a database and listed it nowhere. */
export function unclassifiedMessage(unclassified) {
  return [
    `These test files open a database but are in neither list of scripts/test-plan.mjs:`,
    ...unclassified.map((f) => `  ${f}`),
    'Add each path to POSTGRES_PASS if what it asserts can differ between SQLite and PostgreSQL (counting',
    'writes, locks, queue claims, constraints, migrations), else to SQLITE_ONLY, in the group whose reason fits.',
  ].join('\n');
}
