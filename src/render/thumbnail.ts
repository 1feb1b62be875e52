import { spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import { notStarted, underMemoryLimit } from '../shared/memory-limit.js';

const deflateAsync = promisify(deflate);

/** Spec "Thumbnails": 480 px wide PNG of page 1. */
export const THUMBNAIL_WIDTH = 480;
/** pdftoppm takes ~100 ms for an invoice page; a stuck one is killed after this. */
const DEFAULT_TIMEOUT_MS = 15_000;
/** A 1000 px page PNG is tens to a few hundred KB; more than this for all pages means something is wrong. */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/**
 * Most pixels a page is rasterised to (48 MB as RGB). pdftoppm allocates a page's whole bitmap before it
 * writes a byte of it, and the height follows the width: a 30 × 14400 pt page (the PDF maximum) at 480 px
 * wide is 230,400 px tall, 331 MB. A taller page is cut at this height, its top shown at the asked width,
 * rather than scaled down to a sliver.
 */
export const MAX_PAGE_PIXELS = 16 * 1024 * 1024;

/** One rasterised page: PNG bytes and the pixel size read from its IHDR chunk. */
export interface PageImage {
  /** 1-based page number in the PDF. */
  page: number;
  png: Buffer;
  width: number;
  height: number;
}

export interface PageImageOptions {
  /** First and last page to render (1-based, inclusive); pages past the end of the PDF are simply absent. */
  first: number;
  last: number;
  /** Output width in pixels; the height follows the page's aspect ratio. */
  width: number;
  /** The child is killed after this and the promise rejects with a PageImageError of kind `timeout`. */
  timeoutMs?: number;
  /**
   * Cap on the PNG bytes of all pages together. Pages that would go past it are not returned; `truncated`
   * says so. A first page alone over the cap rejects with kind `too_large`. While pdftoppm streams, the
   * pages' raw pixels are bounded too (see maxRawBytes): past that the child is killed.
   */
  maxBytes?: number;
  /** The pdftoppm program (tests point it at something that hangs or fails). */
  pdftoppm?: string;
}

export interface PageImages {
  pages: PageImage[];
  /** True when the byte cap stopped rendering before `last` (or the end of the PDF). */
  truncated: boolean;
}

export type PageImageErrorKind = 'timeout' | 'too_large' | 'failed';

export class PageImageError extends Error {
  constructor(
    readonly kind: PageImageErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PageImageError';
  }
}

/**
 * Renders pages of a PDF as PNGs with poppler's pdftoppm in a child process (a GPL tool run as a separate
 * program, not linked), so a slow or hostile PDF costs a process with a deadline, never the event loop.
 * Without an output root pdftoppm writes every page as binary PPM to stdout one after another; they are
 * split as they stream and each page is encoded once whole, so a page's and all pages' raw pixels are
 * bounded while rendering; the PNG byte cap is applied to the encoded pages.
 */
export function renderPageImages(pdf: Buffer, options: PageImageOptions): Promise<PageImages> {
  const { first, last, width } = options;
  if (!(Number.isInteger(first) && Number.isInteger(last) && first >= 1 && last >= first)) {
    return Promise.reject(new RangeError(`bad page range ${first}–${last}`));
  }
  if (!(Number.isInteger(width) && width >= 1)) return Promise.reject(new RangeError(`bad width ${width}`));
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Raw PPM, encoded to PNG here: pdftoppm's own PNG encoder (libpng's default compression) takes ~0.7 s
  // for a 1000 px page, rendering it ~0.05 s; zlib level 3 on libuv's thread pool takes ~0.05 s.
  const args = ['-f', String(first), '-l', String(last)];
  args.push('-scale-to-x', String(width), '-scale-to-y', '-1', '-H', String(maxPageHeight(width)));
  args.push('-'); // reads the PDF from stdin
  // Under the memory limit qpdf reads merge sources with: a page's bitmap is bounded by the crop above,
  // but fonts, images and shadings of a hostile page are pdftoppm's own allocations.
  const command = underMemoryLimit(options.pdftoppm ?? 'pdftoppm', args);
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const maxRaw = maxRawBytes(maxBytes);
    const splitter = new PpmSplitter(maxRaw);
    const encoding: Promise<Buffer>[] = [];
    const pages: PageImage[] = [];
    let bytes = 0;
    let stop: 'timeout' | 'cap' | 'malformed' | null = null;
    let stderr = '';
    const halt = (why: NonNullable<typeof stop>) => {
      stop ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => halt('timeout'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stop) return;
      try {
        for (const ppm of splitter.push(chunk)) {
          const png = pngOf(ppm);
          png.catch(() => {}); // awaited in collect(); a failure while the child is still running is not unhandled
          encoding.push(png);
        }
      } catch {
        return halt('malformed');
      }
      // Pixels held for encoding are bounded while pdftoppm streams: the pages out so far are returned.
      if (splitter.rawTotal > maxRaw) halt('cap');
    });
    /** The encoded pages in order, up to the byte cap. */
    const collect = async (): Promise<void> => {
      for (const png of await Promise.all(encoding)) {
        if (bytes + png.length > maxBytes) {
          stop = 'cap';
          return;
        }
        bytes += png.length;
        pages.push({ page: first + pages.length, png, ...pngSize(png) });
      }
    };
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    // pdftoppm missing or not runnable is the server's fault, not the document's: a plain error (500).
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (stop === null && notStarted(command, code)) return reject(notInstalled(code, stderr));
      if (stop === 'timeout') {
        return reject(new PageImageError('timeout', `pdftoppm took longer than ${timeoutMs} ms`));
      }
      if (stop === 'malformed' || (stop === null && splitter.pending > 0)) {
        return reject(
          new PageImageError('failed', 'pdftoppm wrote something that is not a sequence of PPM pages'),
        );
      }
      if (stop === null && code !== 0) {
        return reject(
          new PageImageError('failed', `pdftoppm failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`),
        );
      }
      collect().then(() => {
        if (stop === 'cap') {
          if (pages.length > 0) return resolve({ pages, truncated: true });
          return reject(
            new PageImageError('too_large', `page ${first} alone is over ${maxBytes} bytes as PNG`),
          );
        }
        resolve({ pages, truncated: false });
      }, reject);
    });
    child.stdin.on('error', () => undefined); // pdftoppm may exit before reading everything
    child.stdin.end(pdf);
  });
}

/**
 * Renders page 1 of a PDF as a 480 px wide PNG (spec "Thumbnails"). Not for the render path: callers make
 * thumbnails lazily, on first request or in the background.
 */
export async function makeThumbnail(pdf: Buffer, pdftoppm = 'pdftoppm'): Promise<Buffer> {
  const { pages } = await renderPageImages(pdf, { first: 1, last: 1, width: THUMBNAIL_WIDTH, pdftoppm });
  const page = pages[0];
  if (!page) throw new PageImageError('failed', 'pdftoppm rendered no page');
  return page.png;
}

/** The crop height (pdftoppm -H) that keeps a page of `width` px within MAX_PAGE_PIXELS. */
function maxPageHeight(width: number): number {
  return Math.max(1, Math.floor(MAX_PAGE_PIXELS / width));
}

/** pdftoppm that prlimit could not start: the server's installation is at fault (a 500), as with ENOENT. */
function notInstalled(exitCode: number | null, stderr: string): Error {
  const code = exitCode === 127 ? 'ENOENT' : 'EACCES';
  return Object.assign(new Error(`pdftoppm could not be started: ${stderr.trim()}`), { code });
}

/** Width and height from the IHDR chunk, which the PNG format puts first (bytes 16–23). */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * A page's raw pixels, and all pages' together, may be this many times the PNG cap (text pages compress
 * ~40:1); a page taller than that (an absurd aspect ratio) is stopped while it streams rather than held in
 * memory.
 */
function maxRawBytes(maxPngBytes: number): number {
  return Math.max(maxPngBytes * 8, 64 * 1024 * 1024);
}

/** A binary PPM page (P6, 8-bit RGB) as a PNG: rows without filter, deflated on libuv's thread pool. */
async function pngOf(ppm: Ppm): Promise<Buffer> {
  const { width, height, pixels } = ppm;
  const row = width * 3;
  const raw = Buffer.alloc((row + 1) * height); // each row: filter byte 0 (none), then its pixels
  for (let y = 0; y < height; y++) pixels.copy(raw, y * (row + 1) + 1, y * row, (y + 1) * row);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter method, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', await deflateAsync(raw, { level: 3 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

interface Ppm {
  width: number;
  height: number;
  pixels: Buffer;
}

/**
 * Splits pdftoppm's stdout, binary PPM pages one after another: a header `P6 <width> <height> 255` (ASCII,
 * separated by whitespace) and width × height × 3 bytes. Throws on anything else, and on a page whose
 * pixels would pass `maxRaw` bytes.
 */
export class PpmSplitter {
  /** The unfinished page's bytes as they came: joined once the page is whole, not on every chunk. */
  private chunks: Buffer[] = [];
  private length = 0;
  /** The current page's header length and total length, once its header is read. */
  private page: { width: number; height: number; start: number; end: number } | null = null;
  /** Pixel bytes of every page so far. */
  rawTotal = 0;

  constructor(private readonly maxRaw = Number.POSITIVE_INFINITY) {}

  /** Bytes of an unfinished page held back (0 between pages). */
  get pending(): number {
    return this.length;
  }

  push(chunk: Buffer): Ppm[] {
    this.chunks.push(chunk);
    this.length += chunk.length;
    const done: Ppm[] = [];
    for (;;) {
      if (this.length === 0) return done;
      this.page ??= this.header();
      if (!this.page || this.length < this.page.end) return done;
      const all = this.joined();
      const { width, height, start, end } = this.page;
      done.push({ width, height, pixels: all.subarray(start, end) });
      this.rawTotal += end - start;
      this.page = null;
      const rest = all.subarray(end);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.length = rest.length;
    }
  }

  /** The page header at the start of what is held, null while it is incomplete; throws on anything else. */
  private header(): { width: number; height: number; start: number; end: number } | null {
    const first = this.chunks.length === 1 ? this.chunks[0]! : this.joined();
    if (first[0] !== 0x50 || (first.length > 1 && first[1] !== 0x36)) throw notPpm();
    const head = /^P6\s+(\d{1,6})\s+(\d{1,6})\s+255\s/.exec(first.toString('latin1', 0, 40));
    if (!head) {
      if (first.length >= 40) throw notPpm();
      return null;
    }
    const width = Number(head[1]);
    const height = Number(head[2]);
    const size = width * height * 3;
    if (width === 0 || height === 0 || size > this.maxRaw) throw notPpm();
    return { width, height, start: head[0].length, end: head[0].length + size };
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.length)];
    return this.chunks[0]!;
  }
}

function notPpm(): Error {
  return new Error('not a binary PPM page');
}
