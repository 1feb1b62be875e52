import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePDFRawStream, PDFContext, PDFRawStream } from '@cantoo/pdf-lib';
import { ENCODERS, type EncodableFilter, encodeFor } from '../../test/helpers/pdf-filters.js';
import { cutShort, flipBytes, type Rng, rng } from '../../test/helpers/random.js';
import { decodeStreamCapped, MAX_PDF_FILTERS, PdfDecodeLimitError } from './pdf-stream-decode.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 32);
const RUNS = Number(process.env.QUIRE_PDF_STREAM_FUZZ_RUNS ?? 400);

const ENCODABLE = Object.keys(ENCODERS) as EncodableFilter[];
/** Filters the fuzzer names: the encodable ones, LZW (random bytes only) and one pdf-lib does not know. */
const NAMES = [...ENCODABLE, 'LZWDecode', 'DCTDecode'] as const;

/** Random bytes that compress a little or a lot: runs of one byte, a short pattern repeated, or noise. */
function payloadOf(r: Rng): Buffer {
  const length = r.int(r.pick([16, 1024, 40_000]));
  const kind = r.int(3);
  if (kind === 0) return Buffer.alloc(length, r.int(256));
  const pattern = Buffer.from(Array.from({ length: 1 + r.int(kind === 1 ? 8 : 4096) }, () => r.int(256)));
  return Buffer.from(Array.from({ length }, (_, i) => pattern[i % pattern.length] as number));
}

interface Case {
  filters: string[];
  contents: Buffer;
  /** The bytes the stream decodes to when it was encoded for its filters and left whole. */
  payload: Buffer | undefined;
  cap: number;
}

function caseOf(r: Rng): Case {
  const filters = Array.from({ length: r.int(MAX_PDF_FILTERS + 2) }, () => r.pick(NAMES) as string);
  const payload = payloadOf(r);
  const encodable = filters.every((f) => (ENCODABLE as string[]).includes(f));
  const encoded = encodable ? encodeFor(filters as EncodableFilter[], payload) : payload;
  const damage = r.int(4);
  const contents = damage === 0 ? cutShort(r, encoded) : damage === 1 ? flipBytes(r, encoded, 8) : encoded;
  const whole = encodable && damage > 1;
  const cap = r.pick([
    0,
    1,
    payload.length - 1,
    payload.length,
    payload.length + 1,
    r.int(2 * payload.length + 2),
  ]);
  return { filters, contents, payload: whole ? payload : undefined, cap: Math.max(0, cap) };
}

function streamOf(filters: string[], contents: Uint8Array): PDFRawStream {
  const context = PDFContext.create();
  return PDFRawStream.of(filters.length === 0 ? context.obj({}) : context.obj({ Filter: filters }), contents);
}

describe('fuzz: decodeStreamCapped over random filter chains and bytes', () => {
  it(`${RUNS} random streams (seed ${SEED}): never more than the cap, the cap's own refusal or a plain error, pdf-lib's bytes when whole`, () => {
    const r = rng(SEED);
    for (let run = 0; run < RUNS; run++) {
      const { filters, contents, payload, cap } = caseOf(r);
      const where = `seed ${SEED} run ${run}: [${filters.join(' ')}] ${contents.length} bytes, cap ${cap}`;
      const stream = streamOf(filters, contents);
      let out: Uint8Array | undefined;
      let failure: unknown;
      try {
        out = decodeStreamCapped(stream, cap);
      } catch (err) {
        failure = err;
      }
      if (filters.length > MAX_PDF_FILTERS) {
        assert.ok(failure instanceof PdfDecodeLimitError && failure.limit === 'filters', where);
        continue;
      }
      if (out !== undefined) assert.ok(out.length <= cap, `${where}: ${out.length} bytes`);
      if (failure instanceof PdfDecodeLimitError) assert.equal(failure.limit, 'decoded_bytes', where);
      else if (failure !== undefined) {
        // A damaged or unknown stream: an error saying so, never an allocation failure (RangeError).
        assert.ok(
          failure instanceof Error && !(failure instanceof RangeError),
          `${where}: ${String(failure)}`,
        );
      }
      if (payload === undefined) continue;
      if (payload.length > cap) assert.ok(failure instanceof PdfDecodeLimitError, where);
      else {
        assert.deepEqual(Buffer.from(out ?? []), payload, where);
        assert.deepEqual(
          Buffer.from(decodePDFRawStream(stream).decode()),
          payload,
          `${where}: pdf-lib agrees`,
        );
      }
    }
  });
});
