import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { constants, inflateSync } from 'node:zlib';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { PNG } from 'pngjs';
import { SUBPROCESS_MEMORY_BYTES } from '../shared/memory-limit.js';
import {
  MAX_PAGE_PIXELS,
  makeThumbnail,
  PageImageError,
  PpmSplitter,
  renderPageImages,
  THUMBNAIL_WIDTH,
} from './thumbnail.js';

/** A PDF of `count` A4 pages; page n draws n black bars, so every page's image differs from the others. */
async function pdfOfPages(count: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let n = 1; n <= count; n++) {
    const page = doc.addPage([595, 842]);
    for (let b = 0; b < n; b++)
      page.drawRectangle({ x: 50, y: 780 - b * 40, width: 495, height: 20, color: rgb(0, 0, 0) });
  }
  return Buffer.from(await doc.save());
}

const PNG_SIGNATURE = '89504e470d0a1a0a';

/** The first pixel row (RGB) of a PNG as pngOf writes it (one IDAT, rows unfiltered), without inflating the rest. */
function firstRow(png: Buffer): Buffer {
  const width = png.readUInt32BE(16);
  const idat = png.subarray(41, 41 + png.readUInt32BE(33)); // after the signature and the IHDR chunk
  const start = inflateSync(idat.subarray(0, 1024), { finishFlush: constants.Z_SYNC_FLUSH });
  return start.subarray(1, 1 + width * 3); // after the row's filter byte
}

describe('page images (pdftoppm)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-page-images-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in for pdftoppm: a shell script (the real program is used everywhere else). */
  function fakePdftoppm(name: string, script: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${script}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  it('renders each page as its own PNG at the asked width, in page order', async () => {
    const { pages, truncated } = await renderPageImages(await pdfOfPages(3), {
      first: 1,
      last: 10,
      width: 400,
    });
    assert.equal(truncated, false);
    assert.deepEqual(
      pages.map((p) => p.page),
      [1, 2, 3],
    );
    for (const p of pages) {
      assert.equal(p.png.subarray(0, 8).toString('hex'), PNG_SIGNATURE);
      assert.equal(p.width, 400);
      assert.ok(Math.abs(p.height - Math.round((400 * 842) / 595)) <= 1, `A4 aspect: ${p.height}`);
    }
    assert.notDeepEqual(pages[0]!.png, pages[1]!.png, 'page 2 has two bars, page 1 one');
    // A standard decoder reads them: white margin, and the first bar black (x 50–545 pt, 42–62 pt from the top).
    const decoded = PNG.sync.read(pages[0]!.png);
    const at = (x: number, y: number) => decoded.data[(y * decoded.width + x) * 4]!;
    assert.equal(at(5, 5), 255, 'the corner is white');
    assert.equal(at(200, Math.round((52 / 842) * decoded.height)), 0, 'the bar is black');
  });

  it('caps the pages: a 15-page PDF gives the first 10', async () => {
    const { pages } = await renderPageImages(await pdfOfPages(15), { first: 1, last: 10, width: 100 });
    assert.equal(pages.length, 10);
    assert.equal(pages.at(-1)!.page, 10);
  });

  it('caps the bytes: pages past the cap are left out and marked truncated; a first page alone over it fails', async () => {
    const all = await renderPageImages(await pdfOfPages(4), { first: 1, last: 4, width: 300 });
    const [a, b, c] = all.pages.map((p) => p.png.length);
    const cap = a! + b! + Math.floor(c! / 2);
    const capped = await renderPageImages(await pdfOfPages(4), {
      first: 1,
      last: 4,
      width: 300,
      maxBytes: cap,
    });
    assert.equal(capped.truncated, true);
    assert.deepEqual(
      capped.pages.map((p) => p.page),
      [1, 2],
    );
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), { first: 1, last: 1, width: 300, maxBytes: 100 }),
      (err) => err instanceof PageImageError && err.kind === 'too_large',
    );
  });

  it('kills a pdftoppm that does not finish in time (kind timeout)', async () => {
    const hang = fakePdftoppm('hang', 'exec sleep 60');
    const start = Date.now();
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), {
        first: 1,
        last: 1,
        width: 100,
        timeoutMs: 300,
        pdftoppm: hang,
      }),
      (err) => err instanceof PageImageError && err.kind === 'timeout',
    );
    assert.ok(Date.now() - start < 20_000, 'rejected soon after the deadline, not when sleep ends');
  });

  it('a PDF pdftoppm cannot read fails with kind failed and its message', async () => {
    await assert.rejects(
      renderPageImages(Buffer.from('not a pdf at all'), { first: 1, last: 1, width: 100 }),
      (err) => err instanceof PageImageError && err.kind === 'failed' && /pdftoppm failed/.test(err.message),
    );
    await assert.rejects(
      renderPageImages(Buffer.alloc(0), { first: 1, last: 1, width: 100 }),
      PageImageError,
    );
  });

  it('output that is not PPM pages is refused, not passed on', async () => {
    const liar = fakePdftoppm('liar', 'cat > /dev/null; echo "<html>not a png</html>"');
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), { first: 1, last: 1, width: 100, pdftoppm: liar }),
      (err) => err instanceof PageImageError && err.kind === 'failed',
    );
  });

  it("pdftoppm runs under the memory limit of the programs that read clients' files", async () => {
    const limits = fakePdftoppm('limits', 'cat > /dev/null; ulimit -v >&2; exit 1');
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), { first: 1, last: 1, width: 100, pdftoppm: limits }),
      (err) => err instanceof PageImageError && err.message.endsWith(`: ${SUBPROCESS_MEMORY_BYTES / 1024}`),
    );
  });

  it('a missing pdftoppm is a server fault (plain error), not a document error', async () => {
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), {
        first: 1,
        last: 1,
        width: 100,
        pdftoppm: path.join(dir, 'absent'),
      }),
      (err) => !(err instanceof PageImageError) && (err as NodeJS.ErrnoException).code === 'ENOENT',
    );
  });

  it('refuses a bad page range or width before starting anything', async () => {
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), { first: 0, last: 1, width: 100 }),
      RangeError,
    );
    await assert.rejects(
      renderPageImages(await pdfOfPages(1), { first: 2, last: 1, width: 100 }),
      RangeError,
    );
    await assert.rejects(renderPageImages(await pdfOfPages(1), { first: 1, last: 1, width: 0 }), RangeError);
  });

  it('a page of the largest size PDF allows is rasterised within MAX_PAGE_PIXELS, tall ones cut at the bottom', async () => {
    const doc = await PDFDocument.create();
    for (const size of [
      [14400, 14400],
      [30, 14400],
    ] as const) {
      const page = doc.addPage([...size]);
      page.drawRectangle({ x: 0, y: size[1] - 10, width: size[0], height: 10, color: rgb(0, 0, 0) });
    }
    const pdf = Buffer.from(await doc.save());
    const { pages } = await renderPageImages(pdf, { first: 1, last: 2, width: THUMBNAIL_WIDTH });
    assert.deepEqual(
      pages.map((p) => p.page),
      [1, 2],
    );
    for (const p of pages) {
      assert.equal(p.width, THUMBNAIL_WIDTH);
      assert.ok(p.width * p.height <= MAX_PAGE_PIXELS, `page ${p.page}: ${p.width}×${p.height}`);
    }
    assert.equal(pages[0]!.height, THUMBNAIL_WIDTH, 'a square page stays square');
    assert.equal(pages[1]!.height, Math.floor(MAX_PAGE_PIXELS / THUMBNAIL_WIDTH), 'a strip is cut');
    // The cut keeps the top: the bar drawn at the top of the strip is there.
    assert.equal(firstRow(pages[1]!.png)[5 * 3], 0, 'the top bar is black');
    assert.equal((await makeThumbnail(pdf)).readUInt32BE(16), THUMBNAIL_WIDTH);
  });

  it('thumbnails stay page 1 at 480 px', async () => {
    const png = await makeThumbnail(await pdfOfPages(2));
    assert.equal(png.readUInt32BE(16), THUMBNAIL_WIDTH);
  });

  it('the splitter finds the same pages however pdftoppm’s stream is chunked', async () => {
    const stream = execFileSync('pdftoppm', ['-scale-to-x', '120', '-scale-to-y', '-1', '-'], {
      input: await pdfOfPages(3),
    });
    const whole = new PpmSplitter().push(stream);
    assert.equal(whole.length, 3);
    assert.deepEqual(
      whole.map((p) => [p.width, p.pixels.length]),
      whole.map(() => [120, 120 * whole[0]!.height * 3]),
    );
    for (const size of [1, 7, 16, 4096, stream.length]) {
      const splitter = new PpmSplitter();
      const found = [];
      for (let at = 0; at < stream.length; at += size)
        found.push(...splitter.push(stream.subarray(at, at + size)));
      assert.equal(splitter.pending, 0, `chunks of ${size}`);
      assert.deepEqual(
        found.map((p) => p.pixels.toString('hex')),
        whole.map((p) => p.pixels.toString('hex')),
        `chunks of ${size}`,
      );
    }
    assert.throws(() => new PpmSplitter().push(Buffer.from('GIF89a')), /not a binary PPM/);
    assert.throws(() => new PpmSplitter(100).push(Buffer.from('P6\n1000 1000\n255\n')), /not a binary PPM/);
  });
});
