import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { COMMANDS } from '../../../src/cli/commands.js';
import { usageFor, wantsHelp } from '../../../src/cli/usage.js';
import { quire, quireInProcess } from '../../helpers/quire-process.js';

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

  const startFails = async (extra: Record<string, string>, setting: RegExp) => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const result = await quire({ ...env, QUIRE_DATA_DIR: dataDir, ...extra }, 'serve');
    assert.notEqual(result.code, 0);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line, no stack: ${result.stderr}`);
    assert.match(lines[0] ?? '', setting);
    assert.doesNotMatch(result.stderr, /\bat .+:\d+:\d+/);
  };

  it('a missing, invalid or unknown-plan QUIRE_PLANS_FILE is one line naming the setting', async () => {
    await startFails(
      { QUIRE_PLANS_FILE: path.join(scratch, 'missing.json') },
      /^Quire cannot start: QUIRE_PLANS_FILE: cannot read/,
    );
    const bad = path.join(scratch, 'bad.json');
    writeFileSync(bad, '{"free": ');
    await startFails({ QUIRE_PLANS_FILE: bad }, /QUIRE_PLANS_FILE: .*not valid JSON/);
    const unknown = path.join(scratch, 'unknown.json');
    writeFileSync(unknown, '{"gold": {"docs_per_period": 5}}');
    await startFails({ QUIRE_PLANS_FILE: unknown }, /QUIRE_PLANS_FILE: unknown plan "gold"/);
    const badKey = path.join(scratch, 'bad-key.json');
    writeFileSync(badKey, '{"free": {"docs_per_month": 5}}');
    await startFails(
      { QUIRE_PLANS_FILE: badKey },
      /QUIRE_PLANS_FILE: free\.docs_per_month is not a known plan setting/,
    );
  });

  it('a Chromium path that does not start is one line naming QUIRE_CHROMIUM_PATH', async () => {
    await startFails(
      { QUIRE_CHROMIUM_PATH: '/nonexistent/chromium' },
      /QUIRE_CHROMIUM_PATH: Chromium at \/nonexistent\/chromium did not start/,
    );
    await startFails({ QUIRE_CHROMIUM_PATH: '/bin/false' }, /QUIRE_CHROMIUM_PATH/);
  });

  it('a port in use is one line naming QUIRE_PORT', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await startFails(
        { QUIRE_PORT: String(port), QUIRE_HOST: '127.0.0.1' },
        /^Quire cannot start: QUIRE_PORT: port \d+ on 127\.0\.0\.1 is already in use/,
      );
    } finally {
      blocker.close();
    }
  });

  it('an invalid setting is one line per problem naming the variable', async () => {
    const result = await quireInProcess({ ...env, QUIRE_PORT: 'eighty' }, 'serve');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /QUIRE_PORT must be an integer/);
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
