import { AsyncLocalStorage } from 'node:async_hooks';
import { constants, inflateRawSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFContext, PDFDict, PDFName, PDFRawStream } from '@cantoo/pdf-lib';

/**
 * Decoding the streams of a PDF someone sent, never holding more than a cap (the security finding on
 * POST /v1/e-invoices/validate: a 3 MB file whose embedded XML inflated to 1.36 GB of RSS). Decoded bytes
 * live in typed arrays, memory outside the V8 heap that a worker thread's resourceLimits do not bound, so
 * the caps are counted here, while the bytes are produced, not checked on a finished buffer.
 */

/** Filters one stream may chain: real files use one (FlateDecode), rarely two (e.g. ASCII85 over Flate). */
export const MAX_PDF_FILTERS = 2;

export type PdfDecodeLimit = 'decoded_bytes' | 'filters' | 'parse_decoded_bytes';

/** A stream, or everything one parse decodes, would pass its cap; thrown as soon as it is passed. */
export class PdfDecodeLimitError extends Error {
  override readonly name = 'PdfDecodeLimitError';

  constructor(
    readonly limit: PdfDecodeLimit,
    readonly max: number,
    message: string,
    /** What was found when it is known before decoding (the number of filters). */
    readonly found?: number,
  ) {
    super(message);
  }
}

const FLATE = PDFName.of('FlateDecode');
/**
 * An encoding can be larger than what it encodes: hex doubles it and its line breaks add more, and a
 * few bytes deflate to more than a few (zlib's header and checksum).
 */
const INTERMEDIATE_FACTOR = 3;
const INTERMEDIATE_SLACK = 64 * 1024;
/** pdf-lib's other decoders are pulled this much at a time, so one pull passes the cap by little. */
const PULL_BYTES = 64 * 1024;

interface Filter {
  name: PDFName;
  params: PDFDict | undefined;
}

function tooLarge(maxBytes: number): PdfDecodeLimitError {
  return new PdfDecodeLimitError(
    'decoded_bytes',
    maxBytes,
    `the stream decodes to more than ${maxBytes} bytes`,
  );
}

function tooManyFilters(count: number): PdfDecodeLimitError {
  return new PdfDecodeLimitError(
    'filters',
    MAX_PDF_FILTERS,
    `the stream chains ${count} filters, more than ${MAX_PDF_FILTERS}`,
    count,
  );
}

/** The stream's filters in the order they are undone, with their parameters; counted before any is read. */
function filtersOf(dict: PDFDict): Filter[] {
  const filter = dict.lookup(PDFName.of('Filter'));
  const params = dict.lookup(PDFName.of('DecodeParms'));
  if (filter === undefined) return [];
  if (filter instanceof PDFName)
    return [{ name: filter, params: params instanceof PDFDict ? params : undefined }];
  if (!(filter instanceof PDFArray)) throw new Error('the stream /Filter is neither a name nor an array');
  if (filter.size() > MAX_PDF_FILTERS) throw tooManyFilters(filter.size());
  return Array.from({ length: filter.size() }, (_, i) => ({
    name: filter.lookup(i, PDFName),
    params: params instanceof PDFArray ? params.lookupMaybe(i, PDFDict) : undefined,
  }));
}

/** The zlib header checks pdf-lib's FlateStream makes, so both refuse the same damaged streams. */
function assertZlibHeader(bytes: Uint8Array): void {
  const [cmf, flg] = bytes;
  if (cmf === undefined || flg === undefined) throw new Error('Invalid header in flate stream');
  if ((cmf & 0x0f) !== 0x08 || ((cmf << 8) + flg) % 31 !== 0 || (flg & 0x20) !== 0)
    throw new Error(`Bad header in flate stream: ${cmf}, ${flg}`);
}

/**
 * FlateDecode through zlib, which stops one 64 KB chunk past `cap`: pdf-lib's FlateStream inflates a
 * whole deflate block per step, and one block can hold gigabytes. Raw inflate after the header, as
 * pdf-lib does: the Adler-32 is not checked, and a stream cut short gives what it holds.
 */
function inflateCapped(bytes: Uint8Array, cap: number, maxBytes: number): Uint8Array {
  assertZlibHeader(bytes);
  try {
    return inflateRawSync(bytes.subarray(2), {
      maxOutputLength: cap + 1,
      finishFlush: constants.Z_SYNC_FLUSH,
      chunkSize: PULL_BYTES,
    });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes);
    throw new Error(`Bad encoding in flate stream (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * The other filters (LZW, ASCII85, ASCIIHex, RunLength) through pdf-lib's decoders, pulled a chunk at a
 * time: each of their steps makes at most ~2 MB (LZW: 512 codes of ≤ 4096 bytes), so a pull stops near
 * the cap.
 */
function pulledCapped(bytes: Uint8Array, filter: Filter, context: PDFContext, cap: number, maxBytes: number) {
  const dict = context.obj(
    filter.params ? { Filter: filter.name, DecodeParms: filter.params } : { Filter: filter.name },
  );
  const stream = decodePDFRawStream(PDFRawStream.of(dict, bytes));
  let length = 0;
  for (;;) {
    const chunk = stream.getBytes(PULL_BYTES);
    length += chunk.length;
    if (length > cap) throw tooLarge(maxBytes);
    if (chunk.length < PULL_BYTES) return stream.decode(); // at its end: what it holds, nothing more is read
  }
}

/** The stream's bytes before its filters: decrypted when pdf-lib set a decryption on it (it never grows them). */
function encodedBytes(stream: PDFRawStream): Uint8Array {
  if (!stream.transform) return stream.contents;
  return decodePDFRawStream(
    PDFRawStream.of(stream.dict.context.obj({}), stream.contents, stream.transform),
  ).decode();
}

/**
 * A stream's bytes with its filters undone, refused with PdfDecodeLimitError as soon as they pass
 * `maxBytes`, or when it chains more than MAX_PDF_FILTERS filters. A filter before the last may make up
 * to INTERMEDIATE_FACTOR times `maxBytes` (and a little). Unknown filters and damaged data throw plain
 * errors, as pdf-lib's decodePDFRawStream does; as there, DecodeParms predictors are not applied.
 */
export function decodeStreamCapped(stream: PDFRawStream, maxBytes: number): Uint8Array {
  const filters = filtersOf(stream.dict);
  let bytes = encodedBytes(stream);
  for (const [i, filter] of filters.entries()) {
    const cap = i === filters.length - 1 ? maxBytes : INTERMEDIATE_FACTOR * maxBytes + INTERMEDIATE_SLACK;
    bytes =
      filter.name === FLATE
        ? inflateCapped(bytes, cap, maxBytes)
        : pulledCapped(bytes, filter, stream.dict.context, cap, maxBytes);
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

interface DecodeBudget {
  left: number;
  passed: boolean;
}

const budgets = new AsyncLocalStorage<DecodeBudget>();
let budgetHooked = false;

/** DecodeStream (not exported by pdf-lib): the class every one of its decoders extends. */
function decodeStreamPrototype(): {
  ensureBuffer(this: { buffer: Uint8Array }, requested: number): Uint8Array;
} {
  const probe = decodePDFRawStream(
    PDFRawStream.of(PDFContext.create().obj({ Filter: 'ASCIIHexDecode' }), new Uint8Array(0)),
  );
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(probe));
  if (!proto || !Object.hasOwn(proto, 'ensureBuffer') || !Object.hasOwn(proto, 'getBytes'))
    throw new Error("pdf-lib's DecodeStream has changed: the decode budget cannot count its buffers");
  return proto;
}

/**
 * Counts every buffer pdf-lib's decoders grow while a budget is active. ensureBuffer is the only place
 * they allocate, so this sees everything they hold; it charges what is asked for before it is allocated
 * (the allocation is the next power of two, under twice that). Once passed, every later growth in the
 * same budget is refused too: pdf-lib's parser catches errors and goes on with the next object.
 */
function hookDecodeBudget(): void {
  if (budgetHooked) return;
  const proto = decodeStreamPrototype();
  const ensureBuffer = proto.ensureBuffer;
  proto.ensureBuffer = function (this: { buffer: Uint8Array }, requested: number) {
    const budget = budgets.getStore();
    if (budget && requested > this.buffer.byteLength) {
      if (budget.passed || requested > budget.left) {
        budget.passed = true;
        throw new Error('the decode budget is spent');
      }
      budget.left -= requested;
    }
    return ensureBuffer.call(this, requested);
  };
  budgetHooked = true;
}

/**
 * Runs `work` (pdf-lib reading a PDF someone sent) with what pdf-lib's own decoders allocate counted
 * against `maxBytes`: PDFDocument.load decodes every object and cross-reference stream whole, and one can
 * inflate to gigabytes. Refuses with PdfDecodeLimitError (`parse_decoded_bytes`) once they pass it.
 *
 * Counted in process rather than parsed in a subprocess under prlimit (src/shared/memory-limit.ts): the
 * parse runs on a worker thread whose V8 heap is capped already, and the decoders' buffers are the one
 * thing pdf-lib allocates outside that heap besides copies of the input's own bytes; a process per file
 * would add Node's and pdf-lib's start-up (hundreds of ms) to every check and lose the warm worker.
 */
export async function withDecodeBudget<T>(maxBytes: number, work: () => Promise<T>): Promise<T> {
  hookDecodeBudget();
  const budget: DecodeBudget = { left: maxBytes, passed: false };
  const refused = () =>
    new PdfDecodeLimitError(
      'parse_decoded_bytes',
      maxBytes,
      `the PDF's compressed streams decode to more than ${maxBytes} bytes while it is read`,
    );
  let result: T;
  try {
    result = await budgets.run(budget, work);
  } catch (err) {
    throw budget.passed ? refused() : err;
  }
  if (budget.passed) throw refused();
  return result;
}
