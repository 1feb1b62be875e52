import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../../src/config/config.js';
import {
  BrowserSupervisor,
  type SandboxFacts,
  sandboxBlocker,
} from '../../../src/render/browser-supervisor.js';

const run = promisify(execFile);
const CHROMIUM = loadConfig({}).chromiumPath;
const isRoot = process.getuid?.() === 0;
/** The user the non-root check runs as (nobody). */
const NOBODY = 65534;

function hasSetpriv(): boolean {
  try {
    execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Entry {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}
function recordingLog() {
  const entries: Entry[] = [];
  const at = (level: Entry['level']) => (obj: object, msg?: string) =>
    entries.push({ level, obj, msg: msg ?? '' });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

const facts = (uid: number, sysctl: Record<string, string> = {}): SandboxFacts => ({
  uid,
  sysctl: (name) => sysctl[name] ?? null,
});

/**
 * Starts a supervisor with a Chromium of its own, as root (`hostFacts`: what the machine looks like, else
 * this one), asserts that it runs unsandboxed with exactly one warning, and hands both to `check`.
 */
async function withUnsandboxedStart(
  hostFacts: SandboxFacts | undefined,
  check: (supervisor: BrowserSupervisor, warning: string) => Promise<void>,
): Promise<void> {
  const log = recordingLog();
  const supervisor = await BrowserSupervisor.start(
    { chromiumPath: CHROMIUM, chromiumWsEndpoint: null },
    log,
    hostFacts,
  );
  try {
    assert.equal(supervisor.sandboxed, false);
    const warnings = log.entries.filter((e) => e.level === 'warn');
    assert.equal(warnings.length, 1, JSON.stringify(log.entries));
    await check(supervisor, warnings[0]?.msg ?? '');
  } finally {
    await supervisor.close();
  }
}

describe('Chromium sandbox', () => {
  it('knows when the sandbox cannot start: root, user namespaces switched off', () => {
    assert.match(sandboxBlocker(facts(0)) ?? '', /root/);
    assert.match(
      sandboxBlocker(facts(1000, { 'kernel/unprivileged_userns_clone': '0' })) ?? '',
      /unprivileged_userns_clone = 0/,
    );
    assert.match(
      sandboxBlocker(facts(1000, { 'user/max_user_namespaces': '0' })) ?? '',
      /max_user_namespaces/,
    );
    assert.equal(sandboxBlocker(facts(1000, { 'kernel/unprivileged_userns_clone': '1' })), null);
    assert.equal(sandboxBlocker(facts(1000)), null, 'absent settings: a launch decides');
  });

  it('as root: runs without it, with one start-up warning that says why and how to fix it', {
    skip: !isRoot,
  }, async () => {
    await withUnsandboxedStart(undefined, async (supervisor, warning) => {
      assert.match(warning, /WITHOUT its sandbox: Quire runs as root.*non-root user.*user namespaces/);
      const page = await (await supervisor.current()).newPage();
      await page.setContent('<p>works</p>');
      assert.equal(await page.textContent('p'), 'works');
    });
  });

  it('falls back with the reason when a sandboxed launch fails on a machine that looked able', {
    skip: !isRoot,
  }, async () => {
    // Running as root, a launch with the sandbox fails for real: the try-launch path, not a simulation of it.
    await withUnsandboxedStart(facts(1000), async (supervisor, warning) => {
      assert.match(warning, /could not start its sandbox \(Running as root without --no-sandbox/);
      assert.ok(supervisor.isUp());
    });
  });

  it('does not retry without the sandbox after a start that ran out of memory, and says why', async () => {
    // Chromium under a 4 GB address-space limit dies at start (SIGTRAP, no message) before any sandbox
    // check: the sandbox is not the cause, so the supervisor must not take it away and try again.
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-oom-'));
    try {
      const launches = path.join(dir, 'launches');
      const wrapper = path.join(dir, 'chromium');
      writeFileSync(
        wrapper,
        `#!/bin/sh\necho launch >> '${launches}'\nulimit -v 4000000\nexec '${CHROMIUM}' "$@"\n`,
        {
          mode: 0o755,
        },
      );
      const log = recordingLog();
      await assert.rejects(
        BrowserSupervisor.start({ chromiumPath: wrapper, chromiumWsEndpoint: null }, log, facts(1000)),
        /chromium did not start: .*signal=SIGTRAP.*Not a sandbox refusal, so no retry without the sandbox/,
      );
      assert.equal(readFileSync(launches, 'utf8').trim().split('\n').length, 1, 'launched once, sandboxed');
      assert.deepEqual(
        log.entries.map((e) => e.level),
        ['error'],
        'reported as a failed start, with no warning about running unsandboxed',
      );
      assert.deepEqual(log.entries[0]?.obj, {
        chromium_sandbox: true,
        reason: '<process did exit: exitCode=null, signal=SIGTRAP>',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('as a non-root user with user namespaces: sandboxed, renderers under seccomp, no warning', {
    skip: !isRoot || !hasSetpriv() ? 'needs root (to switch to nobody) and setpriv' : false,
  }, async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'quire-sandbox-'));
    chmodSync(home, 0o777);
    try {
      const probe = path.join(import.meta.dirname, 'sandbox-probe.ts');
      const { stdout } = await run(
        'setpriv',
        [
          `--reuid=${NOBODY}`,
          `--regid=${NOBODY}`,
          '--clear-groups',
          process.execPath,
          '--import',
          'tsx',
          probe,
          CHROMIUM,
        ],
        { env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: home }, timeout: 120_000 },
      );
      const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
      assert.equal(result.sandboxed, true, stdout);
      assert.deepEqual(result.lines, ['info chromium started'], 'no warning');
      assert.equal(result.text, 'sandboxed');
      assert.ok(result.seccomp.length > 0);
      for (const mode of result.seccomp)
        assert.equal(mode, 2, 'each renderer runs under a seccomp-bpf filter');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
