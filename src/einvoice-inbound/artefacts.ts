import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../shared/errors.js';
import { RULE_SETS } from './rule-sets.js';

/**
 * Where the official e-invoice artefacts and their compiled rules are: the repository's
 * tools/einvoice-validate/artefacts (XSDs, schematron XSLTs, code lists; also used by the reference
 * validator the tests run) and dist/einvoice-rules (SEF files made by scripts/compile-einvoice-rules.mjs
 * at `npm test`'s bootstrap, at image build and before packing; QUIRE_EINVOICE_RULES_DIR names another
 * directory). Both src/einvoice-inbound/ and the bundle's dist/server/ sit two levels below the repository
 * root.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const ARTEFACTS_DIR = path.join(ROOT, 'tools', 'einvoice-validate', 'artefacts');
export const DEFAULT_RULES_DIR = path.join(ROOT, 'dist', 'einvoice-rules');

/** The SEF of a schematron stylesheet in `dir` (the naming scripts/compile-einvoice-rules.mjs uses). */
export function sefPathOf(artefact: string, dir: string = DEFAULT_RULES_DIR): string {
  return path.join(dir, `${artefact.replaceAll('/', '__')}.sef.json`);
}

export function artefactPath(artefact: string): string {
  return path.join(ARTEFACTS_DIR, artefact);
}

/** Modification time in ms, 0 when the file is missing. */
function mtimeOf(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * Stylesheets whose SEF in `dir` may be missing or outdated, judged by file dates alone (a few dozen stat
 * calls, no hashing, so a server start can afford it): no SEF or no stamp, or a stamp older than its
 * stylesheet or than `compilerInstalledMs` (the last npm install). scripts/compile-einvoice-rules.mjs then
 * decides by content, and gives a fresh stamp that only looked old a new date.
 */
export function mayBeOutdated(dir: string, compilerInstalledMs: number): string[] {
  return RULE_SETS.flatMap((set) => set.stylesheets).filter((stylesheet) => {
    const sef = sefPathOf(stylesheet, dir);
    const stamp = mtimeOf(`${sef}.stamp`);
    return (
      mtimeOf(sef) === 0 ||
      stamp === 0 ||
      stamp < mtimeOf(artefactPath(stylesheet)) ||
      stamp < compilerInstalledMs
    );
  });
}

/** What a pool worker is told with each task: where the SEF files are, and which it may not use yet. */
export interface RulesLocation {
  dir: string;
  /** Stylesheets (artefact paths) waiting to be compiled or being compiled: their SEF is missing or outdated. */
  pending: readonly string[];
}

/**
 * Thrown on a worker thread when a check needs a stylesheet whose SEF is missing or still being compiled;
 * the worker answers it as such (worker.ts) and the pool turns it into CompiledRules.refusal.
 */
export class RulesNotReady extends Error {
  constructor(readonly artefact: string) {
    super(`The compiled e-invoice rules ${artefact} are not ready.`);
    this.name = 'RulesNotReady';
  }
}

/** A first guess of one stylesheet's compile time at low priority, until one has been measured. */
const GUESS_MS_PER_STYLESHEET = 20_000;
/** Retry-After when nothing is compiling a missing stylesheet (an installation without them). */
const MISSING_RETRY_AFTER_S = 60;

/**
 * Which compiled rules this process may use, on the main thread. Started from a checkout, `quire serve`
 * compiles missing or outdated stylesheets in the background after it listens (src/cli/einvoice-rules.ts)
 * and reports its progress here; until a stylesheet is compiled, a check that needs it is refused with
 * service_busy and a Retry-After estimated from its place in the compile queue. Everywhere else (tests, the
 * CLI, an installed package or image, which ship the rules compiled) nothing is pending.
 */
export class CompiledRules {
  readonly dir: string;
  /** In compile order: the one compiling now first. */
  #pending: string[] = [];
  #msPerStylesheet = GUESS_MS_PER_STYLESHEET;
  /** When the stylesheet at the head of #pending started compiling. */
  #currentSince = Date.now();
  #failure: string | null = null;

  constructor(dir: string | null = null) {
    this.dir = dir ?? DEFAULT_RULES_DIR;
  }

  /** What a task tells its worker. */
  location(): RulesLocation {
    return { dir: this.dir, pending: [...this.#pending] };
  }

  /** These stylesheets, in this order, are (about to be) compiled: none may be used until it is. */
  compiling(stylesheets: readonly string[]): void {
    this.#pending = [...stylesheets];
    this.#currentSince = Date.now();
    this.#failure = null;
  }

  /** One stylesheet is compiled (its SEF is in place) after `ms`: the next one starts. */
  compiled(stylesheet: string, ms?: number): void {
    const done = this.#pending.length;
    this.#pending = this.#pending.filter((s) => s !== stylesheet);
    if (ms !== undefined && ms > 0 && this.#pending.length < done)
      this.#msPerStylesheet = Math.round((this.#msPerStylesheet + ms) / 2);
    this.#currentSince = Date.now();
  }

  /** Compiling stopped before every pending stylesheet was done: they stay refused, with this reason. */
  failed(reason: string): void {
    this.#failure = reason;
  }

  /** Whether `stylesheet`, pending when `location` was given to a task, has been compiled since. */
  compiledSince(location: RulesLocation, stylesheet: string): boolean {
    return (
      location.pending.includes(stylesheet) && !this.#pending.includes(stylesheet) && this.#failure === null
    );
  }

  /** Whether nothing is pending (GET /version, logs). */
  ready(): boolean {
    return this.#pending.length === 0;
  }

  /** The answer to a check that needs `stylesheet`, which a worker found missing or pending. */
  refusal(stylesheet: string): AppError {
    const name = path.basename(stylesheet);
    const position = this.#pending.indexOf(stylesheet);
    if (position === -1 || this.#failure !== null) {
      // Said to an API caller: no server path; the operator's command is in the server's log and the docs.
      const why = this.#failure ?? 'their compiled form is missing on this server';
      return new AppError(
        'service_busy',
        `The official e-invoice rules this check needs (${name}) cannot run: ${why}. The server's operator compiles them (docs/e-invoices.md); retry in ${MISSING_RETRY_AFTER_S} s.`,
        { reason: 'einvoice_rules_missing', stylesheet },
        { 'retry-after': String(MISSING_RETRY_AFTER_S) },
      );
    }
    const seconds = this.#secondsUntilCompiled(position);
    return new AppError(
      'service_busy',
      `The official e-invoice rules this check needs (${name}) are being compiled after this server's start (${position === 0 ? 'now' : `${position} stylesheet${position === 1 ? '' : 's'} before it`}); retry in about ${seconds} s.`,
      { reason: 'einvoice_rules_compiling', stylesheet },
      { 'retry-after': String(seconds) },
    );
  }

  /** The compile queue's remaining work up to and including the stylesheet at `position`, at least 2 s. */
  #secondsUntilCompiled(position: number): number {
    const ms = (position + 1) * this.#msPerStylesheet - (Date.now() - this.#currentSince);
    return Math.max(2, Math.ceil(ms / 1000));
  }
}
