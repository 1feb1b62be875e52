import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  bool,
  ConfigError,
  hostList,
  int,
  type Key,
  logLevel,
  oneOf,
  optionalPath,
  optionalPostgresUrl,
  optionalSecret,
  optionalSmtpUrl,
  optionalWsUrl,
  parseStorageUrl,
  planId,
  str,
  trustProxy,
  url,
} from './parsers.js';

export { ConfigError, optionalPostgresUrl, parseStorageUrl, type S3Location } from './parsers.js';

function defaultChromiumPath(): string {
  // Debian's /usr/bin/chromium is a wrapper script; the binary itself starts faster and is what we supervise.
  const binary = '/usr/lib/chromium/chromium';
  return existsSync(binary) ? binary : '/usr/bin/chromium';
}

/**
 * Every configuration key: environment variable, default, one-line description and parser.
 * The table in the README is generated from this list (`npx quire config`), so it stays true.
 */
const schema = {
  dataDir: {
    env: 'QUIRE_DATA_DIR',
    default: './data',
    description: 'Directory for the SQLite database, stored files and the signing secret.',
    parse: str,
  },
  databaseUrl: {
    env: 'QUIRE_DATABASE_URL',
    default: null,
    description:
      'PostgreSQL database, e.g. postgres://user:pass@db:5432/quire (shared by several API and worker processes). Unset: SQLite in the data directory.',
    parse: optionalPostgresUrl,
  },
  storage: {
    env: 'QUIRE_STORAGE_URL',
    default: null,
    description:
      'S3-compatible store for PDFs, thumbnails and ZIPs: s3://BUCKET/PREFIX?endpoint=URL&region=R&force_path_style=true, credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN. Unset: DATA_DIR/blobs.',
    parse: parseStorageUrl,
  },
  host: {
    env: 'QUIRE_HOST',
    default: '127.0.0.1',
    description: 'Address the HTTP server binds to.',
    parse: str,
  },
  port: {
    env: 'QUIRE_PORT',
    default: 3000,
    description: 'TCP port of the HTTP server (0 = any free port).',
    parse: int(0, 65535),
  },
  publicUrl: {
    env: 'QUIRE_PUBLIC_URL',
    default: '',
    description: 'Base URL of signed links and docs_url (default http://HOST:PORT).',
    parse: url,
  },
  allowPrivateWebhooks: {
    env: 'QUIRE_ALLOW_PRIVATE_WEBHOOKS',
    default: false,
    description:
      'Let webhook targets be plain http on loopback/private addresses and any port. Development and tests only.',
    parse: bool,
  },
  allowPrivateResources: {
    env: 'QUIRE_ALLOW_PRIVATE_RESOURCES',
    default: false,
    description:
      'Let documents load images, fonts and stylesheets from loopback/private addresses. Development and tests only.',
    parse: bool,
  },
  urlAllowHosts: {
    env: 'QUIRE_URL_ALLOW_HOSTS',
    default: [] as string[],
    description:
      'Comma-separated host or host:port names that source_url pages and their resources may reach even on private or loopback addresses (intranet pages). Every API key can then read those hosts: list only what any key holder may see.',
    parse: hostList,
  },
  tsaUrl: {
    env: 'QUIRE_TSA_URL',
    default: '',
    description:
      'RFC 3161 timestamp authority for signed documents (sign): each signature gets a timestamp token (PAdES B-T). Unset: signatures carry the claimed signing time only.',
    parse: url,
  },
  smtpUrl: {
    env: 'QUIRE_SMTP_URL',
    default: null,
    description:
      'SMTP server for deliver.email and endpoint notices, e.g. smtp://user:pass@host:587. Unset: emails are written to DATA_DIR/outbox as .eml files.',
    parse: optionalSmtpUrl,
  },
  smtpInsecure: {
    env: 'QUIRE_SMTP_INSECURE',
    default: false,
    description:
      'Let an smtp:// server go without STARTTLS (messages and the SMTP password travel in plain text). For a local mail sink only; by default smtp:// requires STARTTLS.',
    parse: bool,
  },
  smtpFrom: {
    env: 'QUIRE_SMTP_FROM',
    default: 'Quire <quire@localhost>',
    description: 'From address of emails.',
    parse: str,
  },
  invitationsPerDay: {
    env: 'QUIRE_INVITATIONS_PER_DAY',
    default: 20,
    description:
      'Invitation emails a team may send in any 24 hours (POST /v1/members/invitations); more get 429 email_limit_reached.',
    parse: int(1, 10_000),
  },
  adminEmail: {
    env: 'QUIRE_ADMIN_EMAIL',
    default: 'admin@localhost',
    description:
      'Email of the dashboard owner created on first run (a sign-in link is printed at each start until the owner signs in).',
    parse: str,
  },
  chromiumPath: {
    env: 'QUIRE_CHROMIUM_PATH',
    default: defaultChromiumPath,
    description: 'Chromium executable (default /usr/lib/chromium/chromium, else /usr/bin/chromium).',
    parse: str,
  },
  chromiumWsEndpoint: {
    env: 'QUIRE_CHROMIUM_WS_ENDPOINT',
    default: null,
    description:
      "Tests and advanced setups: connect to a running Chromium server (the ws:// endpoint of playwright's launchServer) instead of launching QUIRE_CHROMIUM_PATH. Quire closes only its own contexts; a lost connection is retried like a crash.",
    parse: optionalWsUrl,
  },
  renderPoolSize: {
    env: 'QUIRE_RENDER_POOL_SIZE',
    default: 2,
    description:
      'Warm Chromium pages (one browser context each); renders at once across all teams. About one per core.',
    parse: int(1, 64),
  },
  renderQueueMax: {
    env: 'QUIRE_RENDER_QUEUE_MAX',
    default: 32,
    description: 'Renders allowed to wait for a free page before new ones get 503 service_busy.',
    parse: int(0, 10_000),
  },
  renderTimeoutMs: {
    env: 'QUIRE_RENDER_TIMEOUT_MS',
    default: 30_000,
    description: 'Render time limit (spec: 30 s) before render_timeout.',
    parse: int(100, 600_000),
  },
  renderPageWarmUp: {
    env: 'QUIRE_RENDER_PAGE_WARM_UP',
    default: true,
    description:
      'Print two small documents on each new pool page before it serves: the first renders of a fresh page are 2–3× slower. Off saves about half a second of CPU per page where pages are made often and first-render latency matters less (the test suite).',
    parse: bool,
  },
  pageRecycleAfter: {
    env: 'QUIRE_PAGE_RECYCLE_AFTER',
    default: 250,
    description:
      'Renders after which a pool page and its browser context are replaced (bounds memory growth).',
    parse: int(1, 1_000_000),
  },
  resourceTimeoutMs: {
    env: 'QUIRE_RESOURCE_TIMEOUT_MS',
    default: 10_000,
    description: 'Time limit for one external image, font or stylesheet a document loads.',
    parse: int(100, 60_000),
  },
  resourceMaxBytes: {
    env: 'QUIRE_RESOURCE_MAX_BYTES',
    default: 10 * 1024 * 1024,
    description: 'Size limit for one external resource a document loads.',
    parse: int(1024, 1024 * 1024 * 1024),
  },
  resourceMaxCount: {
    env: 'QUIRE_RESOURCE_MAX_COUNT',
    default: 100,
    description:
      'External resources one document may load; further ones are refused and listed in blocked_resources.',
    parse: int(0, 100_000),
  },
  resourceMaxTotalBytes: {
    env: 'QUIRE_RESOURCE_MAX_TOTAL_BYTES',
    default: 50 * 1024 * 1024,
    description:
      'Total size of the external resources one document may load; resources past it are refused and listed in blocked_resources.',
    parse: int(1024, 1024 * 1024 * 1024),
  },
  shutdownGraceMs: {
    env: 'QUIRE_SHUTDOWN_GRACE_MS',
    default: 30_000,
    description:
      'On SIGTERM/SIGINT, how long requests in flight (renders) may take to finish before their connections are closed.',
    parse: int(0, 3_600_000),
  },
  workers: {
    env: 'QUIRE_WORKERS',
    default: 2,
    description:
      'Render workers in the server process (0 = none; run `quire worker`). Emails and webhook deliveries always run.',
    parse: int(0, 64),
  },
  jobLeaseMs: {
    env: 'QUIRE_JOB_LEASE_MS',
    default: 60_000,
    description:
      'How long a background job stays claimed without a heartbeat: a job whose worker died (kill -9, lost host) is run again by another worker after at most this long.',
    parse: int(1_000, 3_600_000),
  },
  renderLeaseTtlMs: {
    env: 'QUIRE_RENDER_LEASE_TTL_MS',
    default: 30_000,
    description:
      "With PostgreSQL: how long a team's render slot stays taken without its process's heartbeat; a killed process's slots are free again after at most this long.",
    parse: int(1_000, 600_000),
  },
  einvoiceCheckTimeoutMs: {
    env: 'QUIRE_EINVOICE_CHECK_TIMEOUT_MS',
    default: 10_000,
    description:
      'Time one received e-invoice may take to be read and checked (POST /v1/e-invoices/validate and /parse), counted once the rules it needs are loaded; past it: 400 invalid_request.',
    parse: int(1_000, 300_000),
  },
  pdfToolTimeoutMs: {
    env: 'QUIRE_PDF_TOOL_TIMEOUT_MS',
    default: 15_000,
    description:
      'Time qpdf or poppler may take to read a PDF a caller sent or names (POST /v1/pdf/inspect, /transform and /split); writing a transformed copy may take twice as long. Past it: 400 invalid_request.',
    parse: int(1_000, 300_000),
  },
  einvoiceRulesDir: {
    env: 'QUIRE_EINVOICE_RULES_DIR',
    default: null,
    description:
      "Directory of the compiled e-invoice rules (SEF files; default dist/einvoice-rules in Quire's directory). Started from a checkout, the server compiles missing or outdated ones there in the background after it listens; meanwhile the checks that need them answer 503 service_busy with Retry-After.",
    parse: optionalPath,
  },
  webhookTimeoutMs: {
    env: 'QUIRE_WEBHOOK_TIMEOUT_MS',
    default: 10_000,
    description: 'Time a webhook target has to answer (spec: 10 s).',
    parse: int(100, 60_000),
  },
  maxPreparing: {
    env: 'QUIRE_MAX_PREPARING',
    default: 64,
    description:
      'Direct requests accepted but not yet rendering (plan checks, template, Liquid) before new ones get 503 service_busy.',
    parse: int(1, 100_000),
  },
  minFreeDiskMb: {
    env: 'QUIRE_MIN_FREE_DISK_MB',
    default: 256,
    description:
      'Free space on the data directory below which storing pauses: url, async and batch requests get 503 service_busy.',
    parse: int(0, 10_000_000),
  },
  sweepIntervalS: {
    env: 'QUIRE_SWEEP_INTERVAL_S',
    default: 600,
    description: 'Seconds between retention sweeps (expired PDFs, thumbnails, records, metadata, logs).',
    parse: int(1, 86_400),
  },
  plansFile: {
    env: 'QUIRE_PLANS_FILE',
    default: null,
    description: 'JSON file overriding per-plan numbers, e.g. {"free":{"docs_per_period":1000}}.',
    parse: optionalPath,
  },
  defaultPlan: {
    env: 'QUIRE_DEFAULT_PLAN',
    default: 'scale',
    description: 'Plan of the default team that `npm start` creates on first run.',
    parse: planId,
  },
  ipRateLimitPerMin: {
    env: 'QUIRE_IP_RATE_LIMIT',
    default: 600,
    description:
      'Requests per minute from one IP address (IPv6 per /64), downloads and bad keys included (spec: 600).',
    parse: int(1, 100_000_000),
  },
  testKeyRatePerMin: {
    env: 'QUIRE_TEST_KEY_RATE_PER_MIN',
    default: 20,
    description:
      'Requests per minute for test keys, per team (spec: 20). Raise it for a self-hosted CI that runs its suite with a test key.',
    parse: int(1, 100_000_000),
  },
  metrics: {
    env: 'QUIRE_METRICS',
    default: 'off',
    description:
      'GET /metrics (Prometheus): off, or public (no token; only behind a proxy that hides it). QUIRE_METRICS_TOKEN turns it on with a token.',
    parse: oneOf(['off', 'public'] as const),
  },
  metricsToken: {
    env: 'QUIRE_METRICS_TOKEN',
    default: null,
    description: 'Bearer token GET /metrics requires (enables it). At least 16 characters.',
    parse: optionalSecret(16),
  },
  trustProxy: {
    env: 'QUIRE_TRUST_PROXY',
    default: false,
    description:
      'Take the client address and scheme from X-Forwarded-For/-Proto: a hop count (usually 1), or comma-separated proxy addresses/CIDRs; true believes every hop, so clients can spoof the left-most address (warned at start).',
    parse: trustProxy,
  },
  logLevel: {
    env: 'QUIRE_LOG_LEVEL',
    default: 'info',
    description: 'pino log level (silent to turn off).',
    parse: logLevel,
  },
  logFormat: {
    env: 'QUIRE_LOG_FORMAT',
    default: 'json',
    description:
      'json: every stdout line is a JSON log record (one per request, with status and time); start-up notices (keys, sign-in link) go to stderr, as JSON unless stderr is a terminal. pretty: readable lines for development.',
    parse: oneOf(['json', 'pretty'] as const),
  },
} satisfies Record<string, Key<unknown>>;

type Schema = typeof schema;
export type Config = { [K in keyof Schema]: ReturnType<Schema[K]['parse']> } & {
  /**
   * The OpenTelemetry SDK's standard variables (every OTEL_* of the environment; docs/observability.md),
   * kept here so a server can be given its own rather than the process's.
   */
  otel?: Readonly<Record<string, string>>;
};

export const CONFIG_KEYS: ReadonlyArray<{ env: string; default: string; description: string }> =
  Object.values(schema).map((k) => ({
    env: k.env,
    default: describeDefault(k.default),
    description: k.description,
  }));

function describeDefault(value: unknown): string {
  if (typeof value === 'function') return '(see description)';
  if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) return '(unset)';
  return String(value);
}

/** A URL fit for logs: the password (and any query, which may carry one) replaced. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = 'redacted';
    u.search = '';
    return u.toString();
  } catch {
    return '<redacted>';
  }
}

/** Settings whose values are never printed (`quire config --effective` shows only whether they are set). */
const SECRET_SETTINGS: ReadonlySet<keyof Config> = new Set(['smtpUrl', 'metricsToken']);

/** Every setting's variable and the value in effect, secrets redacted. */
export function effectiveSettings(config: Config): Array<{ env: string; value: string }> {
  return (Object.keys(schema) as Array<keyof Schema>).map((name) => {
    const value = config[name];
    const shown = SECRET_SETTINGS.has(name)
      ? value
        ? '(set, hidden)'
        : '(unset)'
      : name === 'databaseUrl' && typeof value === 'string'
        ? JSON.stringify(redactUrl(value))
        : JSON.stringify(value);
    return { env: schema[name].env, value: shown };
  });
}

/** The base URL of links: QUIRE_PUBLIC_URL, else derived from the bound host and port. */
export function derivePublicUrl(config: Config, boundPort: number = config.port): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${boundPort}`;
}

/** Reads and validates every key once; collects all problems into one error. */
function otelVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[0].startsWith('OTEL_') && entry[1] !== undefined,
    ),
  );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(schema) as Array<[keyof Schema, Key<unknown>]>) {
    if (name in overrides) {
      out[name] = overrides[name];
      continue;
    }
    const raw = env[key.env];
    try {
      out[name] =
        raw === undefined
          ? typeof key.default === 'function'
            ? (key.default as () => unknown)()
            : key.default
          : key.parse(raw, key.env);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  const config = out as Config;
  config.dataDir = path.resolve(config.dataDir);
  if (config.einvoiceRulesDir !== null) config.einvoiceRulesDir = path.resolve(config.einvoiceRulesDir);
  config.otel = overrides.otel ?? otelVariables(env);
  return config;
}
