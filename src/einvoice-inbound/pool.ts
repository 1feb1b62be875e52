import { DeadlinePool, threadCount, workerOutOfMemory } from '../shared/deadline-pool.js';
import { AppError } from '../shared/errors.js';
import { FairPool, type QueueBounds } from '../shared/fair-pool.js';
import { NO_TENANT } from '../shared/fair-queue.js';
import { CompiledRules, type RulesLocation } from './artefacts.js';
import type { ParseReport } from './parse.js';
import type { InboundProfile } from './plan.js';
import type { InboundBody, InboundReply } from './protocol.js';
import type { ValidationReport } from './validate.js';

/**
 * Budgets of one received e-invoice (10 s, QUIRE_EINVOICE_CHECK_TIMEOUT_MS): wall-clock time from the
 * moment the task is submitted (its wait for a thread counts, src/shared/fair-pool.ts; the first load of
 * the official rules does not, see validate.ts), and each worker's V8 heap. The heap is larger than the
 * untrusted-file pool's: a worker keeps the compiled official rules it has used (each stylesheet a few MB
 * of SEF, tens of MB once loaded), so the second invoice of a kind costs only the checks themselves.
 */
export const EINVOICE_LIMITS = { timeMs: 10_000, heapMb: 1024 } as const;

/** Extra workers stop after this long idle, releasing the rules they loaded. */
const IDLE_TIMEOUT_MS = 5 * 60_000;

export interface ReceivedEInvoicesOptions {
  threads?: number;
  /** Wall-clock limit of one file (QUIRE_EINVOICE_CHECK_TIMEOUT_MS; default EINVOICE_LIMITS.timeMs). */
  timeMs?: number;
  /** Tasks allowed to wait for a thread (default QUEUE_BOUNDS). Changed only in tests. */
  queue?: QueueBounds;
  onWorkerError?: (err: unknown) => void;
  /** The compiled rules and which are still being compiled (default: dist/einvoice-rules, all ready). */
  rules?: CompiledRules;
}

/**
 * Reads and checks e-invoices clients upload, off the main thread on a pool of its own (the Liquid and
 * untrusted-file pools' pattern) shared fairly between teams (src/shared/fair-pool.ts): a hostile or huge
 * file costs its sender a 400 and delays another team's check by one task at most. Every refusal of a
 * file is `invalid_request` with `details.field` = content_base64; a pool too busy to take or finish the
 * check answers `service_busy`. `team` names the fair queue's lane: the team that sent the file.
 */
export class ReceivedEInvoices {
  readonly #timeMs: number;
  readonly #pool: FairPool<InboundBody, InboundReply>;
  readonly #rules: CompiledRules;

  constructor(options: ReceivedEInvoicesOptions = {}) {
    this.#timeMs = options.timeMs ?? EINVOICE_LIMITS.timeMs;
    this.#rules = options.rules ?? new CompiledRules();
    const threads = threadCount(options.threads, 2);
    const workers = new DeadlinePool<InboundBody, InboundReply>({
      compiled: new URL('./einvoice-worker.js', import.meta.url),
      tsxEntry: new URL('./worker-tsx.mjs', import.meta.url),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_TIMEOUT_MS,
      heapMb: EINVOICE_LIMITS.heapMb,
      name: 'E-invoice',
      onError: options.onWorkerError,
      closedMessage: 'The e-invoice pool is closed.',
    });
    this.#pool = new FairPool(workers, { threads, bounds: options.queue, work: 'checking e-invoices' });
  }

  /** XSD + official schematron verdict; `profile` replaces the profile the document declares. */
  async validate(team: string, bytes: Uint8Array, profile?: InboundProfile): Promise<ValidationReport> {
    const check = (rules: RulesLocation) => this.#reply(team, { kind: 'validate', bytes, profile, rules });
    const told = this.#rules.location();
    let reply = await check(told);
    // A stylesheet compiled while this check queued or ran: its worker was told to wait for it, and now it is ready.
    if (!reply.ok && 'rulesNotReady' in reply && this.#rules.compiledSince(told, reply.rulesNotReady))
      reply = await check(this.#rules.location());
    return this.#value(reply) as ValidationReport;
  }

  /** The document as Quire's e-invoice model. */
  async parse(team: string, bytes: Uint8Array): Promise<ParseReport> {
    return (await this.#run(team, { kind: 'parse', bytes })) as ParseReport;
  }

  /** Starts a worker and loads the common rules (the first validation after start then takes ≤ 2 s). */
  async warm(): Promise<void> {
    await this.#run(NO_TENANT, { kind: 'warm', rules: this.#rules.location() });
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  async #run(team: string, body: InboundBody): Promise<ValidationReport | ParseReport | null> {
    return this.#value(await this.#reply(team, body));
  }

  #reply(team: string, body: InboundBody): Promise<InboundReply> {
    return this.#pool.run(team, body, this.#timeMs, (err, deadline) =>
      this.#refusalOf(err, deadline.expired),
    );
  }

  #value(reply: InboundReply): ValidationReport | ParseReport | null {
    if (!reply.ok && 'rulesNotReady' in reply) throw this.#rules.refusal(reply.rulesNotReady);
    if (!reply.ok)
      throw new AppError(reply.code, reply.message, { ...reply.details, field: 'content_base64' });
    return reply.value;
  }

  #refusalOf(err: unknown, expired: boolean): unknown {
    if (expired)
      return new AppError(
        'invalid_request',
        `Checking the e-invoice took longer than ${this.#timeMs / 1000} s, the limit for one file; send a smaller invoice.`,
        { field: 'content_base64', limit: 'parse_time_ms', max: this.#timeMs },
      );
    if (workerOutOfMemory(err))
      return new AppError(
        'invalid_request',
        `Checking the e-invoice needed more than ${EINVOICE_LIMITS.heapMb} MB of memory; send a smaller invoice.`,
        { field: 'content_base64', limit: 'parse_memory_mb', max: EINVOICE_LIMITS.heapMb },
      );
    return err;
  }
}
