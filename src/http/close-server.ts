import type { App } from './server.js';

/** How often, while the server closes, connections that went idle are ended. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops accepting connections and lets requests in flight finish, while `alongside` (other work that drains
 * in the same grace period) runs. Closing the server ends only the connections idle at that moment: a
 * keep-alive connection whose response finishes a moment later (a download whose last bytes the client
 * already has) would hold the close for Fastify's 72 s keep-alive timeout, so idle ones are looked for until
 * it is closed.
 */
export async function closeServer(app: App, alongside: () => Promise<void>): Promise<void> {
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await Promise.all([app.close(), alongside()]);
  } finally {
    clearInterval(idle);
  }
}
