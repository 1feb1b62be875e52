import { crc32, deflateSync } from 'node:zlib';

/**
 * Raster files built byte by byte, for the header readers (src/brand/raster-header.ts). A header may declare
 * far more pixels than its data holds: what is bounded is what the header asks a decoder to allocate, so a
 * test of a 20000×20000 image stays a few hundred bytes and nothing in it decodes the image.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG declaring `width`×`height` 1-bit greyscale pixels; its IDAT holds `rows` rows of zeros (all of them
 * by default, a valid image; fewer for a header alone).
 */
export function onePng(width: number, height: number, rows = height): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1;
  const raw = Buffer.alloc((Math.ceil(width / 8) + 1) * rows);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The smallest JPEG header the size reader walks: SOI, an APP0 segment, then SOF0 with the size. */
export function jpegHeader(width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegApp0(),
    jpegSof(width, height),
    Buffer.from([0xff, 0xd9]),
  ]);
}

export function jpegApp0(): Buffer {
  return Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
}

/** A baseline start-of-frame segment (SOF0) with three components. */
export function jpegSof(width: number, height: number): Buffer {
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return sof;
}

/** A GIF89a: its logical screen, then one frame per size, each holding one pixel of LZW data. */
export function gif(screen: [number, number], frames: [number, number][]): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(screen[0], 6);
  header.writeUInt16LE(screen[1], 8);
  const parts = [header];
  for (const [width, height] of frames) {
    // A graphic control extension, as animations have before each frame.
    parts.push(Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]));
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    descriptor.writeUInt16LE(width, 5);
    descriptor.writeUInt16LE(height, 7);
    parts.push(descriptor, Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

function riffChunk(tag: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(tag, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, Buffer.alloc(data.length & 1)]);
}

function webp(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** A lossy WebP's VP8 key-frame header. */
export function webpLossy(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.set([0x9d, 0x01, 0x2a], 3);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return webp([riffChunk('VP8 ', data)]);
}

/** A lossless WebP's VP8L header: 14 bits each of width − 1 and height − 1. */
export function webpLossless(width: number, height: number): Buffer {
  const data = Buffer.alloc(5);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return webp([riffChunk('VP8L', data)]);
}

/** An extended WebP: a VP8X canvas, then one animation frame (ANMF) per size, each with a VP8L bitstream. */
export function webpAnimated(canvas: [number, number], frames: [number, number][]): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x02;
  vp8x.writeUIntLE(canvas[0] - 1, 4, 3);
  vp8x.writeUIntLE(canvas[1] - 1, 7, 3);
  const anmf = frames.map(([width, height]) => {
    const frame = Buffer.alloc(16);
    frame.writeUIntLE(width - 1, 6, 3);
    frame.writeUIntLE(height - 1, 9, 3);
    const bitstream = webpLossless(Math.min(width, 16384), Math.min(height, 16384)).subarray(12);
    return riffChunk('ANMF', Buffer.concat([frame, bitstream]));
  });
  return webp([riffChunk('VP8X', vp8x), riffChunk('ANIM', Buffer.alloc(6)), ...anmf]);
}

/** An SVG showing `image` (a data: URL's bytes, or the URL itself) at 40×20. */
export function svgWithImage(image: Buffer | string, mime = 'image/png'): string {
  const href = typeof image === 'string' ? image : `data:${mime};base64,${image.toString('base64')}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><image href="${href}" width="40" height="20"/></svg>`;
}
