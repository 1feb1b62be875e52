import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFDocument, PDFRawStream } from '@cantoo/pdf-lib';
import {
  type EncodableFilter,
  encodeFor,
  pdfWithObjectStream,
  zeroBomb,
} from '../../test/helpers/pdf-filters.js';
import {
  decodeStreamCapped,
  MAX_PDF_FILTERS,
  type PdfDecodeLimit,
  PdfDecodeLimitError,
  withDecodeBudget,
} from './pdf-stream-decode.js';

const MB = 1024 * 1024;

function streamOf(filters: readonly string[], contents: Uint8Array): PDFRawStream {
  const context = PDFContext.create();
  const dict = filters.length === 0 ? context.obj({}) : context.obj({ Filter: [...filters] });
  return PDFRawStream.of(dict, contents);
}

function refusedWith(limit: PdfDecodeLimit, max: number) {
  return (err: unknown) => {
    assert.ok(err instanceof PdfDecodeLimitError, String(err));
    assert.equal(err.limit, limit);
    assert.equal(err.max, max);
    return true;
  };
}

/** How long `work` took and how much the process's RSS grew meanwhile (sampled after, as it is synchronous). */
function measured(work: () => void): { ms: number; growth: number } {
  const rss = process.memoryUsage().rss;
  const started = performance.now();
  work();
  return { ms: performance.now() - started, growth: process.memoryUsage().rss - rss };
}

describe('decodeStreamCapped', () => {
  const CHAINS: EncodableFilter[][] = [
    [],
    ['FlateDecode'],
    ['ASCIIHexDecode'],
    ['ASCII85Decode'],
    ['RunLengthDecode'],
    ['ASCII85Decode', 'FlateDecode'],
    ['FlateDecode', 'FlateDecode'],
    ['FlateDecode', 'ASCIIHexDecode'],
  ];

  for (const chain of CHAINS) {
    it(`[${chain.join(' ')}]: the cap exactly hit gives the bytes; one more byte is refused`, () => {
      const payload = randomBytes(100_003);
      const stream = streamOf(chain, encodeFor(chain, payload));
      assert.deepEqual(Buffer.from(decodeStreamCapped(stream, payload.length)), payload);
      assert.throws(
        () => decodeStreamCapped(stream, payload.length - 1),
        refusedWith('decoded_bytes', payload.length - 1),
      );
    });
  }

  it('three chained filters are refused before any is decoded, whatever the bytes', () => {
    for (const chain of [
      ['FlateDecode', 'FlateDecode', 'FlateDecode'],
      ['ASCIIHexDecode', 'NoSuchDecode', 'FlateDecode'],
      Array.from({ length: 10_000 }, () => 'FlateDecode'),
    ]) {
      assert.throws(
        () => decodeStreamCapped(streamOf(chain, Buffer.from('not even encoded')), MB),
        (err: unknown) =>
          refusedWith('filters', MAX_PDF_FILTERS)(err) && (err as PdfDecodeLimitError).found === chain.length,
      );
    }
  });

  it('a gigabyte of zeros in 1 MB is refused once the cap is passed, not once it is inflated', () => {
    const { zlib, inflated } = zeroBomb(MB);
    assert.ok(inflated > 1000 * MB);
    const run = measured(() =>
      assert.throws(
        () => decodeStreamCapped(streamOf(['FlateDecode'], zlib), 4 * MB),
        refusedWith('decoded_bytes', 4 * MB),
      ),
    );
    assert.ok(run.ms < 1_000, `${run.ms} ms`);
    assert.ok(run.growth < 200 * MB, `RSS +${run.growth / MB} MB`);
  });

  it('a bomb behind two FlateDecode filters is refused at the cap of the last one', () => {
    const inner = zeroBomb(3 * MB).zlib;
    const twice = deflateSync(inner, { level: 9 });
    assert.ok(twice.length < 20_000, `${twice.length} bytes`);
    const run = measured(() =>
      assert.throws(
        () => decodeStreamCapped(streamOf(['FlateDecode', 'FlateDecode'], twice), 4 * MB),
        refusedWith('decoded_bytes', 4 * MB),
      ),
    );
    assert.ok(run.ms < 1_000, `${run.ms} ms`);
    assert.ok(run.growth < 200 * MB, `RSS +${run.growth / MB} MB`);
  });

  it('a RunLength bomb (128 zeros per 2 bytes) is refused at the cap', () => {
    const pairs = Buffer.alloc(2 * 1_000_000);
    for (let i = 0; i < pairs.length; i += 2) pairs[i] = 129; // 257 − 129 = 128 copies of the next byte
    assert.throws(
      () => decodeStreamCapped(streamOf(['RunLengthDecode'], pairs), MB),
      refusedWith('decoded_bytes', MB),
    );
  });

  it('an unfiltered stream over the cap is refused too; a damaged or unknown one throws a plain error', () => {
    assert.throws(
      () => decodeStreamCapped(streamOf([], Buffer.alloc(11)), 10),
      refusedWith('decoded_bytes', 10),
    );
    assert.throws(
      () => decodeStreamCapped(streamOf(['FlateDecode'], Buffer.from('xx')), MB),
      (err: unknown) => !(err instanceof PdfDecodeLimitError) && err instanceof Error,
    );
    assert.throws(
      () => decodeStreamCapped(streamOf(['DCTDecode'], Buffer.from('xx')), MB),
      (err: unknown) => !(err instanceof PdfDecodeLimitError) && err instanceof Error,
    );
  });

  it('gives what pdf-lib gives for a Flate stream with a wrong checksum (neither checks it)', () => {
    const payload = Buffer.from('<Invoice/>'.repeat(1000));
    const zlib = deflateSync(payload);
    const badChecksum = Buffer.concat([zlib.subarray(0, -4), Buffer.from([0, 0, 0, 0])]);
    const stream = streamOf(['FlateDecode'], badChecksum);
    assert.deepEqual(
      Buffer.from(decodeStreamCapped(stream, MB)),
      Buffer.from(decodePDFRawStream(stream).decode()),
    );
  });
});

describe('withDecodeBudget', () => {
  it('refuses a PDF whose object stream inflates past the budget while pdf-lib loads it', async () => {
    const bomb = pdfWithObjectStream(zeroBomb(MB).zlib);
    const started = performance.now();
    await assert.rejects(
      withDecodeBudget(16 * MB, () => PDFDocument.load(bomb)),
      refusedWith('parse_decoded_bytes', 16 * MB),
    );
    assert.ok(performance.now() - started < 2_000);
  });

  it('loads an ordinary PDF with object streams, and two budgets at once count apart', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 50; i++) doc.addPage().drawText(`page ${i}`);
    const pdf = await doc.save({ useObjectStreams: true });
    const bomb = pdfWithObjectStream(zeroBomb(MB).zlib);
    const [good, bad] = await Promise.allSettled([
      withDecodeBudget(16 * MB, () => PDFDocument.load(pdf)),
      withDecodeBudget(16 * MB, () => PDFDocument.load(bomb)),
    ]);
    assert.equal(good.status, 'fulfilled');
    assert.equal(good.value.getPageCount(), 50);
    assert.equal(bad.status, 'rejected');
  });

  it('counts nothing outside a budget: pdf-lib decodes as before', () => {
    const payload = Buffer.alloc(8 * MB, 7);
    const stream = streamOf(['FlateDecode'], deflateSync(payload));
    assert.equal(decodePDFRawStream(stream).decode().length, payload.length);
  });
});
