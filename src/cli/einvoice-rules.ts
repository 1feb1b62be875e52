import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CompiledRules } from '../einvoice-inbound/index.js';

/** src/cli/ and the bundle's dist/server/ both sit two levels below Quire's directory. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'compile-einvoice-rules.mjs');
const COMPILER = path.join(ROOT, 'node_modules', 'xslt3-he', 'xslt3.js');
/** npm rewrites it at every install: a compiler installed after a stamp may have changed the SEF it makes. */
const INSTALLED = path.join(ROOT, 'node_modules', '.package-lock.json');
/** `nice`'s own default increment: the compile yields its core to renders, yet still ends on a busy machine. */
const NICE = '10';

type Log = {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

/** One line of the script's `--progress` output. */
type Progress = { pending?: string[]; compiled?: string; ms?: number };

/**
 * The official e-invoice rules, compiled in the background by a server started from a checkout
 * (`npm start` no longer waits about 90 s for them before it listens: issue 54). `prepare` runs before the
 * server is built: the stylesheets whose SEF may be missing or outdated (by file dates) are pending from the
 * first request on, so no check runs on an outdated SEF. `start`, once the server listens, runs
 * scripts/compile-einvoice-rules.mjs at low priority (`nice`), one stylesheet at a time so renders keep a
 * core; it decides by content which are really stale, compiles them and reports each to `rules`. An
 * installed package or image has no compile script (it ships the rules compiled): nothing runs there.
 */
export class RulesCompiler {
  readonly #rules: CompiledRules;
  #child: ChildProcess | null = null;

  private constructor(rules: CompiledRules) {
    this.#rules = rules;
  }

  /** A compiler for `rules` when some may be outdated and this is a checkout that can compile them, else null. */
  static prepare(
    rules: CompiledRules,
    mayBeOutdated: (dir: string, installedMs: number) => string[],
  ): RulesCompiler | null {
    if (!existsSync(SCRIPT) || !existsSync(COMPILER)) return null;
    const installedMs = statSync(INSTALLED, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const candidates = mayBeOutdated(rules.dir, installedMs);
    if (candidates.length === 0) return null;
    rules.compiling(candidates);
    return new RulesCompiler(rules);
  }

  /** Starts the compile in its own low-priority process group; it is ended with this process. */
  start(log: Log): void {
    const started = Date.now();
    const child = spawnLowPriority(process.execPath, [
      SCRIPT,
      '--out',
      this.#rules.dir,
      '--lanes',
      '1',
      '--progress',
    ]);
    this.#child = child;
    // Killed with the server: a compile left running would outlive it (its own process group, below).
    const stop = () => this.stop();
    process.once('exit', stop);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString()}`.slice(-4000);
    });
    if (child.stdout)
      createInterface({ input: child.stdout }).on('line', (line) => this.#progress(line, log));
    child.once('error', (err) => {
      this.#rules.failed('compiling them could not start (the server log says why)');
      log.error({ err }, 'e-invoice rules: the background compile could not start');
    });
    // 'close', not 'exit': the last progress lines are read by then.
    child.once('close', (code, signal) => {
      process.removeListener('exit', stop);
      this.#child = null;
      const seconds = Math.round((Date.now() - started) / 1000);
      if (code === 0 && this.#rules.ready()) {
        log.info({ seconds }, 'e-invoice rules: compiled; every check can run');
        return;
      }
      if (signal === 'SIGTERM') return;
      this.#rules.failed('compiling them failed (the server log says why)');
      log.error({ code, signal, stderr }, 'e-invoice rules: the background compile failed');
    });
  }

  /** Ends the compile (and the xslt3 process it runs) if it is still running. */
  stop(): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }

  #progress(line: string, log: Log): void {
    let message: Progress;
    try {
      message = JSON.parse(line) as Progress;
    } catch {
      return;
    }
    if (message.pending) {
      this.#rules.compiling(message.pending);
      if (message.pending.length > 0)
        log.info(
          { stylesheets: message.pending.length },
          'e-invoice rules: compiling in the background; checks that need them answer service_busy until then',
        );
    }
    if (message.compiled) this.#rules.compiled(message.compiled, message.ms);
  }
}

/**
 * `nice node …` where `nice` exists (exec'd: the process and everything it starts run at low priority from
 * their first instruction), in a process group of its own so that stopping it ends its xslt3 child too.
 */
function spawnLowPriority(command: string, args: string[]): ChildProcess {
  const nice = ['/usr/bin/nice', '/bin/nice'].find((file) => existsSync(file));
  const [file, argv] = nice ? [nice, ['-n', NICE, command, ...args]] : [command, args];
  return spawn(file, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}
