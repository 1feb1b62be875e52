import { brotliCompressSync, constants } from 'node:zlib';

/** WOFF2 known table tags (spec 5.1), by index. */
const KNOWN_TAGS = [
  'cmap',
  'head',
  'hhea',
  'hmtx',
  'maxp',
  'name',
  'OS/2',
  'post',
  'cvt ',
  'fpgm',
  'glyf',
  'loca',
];

function base128(value: number): number[] {
  const out = [value & 0x7f];
  for (let v = Math.floor(value / 128); v > 0; v = Math.floor(v / 128)) out.unshift((v & 0x7f) | 0x80);
  return out;
}

/** A TTF's tables by tag, from its table directory. */
function sfntTables(ttf: Buffer): { flavor: number; tables: { tag: string; data: Buffer }[] } {
  const count = ttf.readUInt16BE(4);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 12 + i * 16;
    const offset = ttf.readUInt32BE(at + 8);
    return {
      tag: ttf.toString('latin1', at, at + 4),
      data: ttf.subarray(offset, offset + ttf.readUInt32BE(at + 12)),
    };
  });
  return { flavor: ttf.readUInt32BE(0), tables };
}

export interface Woff2Options {
  /** Replaces the table lengths the directory declares (a lying directory). */
  declaredLength?: (tag: string, real: number) => number;
  /** Bytes appended to the table data before compression (data the directory does not declare). */
  extraData?: Buffer;
}

/**
 * A WOFF2 of a TTF with no table transforms (glyf/loca with transform version 3, the "null" transform),
 * which every WOFF2 reader accepts; options make its table directory lie for the hostile-file tests.
 */
export function woff2Of(ttf: Buffer, options: Woff2Options = {}): Buffer {
  const { flavor, tables } = sfntTables(ttf);
  const directory: number[] = [];
  for (const { tag, data } of tables) {
    const known = KNOWN_TAGS.indexOf(tag);
    const version = tag === 'glyf' || tag === 'loca' ? 3 : 0;
    if (known >= 0) directory.push(known | (version << 6));
    else directory.push(63 | (version << 6), ...Buffer.from(tag, 'latin1'));
    directory.push(...base128(options.declaredLength?.(tag, data.length) ?? data.length));
  }
  const compressed = brotliCompressSync(
    Buffer.concat([...tables.map((t) => t.data), options.extraData ?? Buffer.alloc(0)]),
    // Quality 5 instead of 11: as valid, and seconds faster for the stuffed test file.
    { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  );
  const header = Buffer.alloc(48);
  header.write('wOF2', 0, 'latin1');
  header.writeUInt32BE(flavor, 4);
  header.writeUInt16BE(tables.length, 12);
  header.writeUInt32BE(ttf.length, 16);
  header.writeUInt32BE(compressed.length, 20);
  const file = Buffer.concat([header, Buffer.from(directory), compressed]);
  file.writeUInt32BE(file.length, 8);
  return file;
}
