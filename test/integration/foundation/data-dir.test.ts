import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ConfigError } from '../../../src/config/config.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { bundleOrSource } from '../../helpers/quire-process.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'quire.mjs');

const modeOf = (file: string) => statSync(file).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;

/** Every path under `dir` (relative) with its permission bits in octal, directories marked with a slash. */
function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full) + (entry.isDirectory() ? '/' : '');
    modes[name] = octal(modeOf(full));
  }
  return modes;
}

/** Runs `fn` with the process umask set to `mask`, restoring it afterwards. */
async function withUmask<T>(mask: number, fn: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(previous);
  }
}

describe('the data directory under a permissive umask (000)', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'quire-perm-'));
  // Two levels that do not exist yet: Quire creates both.
  const dataDir = path.join(parent, 'var', 'quire');
  let server: TestServer;
  let modes: Record<string, string>;

  before(async () => {
    await withUmask(0o000, async () => {
      server = await startTestServer({ dataDir });
      const { live } = await server.team();
      const stored = await api(server.base, 'POST', '/v1/pdf', {
        key: live,
        body: { html: '<p>a private document</p>', response: 'url' },
      });
      assert.equal(stored.status, 200, stored.text);
      modes = modesUnder(dataDir);
    });
  });
  after(async () => {
    await server?.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('creates the data directory and its parents 0700', () => {
    assert.equal(octal(modeOf(dataDir)), '0700');
    assert.equal(octal(modeOf(path.dirname(dataDir))), '0700');
  });

  it('creates the database, its WAL files and the server secret 0600', () => {
    for (const name of ['quire.sqlite', 'quire.sqlite-wal', 'quire.sqlite-shm', 'server-secret']) {
      assert.equal(modes[name], '0600', `${name}: ${JSON.stringify(modes)}`);
    }
  });

  it('stores PDFs 0600 in directories 0700, and nothing else is readable by others', () => {
    const pdfs = Object.keys(modes).filter((name) => name.startsWith('blobs/') && name.endsWith('.pdf'));
    assert.ok(pdfs.length > 0, `no stored PDF: ${JSON.stringify(modes)}`);
    const open = Object.entries(modes).filter(
      ([name, mode]) => mode !== (name.endsWith('/') ? '0700' : '0600'),
    );
    assert.deepEqual(open, []);
  });
});

describe('the server secret', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-secret-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is created once as 32 random bytes, owner-only, and read back unchanged by every later start', async () => {
    const dir = freshDir();
    const first = await withUmask(0o000, async () => loadServerSecret(dir));
    assert.equal(first.length, 32);
    const file = path.join(dir, 'server-secret');
    assert.equal(octal(modeOf(file)), '0600');
    assert.equal(readFileSync(file, 'utf8'), first.toString('hex'));
    assert.deepEqual(loadServerSecret(dir), first);
    assert.deepEqual(readdirSync(dir), ['server-secret'], 'no temporary file is left behind');
  });

  it('is the same for processes that create it at the same moment', async () => {
    const dir = freshDir();
    const script = `import { loadServerSecret } from ${JSON.stringify(path.join(root, 'src/storage/server-secret.ts'))};
process.stdout.write(loadServerSecret(${JSON.stringify(dir)}).toString('hex'));`;
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root }),
      ),
    );
    const secrets = new Set(outputs.map((o) => o.stdout));
    assert.deepEqual([...secrets], [readFileSync(path.join(dir, 'server-secret'), 'utf8')]);
  });

  const invalid: [string, string][] = [
    ['empty', ''],
    ['truncated (31 bytes)', 'ab'.repeat(31)],
    ['too long (33 bytes)', 'ab'.repeat(33)],
    ['not hex', 'zz'.repeat(32)],
  ];
  for (const [label, content] of invalid) {
    it(`refuses a file that is ${label}, naming the file, and leaves it untouched`, () => {
      const dir = freshDir();
      const file = path.join(dir, 'server-secret');
      writeFileSync(file, content, { mode: 0o600 });
      assert.throws(
        () => loadServerSecret(dir),
        (err: unknown) =>
          err instanceof ConfigError && err.message.includes(file) && err.message.includes('delete it'),
      );
      assert.equal(readFileSync(file, 'utf8'), content);
    });
  }

  it('quire serve refuses to start on a truncated secret with one line saying which file and what to do', async () => {
    const dir = freshDir();
    const file = path.join(dir, 'server-secret');
    writeFileSync(file, 'ab'.repeat(16), { mode: 0o600 });
    const env = { ...process.env, QUIRE_DATA_DIR: dir, ...bundleOrSource(), QUIRE_PORT: '0' };
    const failure = await run(process.execPath, [bin, 'serve'], { env, cwd: root }).then(
      () => assert.fail('quire serve started with a truncated secret'),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.equal(failure.code, 2);
    // A failed start is one JSON log record (docs/operations.md "Logs"), readable text only on a terminal.
    const lines = `${failure.stdout}${failure.stderr}`.trim().split('\n');
    assert.equal(lines.length, 1, `${failure.stdout}${failure.stderr}`);
    const record = JSON.parse(lines[0]!) as { event: string; msg: string };
    assert.equal(record.event, 'startup_failed');
    assert.match(
      record.msg,
      new RegExp(`server secret ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is invalid`),
    );
  });
});
