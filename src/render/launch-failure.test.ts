import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyLaunchFailure } from './launch-failure.js';

/**
 * Launch errors as playwright-core 1.65 throws them (the shape of its `browserType.launch` errors: a first
 * line, playwright's summary of a sandbox failure when it recognises one, then the call log with Chromium's
 * stderr, dimmed with ANSI codes). The Chromium lines are Chromium's own words: captured on Debian's
 * Chromium here where marked, else as the reports cited quote them, or (the memory cases) Chromium's
 * message with the error it would carry.
 */
const DIM = (line: string) => `\u001b[2m  - ${line}\u001b[22m`;
const LAUNCHING = DIM(
  '<launching> /usr/bin/chromium --disable-field-trial-config --headless --disable-gpu --proxy-bypass-list=<-loopback> --user-data-dir=/tmp/playwright_chromiumdev_profile-lVeWgZ --remote-debugging-pipe --no-startup-window',
);
const PLAYWRIGHT_SANDBOX_SUMMARY = [
  'Chromium sandboxing failed!',
  '================================',
  'To avoid the sandboxing issue, do either of the following:',
  '  - (preferred): Configure your environment to support sandboxing',
  "  - (alternative): Launch Chromium without sandbox using 'chromiumSandbox: false' option",
  '================================',
  '',
];

/** A launch whose Chromium exited: playwright's "browser has been closed" error around Chromium's stderr. */
function exited(stderr: string[], exit: string, summary: string[] = []): Error {
  const pid = 28273;
  return new Error(
    [
      'browserType.launch: Target page, context or browser has been closed',
      'Browser logs:',
      ...summary,
      'Call log:',
      LAUNCHING,
      DIM(`<launched> pid=${pid}`),
      DIM(`[pid=${pid}][err] /usr/bin/chromium: 9: [: 25275117568: unexpected operator`),
      ...stderr.map((line) => DIM(`[pid=${pid}][err] ${line}`)),
      DIM(`[pid=${pid}] <gracefully close start>`),
      DIM(`[pid=${pid}] <kill>`),
      DIM(`[pid=${pid}] <will force kill>`),
      DIM(`[pid=${pid}] <process did exit: ${exit}>`),
      DIM(`[pid=${pid}] starting temporary directories cleanup`),
      DIM(`[pid=${pid}] finished temporary directories cleanup`),
      DIM(`[pid=${pid}] <gracefully close end>`),
      '',
    ].join('\n'),
  );
}

/** playwright's launch time-out (a TimeoutError), with what Chromium had logged by then. */
function timedOut(stderr: string[]): Error {
  const err = new Error(
    [
      'browserType.launch: Timeout 180000ms exceeded.',
      'Call log:',
      LAUNCHING,
      DIM('<launched> pid=28625'),
      DIM('[pid=28625][err] /usr/bin/chromium: 9: [: 25275117568: unexpected operator'),
      ...stderr.map((line) => DIM(`[pid=28625][err] ${line}`)),
      '',
    ].join('\n'),
  );
  err.name = 'TimeoutError';
  return err;
}

const SANDBOX_REFUSED: Array<[string, Error, RegExp]> = [
  [
    'as root (captured here: Debian Chromium, playwright-core 1.65)',
    exited(
      [
        '[28273:28273:1206/191055.758647:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:103] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.',
      ],
      'exitCode=1, signal=null',
      PLAYWRIGHT_SANDBOX_SUMMARY,
    ),
    /^Running as root without --no-sandbox is not supported/,
  ],
  [
    'user namespaces refused by AppArmor (Ubuntu 24.04; ungoogled-chromium#2804)',
    exited(
      [
        '[110483:110483:0415/143659.359212:FATAL:zygote_host_impl_linux.cc(127)] No usable sandbox! Update your kernel or see https://chromium.googlesource.com/chromium/src/+/main/docs/linux/suid_sandbox_development.md for more information on developing with the SUID sandbox. If you want to live dangerously and need an immediate workaround, you can try using --no-sandbox.',
      ],
      'exitCode=null, signal=SIGTRAP',
      PLAYWRIGHT_SANDBOX_SUMMARY,
    ),
    /^No usable sandbox!/,
  ],
  [
    "user namespaces refused by a container's seccomp profile (otobo-docker#148)",
    exited(
      [
        'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted',
        '[1868:1868:0311/120334.394798:FATAL:zygote_host_impl_linux.cc(206)] Check failed: . : Operation not permitted (1)',
      ],
      'exitCode=null, signal=SIGABRT',
    ),
    /^Failed to move to new namespace/,
  ],
  [
    'a setuid sandbox helper that is not root-owned with mode 4755 (appium-inspector#1567)',
    exited(
      [
        "[19889:0723/183728.430148:FATAL:setuid_sandbox_host.cc(158)] The SUID sandbox helper binary was found, but is not configured correctly. Rather than run without sandboxing I'm aborting now. You need to make sure that /usr/lib/chromium/chrome-sandbox is owned by root and has mode 4755.",
      ],
      'exitCode=null, signal=SIGTRAP',
    ),
    /^The SUID sandbox helper binary was found/,
  ],
];

const OTHER: Array<[string, Error, RegExp]> = [
  ['a launch time-out (captured here, playwright-core 1.65)', timedOut([]), /Timeout 180000ms exceeded/],
  [
    'a time-out whose log holds a sandbox line: the time-out decides',
    timedOut([
      'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted',
    ]),
    /Timeout 180000ms exceeded/,
  ],
  [
    'a time-out while the sandbox warns about threads (a benign line: electron#33988)',
    timedOut([
      '[28625:28625:1206/191102.120311:ERROR:sandbox_linux.cc(377)] InitializeSandbox() called with multiple threads in process gpu-process.',
    ]),
    /Timeout 180000ms exceeded/,
  ],
  [
    'out of memory at start: the sandbox namespace not made for want of memory (Chromium’s lines, with ENOMEM)',
    exited(
      [
        'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Cannot allocate memory',
        '[2211:2211:1206/191055.758647:FATAL:zygote_host_impl_linux.cc(206)] Check failed: . : Cannot allocate memory (12)',
      ],
      'exitCode=null, signal=SIGABRT',
    ),
    /Cannot allocate memory/,
  ],
  [
    'out of memory at start: Chromium’s own report (base/process/memory.cc)',
    exited(
      ['[2211:2211:1206/191055.758647:FATAL:memory.cc(22)] Out of memory. size=262144'],
      'exitCode=null, signal=SIGTRAP',
    ),
    /Out of memory\. size=262144/,
  ],
  [
    'out of memory at start: no process to spawn (playwright 1.65 wraps Node’s spawn error)',
    new Error('browserType.launch: Failed to launch: Error: spawn /usr/bin/chromium ENOMEM'),
    /spawn \/usr\/bin\/chromium ENOMEM/,
  ],
  [
    'out of address space under ulimit -v (captured here): Chromium dies by SIGTRAP without a word',
    exited([], 'exitCode=null, signal=SIGTRAP'),
    /process did exit: exitCode=null, signal=SIGTRAP/,
  ],
  [
    'a crash at start (SIGSEGV) after the old warning about the SUID sandbox (streamlink-twitch-gui#298)',
    exited(
      [
        '[13077:0820/104041:ERROR:browser_main_loop.cc(170)] Running without the SUID sandbox! See https://code.google.com/p/chromium/wiki/LinuxSUIDSandboxDevelopment for more information on developing with the sandbox on.',
      ],
      'exitCode=null, signal=SIGSEGV',
    ),
    /signal=SIGSEGV/,
  ],
  [
    'a missing shared library',
    exited(
      [
        '/usr/lib/chromium/chromium: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory',
      ],
      'exitCode=127, signal=null',
    ),
    /libnss3\.so/,
  ],
  [
    'no Chromium at the path',
    new Error("browserType.launch: Failed to launch chromium because executable doesn't exist at /opt/none"),
    /executable doesn't exist/,
  ],
];

describe('classifyLaunchFailure: only the sandbox refusing to start is worth a launch without it', () => {
  for (const [label, err, cause] of SANDBOX_REFUSED) {
    it(`sandbox: ${label}`, () => {
      const failure = classifyLaunchFailure(err);
      assert.equal(failure.kind, 'sandbox');
      assert.match(failure.cause, cause);
    });
  }

  for (const [label, err, cause] of OTHER) {
    it(`other: ${label}`, () => {
      const failure = classifyLaunchFailure(err);
      assert.equal(failure.kind, 'other', failure.cause);
      assert.match(failure.cause, cause);
    });
  }

  it('reads no switch of the command line as the error (a launch log names its flags)', () => {
    const launching = DIM('<launching> /usr/bin/chromium --no-sandbox --disable-setuid-sandbox');
    const failure = classifyLaunchFailure(new Error(`boom\nCall log:\n${launching}\n`));
    assert.deepEqual(failure, { kind: 'other', cause: 'boom' });
  });

  it('keeps the cause short and takes errors that are not Error objects', () => {
    assert.equal(classifyLaunchFailure(`No usable sandbox! ${'x'.repeat(500)}`).cause.length, 300);
    assert.deepEqual(classifyLaunchFailure(undefined), { kind: 'other', cause: 'undefined' });
    assert.deepEqual(classifyLaunchFailure(new Error('')), { kind: 'other', cause: 'no message' });
  });
});
