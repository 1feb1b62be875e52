import { type Browser, chromium } from 'playwright-core';
import type { RenderLogger } from './logger.js';

/**
 * Launch flags. The first group is the team's standard headless set. The second takes the network
 * away from Chromium itself: every request a document makes is intercepted and fetched by Quire
 * (resource-guard.ts), so Chromium never needs to resolve or connect anywhere. Should a request
 * slip past interception (a WebSocket, WebRTC, DNS prefetch), it cannot resolve any name or IP
 * literal and has no usable proxy — so it cannot reach the service's own port or the host's network.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
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
];

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

/** One warm Chromium, relaunched when it crashes or disconnects (issue 3, item 1). */
export class BrowserSupervisor {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private closed = false;
  /** Set at shutdown: a browser lost from now on is not relaunched (issue 11 item 12). */
  private stopping = false;
  private browserPid: number | undefined;
  /** Successful relaunches after a crash or disconnect since start (GET /metrics). */
  relaunches = 0;
  private readonly relaunchListeners = new Set<(browser: Browser) => void>();

  private constructor(
    private readonly target: ChromiumTarget,
    private readonly log: RenderLogger,
  ) {}

  static async start(target: ChromiumTarget, log: RenderLogger): Promise<BrowserSupervisor> {
    const supervisor = new BrowserSupervisor(target, log);
    await supervisor.launch();
    return supervisor;
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
          args: [...CHROMIUM_ARGS],
          handleSIGTERM: false,
          handleSIGINT: false,
          handleSIGHUP: false,
        });
    this.browser = browser;
    browser.on('disconnected', () => this.onDisconnected(browser));
    this.browserPid = (await this.processes().catch(() => [])).find((p) => p.type === 'browser')?.pid;
    this.log.info({ chromium_pid: this.browserPid }, 'chromium started');
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
        for (const listener of this.relaunchListeners) listener(browser);
        return browser;
      } catch (err) {
        this.log.error({ err, attempt }, 'chromium relaunch failed');
      }
    }
  }
}
