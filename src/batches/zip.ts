import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { BlobStore } from '../storage/index.js';
import { uniqueNames } from './filename-pattern.js';

/**
 * Writes the batch's ZIP to the blob store, streaming: each PDF is opened only when yazl reaches it and
 * copied through, stored without recompression (PDFs are compressed already), so memory stays flat however
 * many items the batch has. A file that vanished meanwhile (its retention ended) is left out. Returns the
 * ZIP's size in bytes.
 */
export async function writeBatchZip(
  blobs: BlobStore,
  key: string,
  files: readonly { filename: string; blob_key: string }[],
  mtime: Date,
): Promise<number> {
  const zip = new ZipFile();
  const nameOf = uniqueNames();
  for (const file of files) {
    if (!(await blobs.exists(file.blob_key))) continue;
    zip.addReadStreamLazy(nameOf(file.filename), { compress: false, mtime }, (done) => {
      blobs.read(file.blob_key).then(
        (found) =>
          found ? done(null, found.stream) : done(new Error(`blob ${file.blob_key} vanished`), null as never),
        (err: unknown) => done(err, null as never),
      );
    });
  }
  zip.end();
  // yazl's output is a PassThrough, typed as the older ReadableStream interface.
  const output = zip.outputStream as unknown as Readable;
  // A failing entry is reported on the ZipFile, not on its stream: end the stream with it.
  zip.on('error', (err: Error) => output.destroy(err));
  return blobs.putStream(key, output);
}
