import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { spanEvent } from '../telemetry/index.js';
import { classifyLaunchFailure, type LaunchFailure } from './launch-failure.js';
import type { RenderLogger } from './logger.js';

/**
 * playwright-core is CommonJS. Imported from ESM, Node runs its export lexer over the re-export chain down to
 * the 6 MB core bundle before anything else; required, it does not — 0.3 s less CPU on the path to Chromium's
 * launch at start-up (measured: 0.74–0.83 s of user CPU to import it, 0.41–0.64 s to require it).
 */
const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core');

/**
 * Features switched off. Chromium 156 makes two WebUI pages (the omnibox popups) for every browser context,
 * headless too: two renderer processes per pool page, which took a new page from about 0.9 s to 3 s of
 * Chromium's CPU here, for a toolbar nobody sees. Chromium keeps only the last `--disable-features` switch
 * and playwright passes its own list before Quire's, so Quire's repeats playwright's (as of playwright-core
 * 1.65): test/integration/render/chromium-flags.test.ts reads the running browser's command line and says
 * which names a newer playwright added.
 */
export const DISABLED_FEATURES: readonly string[] = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  // A renderer process Chromium keeps started for the next new page: about 11 MB resident while idle,
  // for a pool that makes its pages rarely (at start, after recycling or a crash) (issue 54: idle memory).
  'SpareRendererForSitePerProcess',
  // playwright's own
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Launch flags. The first group is the team's standard headless set. The second takes the network
 * away from Chromium itself: every request a document makes is intercepted and fetched by Quire
 * (resource-guard.ts), so Chromium never needs to resolve or connect anywhere. Should a request
 * slip past interception (a WebSocket, WebRTC, DNS prefetch), it cannot resolve any name or IP
 * literal and has no usable proxy — so it cannot reach the service's own port or the host's network.
 * The last switches off the features in DISABLED_FEATURES.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://no-network.invalid:1',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** The launch flags, with `--no-sandbox` only when the sandbox cannot start (see {@link sandboxBlocker}). */
export function chromiumArgs(sandbox: boolean): string[] {
  return sandbox ? [...CHROMIUM_ARGS] : [...CHROMIUM_ARGS, '--no-sandbox'];
}

/** What decides whether Chromium's sandbox can start: the process's uid and the kernel's settings. */
export interface SandboxFacts {
  uid: number | null;
  /** A /proc/sys value (e.g. `kernel/unprivileged_userns_clone`), trimmed, or null when absent. */
  sysctl(name: string): string | null;
}

export function machineSandboxFacts(): SandboxFacts {
  return {
    uid: process.getuid?.() ?? null,
    sysctl: (name) => {
      try {
        return readFileSync(`/proc/sys/${name}`, 'utf8').trim();
      } catch {
        return null;
      }
    },
  };
}

/**
 * Why Chromium's sandbox cannot start here, or null when it may (a launch then proves it). Debian's
 * Chromium has no setuid helper: its sandbox needs unprivileged user namespaces, and Chromium refuses to
 * sandbox itself as root.
 */
export function sandboxBlocker(facts: SandboxFacts): string | null {
  if (facts.uid === 0) return 'Quire runs as root, and Chromium does not start its sandbox as root';
  if (facts.sysctl('kernel/unprivileged_userns_clone') === '0')
    return 'unprivileged user namespaces are switched off (sysctl kernel.unprivileged_userns_clone = 0)';
  if (facts.sysctl('user/max_user_namespaces') === '0')
    return 'user namespaces are switched off (sysctl user.max_user_namespaces = 0)';
  return null;
}

/** The start-up warning: why the renderer is unsandboxed, and how an operator fixes it. */
export function noSandboxWarning(reason: string): string {
  return (
    `chromium runs WITHOUT its sandbox: ${reason}. A compromised renderer could then read what the Quire ` +
    'user can (data directory, database, secrets in the environment). Fix: run Quire as a non-root user on ' +
    'a kernel that allows unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and ' +
    "user.max_user_namespaces > 0; in a container, a seccomp profile that permits them). docs/security.md, 'Security model'."
  );
}

/**
 * A sandboxed launch that failed for another reason than the sandbox (a time-out, memory, a crash): logged
 * and answered as what it is, with no retry without the sandbox, which would not have fixed it.
 */
function notASandboxRefusal(log: RenderLogger, failure: LaunchFailure, err: unknown): Error {
  const message = `chromium did not start: ${failure.cause}. Not a sandbox refusal, so no retry without the sandbox.`;
  log.error({ chromium_sandbox: true, reason: failure.cause }, message);
  return new Error(message, { cause: err });
}

/** Waits between relaunch attempts after a crash; the last one repeats until a launch works. */
const RELAUNCH_DELAYS_MS = [0, 250, 1000, 5000];

export interface ChromiumProcess {
  type: string;
  pid: number;
}

/**
 * Which Chromium: launched from `chromiumPath` (production), or, with `chromiumWsEndpoint`, a running
 * Chromium server shared with other processes (one per test run: launching one per test server cost seconds
 * each). "Relaunch" then means reconnect.
 */
export interface ChromiumTarget {
  chromiumPath: string;
  chromiumWsEndpoint: string | null;
}

/**
 * A Chromium server for other processes to connect to (QUIRE_CHROMIUM_WS_ENDPOINT), with the arguments a
 * launched one gets, so PDFs come out the same. Its `wsEndpoint()` is the address; `close()` ends it.
 */
export function launchChromiumServer(chromiumPath: string) {
  return chromium.launchServer({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS] });
}

/** One warm Chromium, relaunched when it crashes or disconnects. */
export class BrowserSupervisor {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private closed = false;
  /** Set at shutdown: a browser lost from now on is not relaunched. */
  private stopping = false;
  private browserPid: number | undefined;
  /** Whether Chromium runs with its sandbox: decided at start, kept for every relaunch. */
  private sandbox = false;
  /** Successful relaunches after a crash or disconnect since start (GET /metrics). */
  relaunches = 0;
  private readonly relaunchListeners = new Set<(browser: Browser) => void>();

  private constructor(
    private readonly target: ChromiumTarget,
    private readonly log: RenderLogger,
  ) {}

  static async start(
    target: ChromiumTarget,
    log: RenderLogger,
    facts: SandboxFacts = machineSandboxFacts(),
  ): Promise<BrowserSupervisor> {
    const supervisor = new BrowserSupervisor(target, log);
    // A shared Chromium (tests) was launched, sandbox and all, by whoever started it.
    if (target.chromiumWsEndpoint) {
      await supervisor.launch();
      return supervisor;
    }
    let blocker = sandboxBlocker(facts);
    supervisor.sandbox = blocker === null;
    try {
      await supervisor.launch();
    } catch (err) {
      if (!supervisor.sandbox) throw err;
      const failure = classifyLaunchFailure(err);
      if (failure.kind !== 'sandbox') throw notASandboxRefusal(log, failure, err);
      // The machine looked able, but the sandbox did not start (a container's seccomp profile, AppArmor):
      // a launch without it is what would still work.
      blocker = `Chromium could not start its sandbox (${failure.cause})`;
      supervisor.sandbox = false;
      await supervisor.launch();
    }
    if (blocker !== null) log.warn({ chromium_sandbox: false, reason: blocker }, noSandboxWarning(blocker));
    return supervisor;
  }

  /** Whether the running Chromium has its sandbox (stats, tests). */
  get sandboxed(): boolean {
    return this.sandbox;
  }

  /** The running browser; waits while a relaunch is under way. */
  async current(): Promise<Browser> {
    if (this.closed) throw new Error('browser supervisor is closed');
    if (this.browser?.isConnected()) return this.browser;
    if (this.stopping) throw new Error('chromium is gone and the service is shutting down');
    return this.launching ?? this.relaunch();
  }

  /** True while a browser is connected and no relaunch is under way (readiness). */
  isUp(): boolean {
    return !this.closed && this.launching === null && this.browser?.isConnected() === true;
  }

  /** Renders in flight may finish on the running browser; a lost one is no longer relaunched. */
  beginShutdown(): void {
    this.stopping = true;
  }

  /** Called with the new browser after every relaunch (the pool rebuilds its pages then). */
  onRelaunch(listener: (browser: Browser) => void): void {
    this.relaunchListeners.add(listener);
  }

  /** The browser when it is up right now (for synchronous stats), else null. */
  connected(): Browser | null {
    return this.browser?.isConnected() ? this.browser : null;
  }

  get pid(): number | undefined {
    return this.browserPid;
  }

  /** Chromium's processes (browser, renderers, utilities) with their pids, for stats and tests. */
  async processes(): Promise<ChromiumProcess[]> {
    const browser = await this.current();
    const cdp = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      return processInfo.map((p) => ({ type: p.type, pid: p.id }));
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  /** Closes a launched Chromium; on a connected one, closes this process's contexts and disconnects. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser ?? (await this.launching?.catch(() => null));
    this.browser = null;
    await browser?.close().catch(() => undefined);
  }

  private async launch(): Promise<Browser> {
    const { chromiumWsEndpoint } = this.target;
    // playwright's own signal handlers would close Chromium at the first SIGTERM/SIGINT/SIGHUP, before
    // the renders in flight finish; shutdown closes it last instead (cli/serve.ts). Chromium runs in
    // its own process group, so a terminal's Ctrl-C does not reach it either.
    const browser = chromiumWsEndpoint
      ? await chromium.connect(chromiumWsEndpoint)
      : await chromium.launch({
          executablePath: this.target.chromiumPath,
          args: chromiumArgs(this.sandbox),
          // playwright adds --no-sandbox itself unless told otherwise.
          chromiumSandbox: this.sandbox,
          handleSIGTERM: false,
          handleSIGINT: false,
          handleSIGHUP: false,
        });
    this.browser = browser;
    browser.on('disconnected', () => this.onDisconnected(browser));
    this.browserPid = (await this.processes().catch(() => [])).find((p) => p.type === 'browser')?.pid;
    this.log.info({ chromium_pid: this.browserPid, chromium_sandbox: this.sandbox }, 'chromium started');
    return browser;
  }

  private onDisconnected(browser: Browser): void {
    if (this.closed || this.browser !== browser) return;
    this.browser = null;
    if (this.stopping) {
      this.log.warn(
        { chromium_pid: this.browserPid },
        'chromium disconnected during shutdown; not relaunching',
      );
      return;
    }
    this.log.error({ chromium_pid: this.browserPid }, 'chromium disconnected; relaunching');
    void this.relaunch().catch(() => undefined);
  }

  private relaunch(): Promise<Browser> {
    this.launching ??= this.relaunchWithBackoff().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async relaunchWithBackoff(): Promise<Browser> {
    for (let attempt = 0; ; attempt++) {
      const delay = RELAUNCH_DELAYS_MS[Math.min(attempt, RELAUNCH_DELAYS_MS.length - 1)] ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.closed || this.stopping) throw new Error('browser supervisor is shutting down');
      try {
        const browser = await this.launch();
        this.relaunches++;
        // On the span of the render (or request) that found Chromium gone, when one started the relaunch.
        spanEvent('quire.chromium.relaunched', {
          'quire.chromium.attempt': attempt + 1,
          'quire.chromium.relaunches': this.relaunches,
        });
        for (const listener of this.relaunchListeners) listener(browser);
        return browser;
      } catch (err) {
        this.log.error({ err, attempt }, 'chromium relaunch failed');
        spanEvent('quire.chromium.relaunch_failed', { 'quire.chromium.attempt': attempt + 1 });
      }
    }
  }
}
