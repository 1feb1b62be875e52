import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { productionShrinkwrap } from '../../../scripts/production-lock.mjs';
import { packPrebuild } from '../../../scripts/sqlite-prebuild.mjs';
import { type LockRegistry, seedNpmCache, startLockRegistry } from '../../helpers/lock-registry.js';
import { npmPack } from '../../helpers/npm-pack.js';
import { pdfText } from '../../helpers/pdf.js';
import { bundleIsCurrent } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';
import { withinTime } from '../../helpers/wait.js';

const run = promisify(execFile);
// The repository itself, also when this file runs from the compiled mirror (scripts/compile-tests.mjs).
const root = path.dirname(realpathSync(path.resolve(import.meta.dirname, '../../../package.json')));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/**
 * The server as a user outside the repository gets it. `npm pack` makes quire-pdf-x.y.z.tgz
 * (prepack: built parts checked, COMMIT); `npm install -g --prefix <tmp> ./quire-pdf-x.y.z.tgz`
 * installs it as docs/deployment.md (Install with npm) says, with npm resolving every dependency itself. Only where the bytes come from is
 * local: a loopback registry that knows exactly package-lock.json's production packages and serves their
 * tarballs from the npm cache (test/helpers/lock-registry.ts), and better-sqlite3's binary from the checkout. The
 * installed `quire` then answers --help and --version and serves: dashboard, API and a rendered PDF.
 */
describe('npm install -g of the packed server (quire-pdf)', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-npm-install-'));
  const prefix = path.join(scratch, 'prefix');
  const installed = path.join(prefix, 'lib', 'node_modules', pkg.name);
  const quireBin = path.join(prefix, 'bin', 'quire');
  let registry: LockRegistry | undefined;
  let tarball = '';
  let installMs = 0;
  let server: ChildProcess | undefined;

  before(async () => {
    if (!bundleIsCurrent())
      await run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { cwd: root });
    tarball = await npmPack(root, scratch);
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    const locked = productionShrinkwrap(lock);
    registry = await startLockRegistry(root, locked);
    seedNpmCache(path.join(scratch, 'npm-cache'), locked);
    // better-sqlite3's binary from the checkout, packed as prebuild-install looks for it (its install script
    // would download it from GitHub, else compile SQLite).
    const prebuilds = path.join(scratch, 'prebuilds');
    packPrebuild(prebuilds, root);
    const started = Date.now();
    await run(
      'npm',
      [
        ...['install', '--global', '--prefix', prefix, '--registry', registry.url],
        ...['--cache', path.join(scratch, 'npm-cache'), '--no-audit', '--no-fund', '--no-update-notifier'],
        // better-sqlite3's binary (the one install script Quire needs; npm 11 asks global installs to name it).
        '--allow-scripts=better-sqlite3',
        tarball,
      ],
      {
        cwd: scratch,
        env: { ...process.env, npm_config_better_sqlite3_local_prebuilds: prebuilds },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 300_000,
      },
    ).catch((error: { stderr?: string }) =>
      assert.fail(
        `npm install -g failed (tarballs not in the npm cache: ${registry?.missing.join(', ') || 'none'}):\n${error.stderr}`,
      ),
    );
    installMs = Date.now() - started;
  });
  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    }
    await registry?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('packs quire-pdf-<version>.tgz with the built server and no sources, tests or dev tools', () => {
    assert.equal(path.basename(tarball), `quire-pdf-${pkg.version}.tgz`);
    for (const file of [
      'bin/quire.mjs',
      'dist/server/main.js',
      'dist/dashboard/index.html',
      'src/einvoice/assets/sRGB.icc',
      'src/templates/starters',
      'tools/einvoice-validate/artefacts/xsd',
      'deploy/debian-packages.txt',
      'README.md',
    ])
      assert.ok(existsSync(path.join(installed, file)), `${file} is in the package`);
    assert.ok(readdirSync(path.join(installed, 'dist/einvoice-rules')).some((f) => f.endsWith('.sef.json')));
    for (const absent of ['test', 'web', 'scripts', 'src/cli', 'clients', 'tsconfig.json'])
      assert.ok(!existsSync(path.join(installed, absent)), `${absent} is not shipped`);
    // Development tools stay out; the bundled Fastify keeps the Node-20 cookie its lock pins (package.json overrides).
    assert.equal(existsSync(path.join(installed, 'node_modules/typescript')), false);
    // The cookie light-my-request resolves, wherever npm placed it (hoisted or nested).
    const cookie = JSON.parse(
      readFileSync(
        createRequire(path.join(installed, 'node_modules/light-my-request/package.json')).resolve(
          'cookie/package.json',
        ),
        'utf8',
      ),
    );
    assert.match(cookie.version, /^1\./);
    // The checkout is left as it was (postpack).
    assert.equal(existsSync(path.join(root, 'COMMIT')), false);
  });

  it('installs the locked dependencies with better-sqlite3 built for this Node', (t) => {
    // Not a time limit: 30 s of CPU here, 73 s of wall time while the machine ran at a load of 17 on two cores.
    t.diagnostic(`npm install -g took ${installMs} ms`);
    assert.deepEqual(registry?.missing, []);
    const sqlite = path.join(installed, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    assert.ok(existsSync(sqlite), 'better-sqlite3 has its binary (its install script ran)');
  });

  it('puts a working quire command in the prefix: --help and --version', async () => {
    const env = { ...process.env, PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}` };
    const help = await run(quireBin, ['--help'], { cwd: scratch, env });
    assert.match(help.stdout, /^Usage: quire/);
    assert.match(help.stdout, /serve/);
    const version = await run(quireBin, ['--version'], { cwd: scratch, env });
    assert.equal(version.stdout.trim(), pkg.version);
  });

  it('serves the dashboard and the API and renders a PDF from the installed package', async () => {
    const child = spawn(quireBin, ['serve'], {
      cwd: scratch,
      env: {
        ...process.env,
        QUIRE_DATA_DIR: path.join(scratch, 'data'),
        QUIRE_DATABASE_URL: '',
        QUIRE_PORT: '0',
        QUIRE_HOST: '127.0.0.1',
        QUIRE_WORKERS: '0',
        QUIRE_LOG_LEVEL: 'warn',
        // Its own Chromium, launched by the installed playwright-core; one page, not warmed (a pool page and its
        // two warm-up prints are configuration, not packaging: this serves one PDF).
        QUIRE_CHROMIUM_WS_ENDPOINT: '',
        QUIRE_RENDER_POOL_SIZE: '1',
        QUIRE_RENDER_PAGE_WARM_UP: '0',
        QUIRE_FROM_SOURCE: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let stderr = '';
    const announced = new Map<string, Record<string, unknown>>();
    const serving = new Promise<Record<string, unknown>>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        for (const line of stderr.split('\n').slice(0, -1)) {
          let record: Record<string, unknown>;
          try {
            record = JSON.parse(line) as Record<string, unknown>;
          } catch {
            continue; // not a log record (the exit message below shows the whole stderr)
          }
          announced.set(String(record.event), record);
          if (record.event === 'serving') resolve(record);
        }
      });
      child.once('exit', (code) => reject(new Error(`quire serve exited with ${code}:\n${stderr}`)));
    });
    const { api_url: apiUrl } = (await withinTime(
      serving,
      180_000,
      'the installed quire did not announce serving in 180 s',
    )) as { api_url: string };
    const base = apiUrl.replace(/\/v1$/, '');
    const key = String(announced.get('default_team_created')?.live_key);
    const dashboard = await fetch(`${base}/app/`);
    assert.equal(dashboard.status, 200);
    assert.match(await dashboard.text(), /<script[^>]+assets\/index-/);
    // Read from a file the package must carry (package.json files), not from the bundle.
    const liquidDocs = await fetch(`${base}/docs/liquid`);
    assert.equal(liquidDocs.status, 200, 'the Liquid filter reference ships in the package');
    const version = await api(base, 'GET', '/version');
    assert.equal(version.json.version, pkg.version);
    const res = await api(base, 'POST', '/v1/pdf', {
      key,
      body: { html: '<h1>Installed {{ n }}</h1>', data: { n: 42 } },
    });
    assert.equal(res.status, 200, res.text);
    assert.match(await pdfText(res.buffer), /Installed 42/);
  });
});
