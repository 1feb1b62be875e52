import { readSpreadsheet } from '../batches/spreadsheet.js';
import { inspectFont, inspectLogo } from '../brand/files.js';
import { readPkcs12 } from '../certificates/pkcs12.js';
import { AppError } from '../shared/errors.js';
import { markStarted } from '../shared/task-deadline.js';
import type { ParseBody, ParseReply, ParseResults, ParseTask } from './protocol.js';

/**
 * An untrusted-file pool worker (see pool.ts): runs one parser over bytes a client sent. The parsers
 * bound what they produce themselves; this thread's heap cap and the pool's wall-clock limit are the
 * backstop, and stop this thread alone.
 */
async function parse(task: ParseBody): Promise<ParseResults[ParseBody['kind']]> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  switch (task.kind) {
    case 'spreadsheet':
      return readSpreadsheet(bytes, task.maxRows);
    case 'logo':
      return inspectLogo(bytes);
    case 'font':
      return inspectFont(bytes);
    case 'certificate':
      return readPkcs12(bytes, task.passphrase, new Date(task.nowMs));
  }
}

export default async function handle(task: ParseTask): Promise<ParseReply> {
  markStarted(task);
  try {
    return { ok: true, value: await parse(task) };
  } catch (err) {
    if (err instanceof AppError)
      return { ok: false, code: err.code, message: err.message, details: err.details };
    // A library tripping over hostile bytes is the file's fault, not the server's: say so, never a 500.
    const reason = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      code: 'invalid_request',
      message: `The file could not be read (${reason.slice(0, 200)}); check that it is not damaged.`,
      details: undefined,
    };
  }
}
