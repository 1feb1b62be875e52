import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/** One entry of a hand-made ZIP: what the central directory says, and what the local header says. */
export interface CraftedEntry {
  name: string;
  /** The stored bytes (deflated when method is 8). */
  data: Buffer;
  method: 0 | 8;
  crc: number;
  /** Uncompressed size in the central directory. */
  size: number;
  /** Local-header values that differ from the directory's (a lying ZIP). */
  local?: { size?: number; compressedSize?: number; crc?: number };
}

/** A deflated entry of `text`, honest in both headers. */
export function deflatedEntry(name: string, text: string | Buffer): CraftedEntry {
  const raw = Buffer.from(text);
  return { name, data: deflateRawSync(raw), method: 8, crc: crc32(raw), size: raw.length };
}

/**
 * `size` bytes of `byte`, deflated without ever holding them (a few hundred KB for hundreds of MB:
 * deflate's best ratio is about 1000:1), with their CRC.
 */
export async function deflatedRepeat(byte: number, size: number): Promise<{ data: Buffer; crc: number }> {
  const chunk = Buffer.alloc(1024 * 1024, byte);
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  for (let left = size; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(out), crc };
}

/** A ZIP with exactly the header fields given: a reader that trusts the wrong one is fooled. */
export function craftZip(entries: readonly CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.local?.crc ?? entry.crc, 14);
    local.writeUInt32LE(entry.local?.compressedSize ?? entry.data.length, 18);
    local.writeUInt32LE(entry.local?.size ?? entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
