import type { Sheet } from '../batches/index.js';
import type { StoredFile } from '../brand/index.js';
import type { ReadPkcs12 } from '../certificates/index.js';
import { DeadlinePool, threadCount, workerOutOfMemory } from '../shared/deadline-pool.js';
import { AppError, isAppError } from '../shared/errors.js';
import type { ParseBody, ParseKind, ParseReply, ParseResults } from './protocol.js';

/**
 * Budgets of one parse (README "Security"): wall-clock time from the moment a worker starts the task
 * (a queued task's wait does not count), and each worker's V8 heap. The parsers bound the bytes they
 * inflate or decode themselves; these stop whatever slips past that, killing the worker only.
 */
export const PARSE_LIMITS = {
  /** A 10,000 × 20 XLSX takes about 2 s on a loaded machine; the largest sheets allowed up to ~10× that. */
  timeMs: {
    spreadsheet: 30_000,
    logo: 10_000,
    font: 10_000,
    // Key derivation of a PKCS#12 (PBKDF2, often 2,048+ iterations) and one RSA key: well under a second.
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
  /** Told of a worker failing outside any task; default: a process warning. */
  onWorkerError?: (err: unknown) => void;
}

/**
 * The one way Quire reads files a client uploads (XLSX, CSV, SVG, PNG/JPEG headers, fonts): off the main
 * thread, on a small Piscina pool whose workers have a heap cap, under a wall-clock limit that
 * terminates the worker (the Liquid pool's pattern, src/liquid/engine.ts). So a hostile file costs its
 * sender a 400 and never delays another team's requests or grows the server's memory without bound.
 * Every refusal is `invalid_request` with `details.field` naming the request field that held the file.
 */
export class UntrustedFiles {
  readonly #timeMs: Record<ParseKind, number>;
  readonly #pool: DeadlinePool<ParseBody, ParseReply>;

  constructor(options: UntrustedFilesOptions = {}) {
    this.#timeMs = { ...PARSE_LIMITS.timeMs, ...options.timeMs };
    this.#pool = new DeadlinePool({
      compiled: new URL('./untrusted-worker.js', import.meta.url),
      tsxEntry: new URL('./worker-tsx.mjs', import.meta.url),
      minThreads: 0,
      maxThreads: threadCount(options.threads, 2),
      idleTimeout: IDLE_TIMEOUT_MS,
      heapMb: PARSE_LIMITS.heapMb,
      name: 'Untrusted-file',
      onError: options.onWorkerError,
      closedMessage: 'The untrusted-file pool is closed.',
    });
  }

  /** A CSV or XLSX (spec: POST /spreadsheets/parse, `spreadsheet` batches), at most `maxRows` data rows. */
  spreadsheet(bytes: Uint8Array, maxRows: number, field: string): Promise<Sheet> {
    return this.#run({ kind: 'spreadsheet', bytes, maxRows }, field);
  }

  /** A logo: PNG/JPEG checked, SVG rasterised to PNG. */
  async logo(bytes: Uint8Array, field: string): Promise<StoredFile> {
    return asBuffers(await this.#run({ kind: 'logo', bytes }, field));
  }

  /** A WOFF2, TTF or OTF font with its family name. */
  async font(bytes: Uint8Array, field: string): Promise<StoredFile> {
    return asBuffers(await this.#run({ kind: 'font', bytes }, field));
  }

  /**
   * A PKCS#12 signing certificate opened with its passphrase and checked as of `now`. A wrong passphrase
   * names the `passphrase` field; every other refusal names `field` (the file).
   */
  async certificate(bytes: Uint8Array, passphrase: string, field: string, now: Date): Promise<ReadPkcs12> {
    try {
      return await this.#run({ kind: 'certificate', bytes, passphrase, nowMs: now.getTime() }, field);
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

  async #run<K extends ParseKind>(body: ParseBody & { kind: K }, field: string): Promise<ParseResults[K]> {
    const limitMs = this.#timeMs[body.kind];
    const reply = await this.#pool.run(body, limitMs, (err, deadline) =>
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
