import { constants, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * Encoders of PDF stream filters (ISO 32000 §7.4) for tests of the decoders, and compressed bombs.
 * LZW has no encoder here: tests feed its decoder random bytes only.
 */

export type EncodableFilter = 'FlateDecode' | 'ASCIIHexDecode' | 'ASCII85Decode' | 'RunLengthDecode';

export const ENCODERS: Record<EncodableFilter, (bytes: Buffer) => Buffer> = {
  FlateDecode: (bytes) => deflateSync(bytes),
  ASCIIHexDecode: (bytes) => Buffer.from(`${bytes.toString('hex')}>`, 'latin1'),
  ASCII85Decode: ascii85,
  RunLengthDecode: runLength,
};

/** ASCII base-85: four bytes as five characters from `!`, `z` for four zeros, a short last group, `~>`. */
function ascii85(bytes: Buffer): Buffer {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const group = bytes.subarray(i, i + 4);
    let n = Buffer.concat([group, Buffer.alloc(4 - group.length)]).readUInt32BE(0);
    if (n === 0 && group.length === 4) {
      out += 'z';
      continue;
    }
    let chars = '';
    for (let k = 0; k < 5; k++) {
      chars = String.fromCharCode(33 + (n % 85)) + chars;
      n = Math.floor(n / 85);
    }
    out += chars.slice(0, group.length + 1);
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

/** RunLength as literal runs of up to 128 bytes, then the end-of-data byte 128. */
function runLength(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 128) {
    const run = bytes.subarray(i, i + 128);
    parts.push(Buffer.from([run.length - 1]), run);
  }
  parts.push(Buffer.from([128]));
  return Buffer.concat(parts);
}

/** `bytes` encoded so that undoing `filters` in their order gives them back (the last filter is applied first). */
export function encodeFor(filters: readonly EncodableFilter[], bytes: Buffer): Buffer {
  return filters.reduceRight((data, filter) => ENCODERS[filter](data), bytes);
}

/**
 * A zlib stream of zeros about `compressedBytes` long and the bytes it inflates to: one 8 MB run of zeros
 * deflated once (~8 KB, a non-final block ending on a byte boundary), repeated, then an empty final block
 * and the right Adler-32. Deflating gigabytes would take seconds; repeating the block gives ~1000:1 in
 * milliseconds.
 */
export function zeroBomb(compressedBytes: number): { zlib: Buffer; inflated: number } {
  const run = 8 * 1024 * 1024;
  const block = deflateRawSync(Buffer.alloc(run), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const count = Math.max(1, Math.ceil(compressedBytes / block.length));
  const inflated = count * run;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((inflated % 65521) << 16) | 1) >>> 0); // Adler-32 of n zeros: a = 1, b = n
  const blocks = Array.from({ length: count }, () => block);
  return {
    zlib: Buffer.concat([Buffer.from([0x78, 0xda]), ...blocks, Buffer.from([0x03, 0x00]), adler]),
    inflated,
  };
}

/** A minimal PDF whose one object stream is `contents` under FlateDecode (pdf-lib decodes it while loading). */
export function pdfWithObjectStream(contents: Buffer): Buffer {
  const head = Buffer.from(
    '%PDF-1.5\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\n' +
      `3 0 obj <</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length ${contents.length}>> stream\n`,
  );
  const tail = Buffer.from('\nendstream endobj\ntrailer <</Root 1 0 R/Size 4>>\n%%EOF\n');
  return Buffer.concat([head, contents, tail]);
}

/**
 * A valid one-page PDF (qpdf and pdf-lib read it) whose page dictionary sits at the start of an object stream
 * that inflates to about `inflatedBytes`: zeros after the dictionary, PDF whitespace. A few hundred KB per
 * 400 MB; the zeros are never allocated here.
 */
export function pdfWithPageInObjectStream(inflatedBytes: number): Buffer {
  const page = Buffer.from('3 0 <</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>', 'latin1');
  const run = 8 * 1024 * 1024;
  const zerosBlock = deflateRawSync(Buffer.alloc(run), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const count = Math.max(1, Math.ceil(inflatedBytes / run));
  // Adler-32 of the dictionary, then of `count * run` zeros: each zero adds `a` to `b`.
  let a = 1;
  let b = 0;
  for (const byte of page) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + ((a * (count * run)) % 65521)) % 65521;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  const stream = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    deflateRawSync(page, { finishFlush: constants.Z_SYNC_FLUSH }),
    ...Array.from({ length: count }, () => zerosBlock),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
  const offsets: number[] = [];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const add = (bytes: Buffer) => {
    parts.push(bytes);
    length += bytes.length;
  };
  offsets[1] = length;
  add(Buffer.from('1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n'));
  offsets[2] = length;
  add(Buffer.from('2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n'));
  offsets[4] = length;
  add(
    Buffer.from(`4 0 obj <</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length ${stream.length}>> stream\n`),
  );
  add(stream);
  add(Buffer.from('\nendstream endobj\n'));
  const xrefAt = length;
  // Cross-reference stream, fields of 1, 4 and 2 bytes: object 3 is the first in object stream 4.
  const rows: Array<[number, number, number]> = [
    [0, 0, 65535],
    [1, offsets[1]!, 0],
    [1, offsets[2]!, 0],
    [2, 4, 0],
    [1, offsets[4]!, 0],
    [1, xrefAt, 0],
  ];
  const xref = Buffer.concat(
    rows.map(([type, field2, field3]) => {
      const row = Buffer.alloc(7);
      row[0] = type;
      row.writeUInt32BE(field2, 1);
      row.writeUInt16BE(field3, 5);
      return row;
    }),
  );
  add(Buffer.from(`5 0 obj <</Type/XRef/Size 6/W[1 4 2]/Root 1 0 R/Length ${xref.length}>> stream\n`));
  add(xref);
  add(Buffer.from(`\nendstream endobj\nstartxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}
