import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what is left of a request body Fastify refused to read (over 5 MB, not JSON), so the
 * error response reaches the client. Fastify answers such requests with `connection: close`; if the socket
 * closes while the client is still sending, the client's TCP stack gets a reset and usually loses the
 * response with it (EPIPE/ECONNRESET instead of a 413). Bounded so a client cannot hold the socket open.
 */

/** At most this much more is read after the refusal (a client sending up to ~20 MB still sees the 413). */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** And for at most this long. */
export const DRAIN_MAX_MS = 10_000;

/** Resolves once the body has ended, or the byte or time bound is reached (the socket then closes as before). */
export function drainRequestBody(
  request: IncomingMessage,
  limits: { maxBytes: number; maxMs: number } = { maxBytes: DRAIN_MAX_BYTES, maxMs: DRAIN_MAX_MS },
): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', finish);
      request.off('close', finish);
      request.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.maxBytes) finish();
    };
    // unref: a stalled client must not keep a stopping process alive; the socket itself still does until closed.
    const timer = setTimeout(finish, limits.maxMs).unref();
    request.on('data', onData);
    request.once('end', finish);
    request.once('close', finish);
    request.once('error', finish);
    request.resume();
  });
}
