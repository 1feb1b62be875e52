import type { Sheet } from '../batches/index.js';
import type { StoredFile } from '../brand/index.js';
import type { ReadPkcs12 } from '../certificates/index.js';
import { DeadlinePool, threadCount, workerOutOfMemory } from '../shared/deadline-pool.js';
import { AppError, isAppError } from '../shared/errors.js';
import { FairPool, type QueueBounds } from '../shared/fair-pool.js';
import type { ParseBody, ParseKind, ParseReply, ParseResults } from './protocol.js';

/**
 * Budgets of one parse (README "Security"): wall-clock time from the moment the task is submitted (its
 * wait for a thread counts, see src/shared/fair-pool.ts), and each worker's V8 heap. The parsers bound
 * the bytes they inflate or decode themselves; these stop whatever slips past that, killing the worker only.
 */
export const PARSE_LIMITS = {
  /** A 10,000 × 20 XLSX takes about 2 s on a loaded machine; the largest sheets allowed up to ~10× that. */
  timeMs: {
    spreadsheet: 30_000,
    logo: 10_000,
    font: 10_000,
    // Key derivation of a PKCS#12 (iteration counts bounded, src/certificates/pkcs12-iterations.ts) and
    // one RSA key: well under a second for real certificates.
    certificate: 10_000,
  } satisfies Record<ParseKind, number>,
  heapMb: 256,
} as const;

/** Extra workers stop after this long idle (each holds its heap and, after an SVG, resvg's font database). */
const IDLE_TIMEOUT_MS = 60_000;

export interface UntrustedFilesOptions {
  /** Worker threads (default: 2, or 1 on a single core). */
  threads?: number;
  /** Per-kind wall-clock limits in ms (default PARSE_LIMITS.timeMs). Lower only in tests. */
  timeMs?: Partial<Record<ParseKind, number>>;
  /** Tasks allowed to wait for a thread (default QUEUE_BOUNDS). Changed only in tests. */
  queue?: QueueBounds;
  /** Told of a worker failing outside any task; default: a process warning. */
  onWorkerError?: (err: unknown) => void;
}

/**
 * The one way Quire reads files a client uploads (XLSX, CSV, SVG, PNG/JPEG headers, fonts, PKCS#12): off
 * the main thread, on a small Piscina pool whose workers have a heap cap, under a wall-clock limit that
 * terminates the worker (the Liquid pool's pattern, src/liquid/engine.ts), behind a fair queue that shares
 * the threads between teams (src/shared/fair-pool.ts). So a hostile file costs its sender a 400, delays
 * another team's upload by one task at most and never grows the server's memory without bound.
 * Every refusal of a file is `invalid_request` with `details.field` naming the request field that held it;
 * a pool too busy to take or finish the task answers `service_busy`.
 */
export class UntrustedFiles {
  readonly #timeMs: Record<ParseKind, number>;
  readonly #pool: FairPool<ParseBody, ParseReply>;

  constructor(options: UntrustedFilesOptions = {}) {
    this.#timeMs = { ...PARSE_LIMITS.timeMs, ...options.timeMs };
    const threads = threadCount(options.threads, 2);
    const workers = new DeadlinePool<ParseBody, ParseReply>({
      compiled: new URL('./untrusted-worker.js', import.meta.url),
      tsxEntry: new URL('./worker-tsx.mjs', import.meta.url),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_TIMEOUT_MS,
      heapMb: PARSE_LIMITS.heapMb,
      name: 'Untrusted-file',
      onError: options.onWorkerError,
      closedMessage: 'The untrusted-file pool is closed.',
    });
    this.#pool = new FairPool(workers, { threads, bounds: options.queue, work: 'reading uploaded files' });
  }

  /** A CSV or XLSX (spec: POST /spreadsheets/parse, `spreadsheet` batches), at most `maxRows` data rows. */
  spreadsheet(team: string, bytes: Uint8Array, maxRows: number, field: string): Promise<Sheet> {
    return this.#run(team, { kind: 'spreadsheet', bytes, maxRows }, field);
  }

  /** A logo: PNG/JPEG checked, SVG rasterised to PNG. */
  async logo(team: string, bytes: Uint8Array, field: string): Promise<StoredFile> {
    return asBuffers(await this.#run(team, { kind: 'logo', bytes }, field));
  }

  /** A WOFF2, TTF or OTF font with its family name. */
  async font(team: string, bytes: Uint8Array, field: string): Promise<StoredFile> {
    return asBuffers(await this.#run(team, { kind: 'font', bytes }, field));
  }

  /**
   * A PKCS#12 signing certificate opened with its passphrase and checked as of `now`. A wrong passphrase
   * names the `passphrase` field; every other refusal names `field` (the file).
   */
  async certificate(
    team: string,
    bytes: Uint8Array,
    passphrase: string,
    field: string,
    now: Date,
  ): Promise<ReadPkcs12> {
    try {
      const body = { kind: 'certificate', bytes, passphrase, nowMs: now.getTime() } as const;
      return await this.#run(team, body, field);
    } catch (err) {
      if (isAppError(err) && err.details?.reason === 'passphrase')
        throw new AppError(err.code, err.message, { ...err.details, field: 'passphrase' });
      throw err;
    }
  }

  /** Waits for started tasks, then stops the workers; later calls are refused. */
  close(): Promise<void> {
    return this.#pool.close();
  }

  /** `team` names the fair queue's lane: the team that sent the file. */
  async #run<K extends ParseKind>(
    team: string,
    body: ParseBody & { kind: K },
    field: string,
  ): Promise<ParseResults[K]> {
    const limitMs = this.#timeMs[body.kind];
    const reply = await this.#pool.run(team, body, limitMs, (err, deadline) =>
      refusalOf(err, deadline.expired, body.kind, limitMs, field),
    );
    if (!reply.ok) throw new AppError(reply.code, reply.message, { ...reply.details, field });
    return reply.value as ParseResults[K];
  }
}

/** A worker stopped by the time limit or its heap cap: the file's fault, said as such. */
function refusalOf(err: unknown, expired: boolean, kind: ParseKind, limitMs: number, field: string): unknown {
  if (expired)
    return new AppError(
      'invalid_request',
      `Reading the ${kind} took longer than ${limitMs / 1000} s, the limit for one file; send a simpler or smaller file.`,
      { field, limit: 'parse_time_ms', max: limitMs },
    );
  if (workerOutOfMemory(err))
    return new AppError(
      'invalid_request',
      `Reading the ${kind} needed more than ${PARSE_LIMITS.heapMb} MB of memory, the limit for one file; send a simpler or smaller file.`,
      { field, limit: 'parse_memory_mb', max: PARSE_LIMITS.heapMb },
    );
  return err;
}

/** A structured clone turns a Buffer into a plain Uint8Array; callers store and hash Buffers. */
function asBuffers(file: StoredFile): StoredFile {
  const bytes = file.bytes as Uint8Array;
  return { ...file, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}
