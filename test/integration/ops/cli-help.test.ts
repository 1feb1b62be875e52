import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { COMMANDS } from '../../../src/cli/commands.js';
import { usageFor, wantsHelp } from '../../../src/cli/usage.js';
import { OWN_CHROMIUM, quire, quireInProcess } from '../../helpers/quire-process.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every command and subcommand the CLI knows, as the words that name it ([] is the overview). */
const COMMAND_WORDS: string[][] = [
  [],
  ...COMMANDS.flatMap((c) => [[c.name], ...(c.subcommands ?? []).map((s) => [c.name, s.name])]),
];

describe('quire --help, --version and start-up problems', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-cli-help-'));
  // Help must not read configuration or touch the data directory: this one must never come to exist.
  const env = { QUIRE_DATA_DIR: path.join(scratch, 'never-created'), QUIRE_PORT: '0' };
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('every command and subcommand has its own usage text', () => {
    assert.ok(COMMAND_WORDS.length > 20);
    for (const words of COMMAND_WORDS) {
      const text = usageFor([...words, '--help']);
      assert.match(text, /^Usage: quire/, words.join(' '));
      if (words.length > 0) assert.ok(text.includes(`quire ${words.join(' ')}`), text);
    }
    assert.equal(wantsHelp(['serve', '--', '--help']), false);
  });

  it('--help and -h print usage and exit 0 without side effects', async () => {
    // The command's main() in this process: the table above covers every command's text, these the parsing.
    for (const args of [['serve', '--help'], ['worker', '-h'], ['team', 'delete', '-h'], ['--help']]) {
      const result = await quireInProcess(env, ...args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout, /^Usage: quire/, args.join(' '));
    }
    // Options before --help do not matter (`key list --team X --help` prints key list's usage).
    const withOptions = await quireInProcess(env, 'key', 'list', '--team', 'abc', '--help');
    assert.match(withOptions.stdout, /quire key list --team TEAM_ID/);
    assert.equal(existsSync(env.QUIRE_DATA_DIR), false);
  });

  it('serve --help through the real command (bin/quire.mjs) prints usage and starts no server', async () => {
    const result = await quire(env, 'serve', '--help');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: quire serve/);
    assert.equal(existsSync(env.QUIRE_DATA_DIR), false);
  });

  it('quire help team, quire team --help and quire team list every subcommand with examples', async () => {
    const teamSubcommands = [
      'create',
      'list',
      'billing',
      'set-billing',
      'set-plan',
      'suspend',
      'unsuspend',
      'delete',
    ];
    for (const args of [
      ['help', 'team'],
      ['team', '--help'],
    ]) {
      const result = await quireInProcess(env, ...args);
      assert.equal(result.code, 0, result.stderr);
      for (const sub of teamSubcommands)
        assert.match(result.stdout, new RegExp(`^  quire team ${sub} `, 'm'));
      assert.match(result.stdout, /\nExamples:\n {2}quire team create --name "Acme Ltd" --plan starter\n/);
    }
    // Without a subcommand: a usage error (exit 2) that still lists all of them.
    const bare = await quireInProcess(env, 'team');
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^quire team needs a subcommand\./);
    for (const sub of teamSubcommands) assert.match(bare.stderr, new RegExp(`quire team ${sub} `));
    const key = await quireInProcess(env, 'key');
    assert.equal(key.code, 2);
    for (const sub of ['create', 'list', 'revoke']) assert.match(key.stderr, new RegExp(`quire key ${sub} `));
    const unknown = await quireInProcess(env, 'key', 'rotate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^quire key has no subcommand "rotate"\./);
  });

  it('the overview groups commands by topic and lists every subcommand and an example of each group', async () => {
    const result = await quireInProcess(env, 'help');
    assert.equal(result.code, 0);
    for (const heading of ['Run Quire:', 'Teams, keys and users:', 'Billing:', 'Data:', 'Settings:'])
      assert.match(result.stdout, new RegExp(`^${heading}$`, 'm'));
    assert.match(
      result.stdout,
      /^ {2}team create\|list\|billing\|set-billing\|set-plan\|suspend\|unsuspend\|delete$/m,
    );
    assert.match(result.stdout, /^ {2}key create\|list\|revoke$/m);
    assert.match(result.stdout, /^ {2}user create$/m);
    assert.match(result.stdout, /^ {2}quire key create --team team_123 --mode live$/m);
    assert.equal((await quireInProcess(env)).stdout, result.stdout);
  });

  it('--json: version and config print JSON', async () => {
    const version = await quireInProcess(env, 'version', '--json');
    assert.equal(version.code, 0, version.stderr);
    assert.match(JSON.parse(version.stdout).version, /^\d+\.\d+\.\d+/);
    const config = await quireInProcess({}, 'config', '--json');
    const { settings } = JSON.parse(config.stdout) as { settings: { env: string; default: string }[] };
    assert.ok(settings.some((s) => s.env === 'QUIRE_PORT' && s.default === '3000'));
    const effective = await quireInProcess({ QUIRE_PORT: '4321' }, 'config', '--effective', '--json');
    const values = JSON.parse(effective.stdout).settings as { env: string; value: string }[];
    assert.equal(values.find((s) => s.env === 'QUIRE_PORT')?.value, '4321');
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const result = await quireInProcess(env, '--version');
    assert.equal(result.code, 0);
    assert.equal(result.stdout.trim(), version);
  });

  it('an unknown command exits 2 with the overview', async () => {
    const result = await quireInProcess(env, 'frobnicate');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Unknown command "frobnicate"/);
  });

  /**
   * `quire serve` that cannot start writes one JSON log record (pino's shape) on stdout — every
   * line of both streams parses as JSON, no stack — and exits non-zero; `code` and `msg` say what to fix.
   */
  const startFails = async (
    extra: Record<string, string>,
    code: string,
    msg: RegExp,
    exitCode = 1,
    command = 'serve',
  ) => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const result = await quire({ ...env, QUIRE_DATA_DIR: dataDir, ...extra }, command);
    assert.equal(result.code, exitCode, `${result.stdout}${result.stderr}`);
    const lines = `${result.stdout}${result.stderr}`.split('\n').filter(Boolean);
    const records = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return assert.fail(`not a JSON line: ${line}`);
      }
    });
    const failures = records.filter((r) => r.event === 'startup_failed');
    assert.equal(failures.length, 1, lines.join('\n'));
    const [record] = failures as [Record<string, unknown>];
    assert.equal(record.level, 60);
    assert.equal(record.code, code);
    assert.equal(typeof record.time, 'number');
    assert.equal(typeof record.hostname, 'string');
    assert.match(String(record.msg), msg);
    assert.ok(!('err' in record), 'a configuration problem is not reported as a bug');
    assert.doesNotMatch(result.stdout, /\bat .+:\d+:\d+/);
    return record;
  };

  // Each `quire serve` below is a process of its own; those of one test start side by side.
  it('a missing, invalid or unknown-plan QUIRE_PLANS_FILE is one JSON record naming the setting', async () => {
    const plansFile = (name: string, text: string) => {
      const file = path.join(scratch, name);
      writeFileSync(file, text);
      return file;
    };
    const bad = plansFile('bad.json', '{"free": ');
    const unknown = plansFile('unknown.json', '{"gold": {"docs_per_period": 5}}');
    const badKey = plansFile('bad-key.json', '{"free": {"docs_per_month": 5}}');
    await Promise.all([
      startFails(
        { QUIRE_PLANS_FILE: path.join(scratch, 'missing.json') },
        'plans_file_invalid',
        /^Quire cannot start: QUIRE_PLANS_FILE: cannot read/,
      ),
      startFails({ QUIRE_PLANS_FILE: bad }, 'plans_file_invalid', /QUIRE_PLANS_FILE: .*not valid JSON/),
      startFails(
        { QUIRE_PLANS_FILE: unknown },
        'plans_file_invalid',
        /QUIRE_PLANS_FILE: unknown plan "gold"/,
      ),
      startFails(
        { QUIRE_PLANS_FILE: badKey },
        'plans_file_invalid',
        /QUIRE_PLANS_FILE: free\.docs_per_month is not a known plan setting/,
      ),
    ]);
  });

  it('a Chromium path that does not start is one JSON record naming QUIRE_CHROMIUM_PATH and the fix', async () => {
    await Promise.all([
      startFails(
        { QUIRE_CHROMIUM_PATH: '/nonexistent/chromium', ...OWN_CHROMIUM },
        'chromium_failed',
        /QUIRE_CHROMIUM_PATH: Chromium at \/nonexistent\/chromium did not start .*set QUIRE_CHROMIUM_PATH/,
      ),
      startFails(
        { QUIRE_CHROMIUM_PATH: '/bin/false', ...OWN_CHROMIUM },
        'chromium_failed',
        /QUIRE_CHROMIUM_PATH/,
      ),
    ]);
  });

  it('a port in use is one JSON record naming QUIRE_PORT and the fix', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await startFails(
        { QUIRE_PORT: String(port), QUIRE_HOST: '127.0.0.1' },
        'port_in_use',
        /^Quire cannot start: QUIRE_PORT: port \d+ on 127\.0\.0\.1 is already in use\. .*set QUIRE_PORT to a free port/,
      );
    } finally {
      blocker.close();
    }
  });

  it('invalid settings are one JSON record listing each problem, exit 2', async () => {
    const [record] = await Promise.all([
      startFails(
        { QUIRE_PORT: 'eighty', QUIRE_WORKERS: 'many' },
        'invalid_configuration',
        /^Quire cannot start: Invalid configuration: .*QUIRE_PORT must be an integer, got "eighty"/,
        2,
      ),
      // `quire worker` reports the same way.
      startFails({ QUIRE_WORKERS: 'many' }, 'invalid_configuration', /QUIRE_WORKERS/, 2, 'worker'),
    ]);
    assert.equal((record.problems as string[]).length, 2);
    assert.match(String((record.problems as string[])[1]), /QUIRE_WORKERS/);
  });

  it('an unreachable PostgreSQL is one JSON record naming QUIRE_DATABASE_URL, without its password', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    // Nothing listens there once the probe closes: the connection is refused at once.
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    const record = await startFails(
      { QUIRE_DATABASE_URL: `postgres://quire:s3cret-pw@127.0.0.1:${port}/quire` },
      'database_unreachable',
      /QUIRE_DATABASE_URL: cannot connect to .*127\.0\.0\.1.*ECONNREFUSED.*Check that PostgreSQL runs/,
    );
    assert.doesNotMatch(JSON.stringify(record), /s3cret-pw/);
  });

  it('a data directory that cannot be created is one JSON record naming QUIRE_DATA_DIR', async () => {
    // sysfs refuses new folders to every user, root included.
    await startFails(
      { QUIRE_DATA_DIR: '/sys/quire-data' },
      'data_dir_not_writable',
      /QUIRE_DATA_DIR: cannot write \/sys\/quire-data \((EPERM|EACCES|EROFS)\)\. .*writable folder/,
    );
  });

  it('with QUIRE_LOG_FORMAT=pretty the failure is a readable line on stderr instead', async () => {
    const result = await quire({ ...env, QUIRE_LOG_FORMAT: 'pretty', QUIRE_PORT: 'eighty' }, 'serve');
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^Invalid configuration:\n {2}- QUIRE_PORT must be an integer/);
  });

  it('other commands keep plain error text for the person typing them', async () => {
    const result = await quireInProcess({ ...env, QUIRE_PORT: 'eighty' }, 'team', 'list');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^Invalid configuration:/);
  });
});

// In this file rather than its own: the CLI's modules are loaded once for every in-process call.
describe('quire config --effective', () => {
  it('prints the values in effect and hides secrets', async () => {
    const token = 'metrics-secret-value-42';
    const result = await quireInProcess(
      { QUIRE_PORT: '4321', QUIRE_METRICS_TOKEN: token, QUIRE_TRUST_PROXY: '10.0.0.0/8' },
      'config',
      '--effective',
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^QUIRE_PORT=4321$/m);
    assert.match(result.stdout, /^QUIRE_TRUST_PROXY=\["10\.0\.0\.0\/8"\]$/m);
    assert.match(result.stdout, /^QUIRE_METRICS_TOKEN=\(set, hidden\)$/m);
    assert.ok(!result.stdout.includes(token));
  });
});
