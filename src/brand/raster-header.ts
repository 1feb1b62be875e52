/**
 * Sizes of raster images read from their headers alone, before anything decodes them: a decoder allocates
 * what the header declares, so a 65 KB file can ask for gigabytes. Plain PNG/JPEG logos (files.ts) and the
 * images an SVG logo embeds (svg-tree.ts) are bounded by these sizes. The readers never throw: bytes they
 * cannot read answer null, and the caller refuses the file.
 */

export interface PixelSize {
  width: number;
  height: number;
}

export type RasterFormat = 'PNG' | 'JPEG' | 'GIF' | 'WebP';

export interface RasterHeader {
  format: RasterFormat;
  /** Every size a decoder may allocate for: the image's, and for GIF and WebP the canvas's and each frame's. */
  sizes: PixelSize[];
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format by its magic bytes, whatever the file claims elsewhere (a MIME type, a name). */
export function rasterFormat(bytes: Buffer): RasterFormat | null {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'PNG';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  const gif = bytes.toString('latin1', 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'GIF';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'WebP';
  return null;
}

/** The format and sizes, or null when the format is unknown or a size cannot be read or is empty. */
export function readRasterHeader(bytes: Buffer): RasterHeader | null {
  const format = rasterFormat(bytes);
  if (!format) return null;
  const sizes = SIZE_READERS[format](bytes);
  if (!sizes || sizes.length === 0 || sizes.some((s) => s.width < 1 || s.height < 1)) return null;
  return { format, sizes };
}

/** The largest of the sizes by pixel count: what one decode of the image costs at most. */
export function largestSize(sizes: readonly PixelSize[]): PixelSize {
  return sizes.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
}

const SIZE_READERS: Record<RasterFormat, (bytes: Buffer) => PixelSize[] | null> = {
  PNG: pngSizes,
  JPEG: jpegSizes,
  GIF: gifSizes,
  WebP: webpSizes,
};

/** IHDR is the first chunk of every PNG (decoders refuse a file where it is not): its width and height. */
function pngSizes(bytes: Buffer): PixelSize[] | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return [{ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }];
}

const JPEG_EOI = 0xd9;
const JPEG_SOS = 0xda;

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): a frame header, with the image's size. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** TEM, RST0–RST7 and SOI stand alone: no length follows them. */
function isStandaloneMarker(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
}

/**
 * The size in the first start-of-frame segment, found the way decoders (libjpeg, jpeg-decoder) find it:
 * anything up to the next 0xFF is skipped, fill bytes and a stuffed 0xFF00 too, so this walk cannot land
 * on a different frame header than theirs. Only the first frame counts: both refuse a second one
 * (hierarchical JPEG). A height of 0 (the real one follows the image data, in a DNL segment) makes
 * readRasterHeader answer null.
 */
function jpegSizes(bytes: Buffer): PixelSize[] | null {
  let at = 2;
  for (;;) {
    while (at < bytes.length && bytes[at] !== 0xff) at++;
    while (at < bytes.length && bytes[at] === 0xff) at++;
    if (at + 2 >= bytes.length) return null;
    const marker = bytes[at] as number;
    at += 1;
    if (marker === 0x00 || isStandaloneMarker(marker)) continue;
    // Image data or the end before any frame header: decoders give up there.
    if (marker === JPEG_SOS || marker === JPEG_EOI) return null;
    const length = bytes.readUInt16BE(at);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 7 > bytes.length) return null;
      return [{ height: bytes.readUInt16BE(at + 3), width: bytes.readUInt16BE(at + 5) }];
    }
    at += length;
  }
}

const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;

/** Bytes of the colour table a GIF packed-fields byte announces (logical screen or image descriptor). */
function gifColorTableBytes(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}

/** The offset after a chain of GIF data sub-blocks starting at `at`, or -1 when the chain is cut short. */
function skipGifSubBlocks(bytes: Buffer, at: number): number {
  let next = at;
  while (next < bytes.length) {
    const size = bytes[next] as number;
    next += 1 + size;
    if (size === 0) return next;
  }
  return -1;
}

/**
 * The logical screen and every frame's image descriptor: a decoder allocates a frame at the size its
 * descriptor gives, which may be far larger than the screen. The whole file is walked, so a huge frame
 * after small ones is seen; a block that is cut short or unknown makes the file unreadable.
 */
function gifSizes(bytes: Buffer): PixelSize[] | null {
  if (bytes.length < 13) return null;
  const sizes: PixelSize[] = [{ width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) }];
  let at = 13 + gifColorTableBytes(bytes[10] as number);
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === GIF_TRAILER) return sizes;
    if (block === GIF_EXTENSION) at = skipGifSubBlocks(bytes, at + 2);
    else if (block === GIF_IMAGE && at + 10 <= bytes.length) {
      sizes.push({ width: bytes.readUInt16LE(at + 5), height: bytes.readUInt16LE(at + 7) });
      // The colour table, then the LZW minimum code size byte, then the image data.
      at = skipGifSubBlocks(bytes, at + 10 + gifColorTableBytes(bytes[at + 9] as number) + 1);
    } else return null;
    if (at < 0) return null;
  }
  // Some encoders leave out the trailer; the data must still end between blocks.
  return at === bytes.length ? sizes : null;
}

const RIFF_HEADER_BYTES = 12;
const WEBP_CHUNK_HEADER_BYTES = 8;
/** An ANMF chunk's frame header, before the frame's own chunks. */
const WEBP_ANMF_HEADER_BYTES = 16;

function readUInt24LE(bytes: Buffer, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
}

/** The size one WebP chunk declares (its payload at `data`, `size` bytes), or null for chunks without one. */
function webpChunkSize(tag: string, bytes: Buffer, data: number, size: number): PixelSize | null | 'damaged' {
  switch (tag) {
    case 'VP8 ':
      // A key frame: 3 bytes of frame tag, the start code, then 14-bit width and height (2 scale bits each).
      if (size < 10 || bytes.readUIntBE(data + 3, 3) !== 0x9d012a) return 'damaged';
      return { width: bytes.readUInt16LE(data + 6) & 0x3fff, height: bytes.readUInt16LE(data + 8) & 0x3fff };
    case 'VP8L': {
      if (size < 5 || bytes[data] !== 0x2f) return 'damaged';
      const bits = bytes.readUInt32LE(data + 1);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      if (size < 10) return 'damaged';
      return { width: readUInt24LE(bytes, data + 4) + 1, height: readUInt24LE(bytes, data + 7) + 1 };
    case 'ANMF':
      if (size < WEBP_ANMF_HEADER_BYTES) return 'damaged';
      return { width: readUInt24LE(bytes, data + 6) + 1, height: readUInt24LE(bytes, data + 9) + 1 };
    default:
      return null;
  }
}

/**
 * Adds the sizes the chunks between `start` and `end` declare, and those of an animation frame's own chunks
 * (one level: frames do not nest, and recursing on hostile nesting could exhaust the stack).
 */
function addWebpChunkSizes(
  bytes: Buffer,
  start: number,
  end: number,
  sizes: PixelSize[],
  inFrame = false,
): boolean {
  let at = start;
  while (at + WEBP_CHUNK_HEADER_BYTES <= end) {
    const tag = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const data = at + WEBP_CHUNK_HEADER_BYTES;
    if (data + size > end) return false;
    const declared = webpChunkSize(tag, bytes, data, size);
    if (declared === 'damaged') return false;
    if (declared) sizes.push(declared);
    const frameChunks = data + WEBP_ANMF_HEADER_BYTES;
    if (tag === 'ANMF' && !inFrame && !addWebpChunkSizes(bytes, frameChunks, data + size, sizes, true))
      return false;
    // Chunks are padded to an even length.
    at = data + size + (size & 1);
  }
  return true;
}

/** The canvas (VP8X), every frame (ANMF) and every bitstream (VP8, VP8L) a WebP declares. */
function webpSizes(bytes: Buffer): PixelSize[] | null {
  if (bytes.length < RIFF_HEADER_BYTES) return null;
  const end = Math.min(bytes.length, WEBP_CHUNK_HEADER_BYTES + bytes.readUInt32LE(4));
  const sizes: PixelSize[] = [];
  return addWebpChunkSizes(bytes, RIFF_HEADER_BYTES, end, sizes) ? sizes : null;
}
