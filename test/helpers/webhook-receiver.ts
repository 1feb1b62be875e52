import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import type { Config } from '../../src/config/config.js';
import { serverForBlock, type TestServer } from './server.js';

/** A real HTTP webhook receiver on loopback that records every request with its raw body. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

export type Behaviour = (
  req: IncomingMessage,
  res: ServerResponse,
  received: Received,
) => void | Promise<void>;

export interface Receiver {
  url(path?: string): string;
  received: Received[];
  /** Requests currently being answered, and the most at once. */
  inFlight: number;
  /** The most requests to one path answered at once. */
  maxInFlightOn(path: string): number;
  behave(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export const answer =
  (status: number, body = 'ok'): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };

export async function startReceiver(): Promise<Receiver> {
  let behaviour: Behaviour = answer(200);
  const state = { inFlight: 0 };
  const byPath = new Map<string, { now: number; max: number }>();
  const received: Received[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry: Received = {
      path: req.url ?? '/',
      headers: req.headers,
      rawBody: Buffer.concat(chunks).toString('utf8'),
    };
    received.push(entry);
    state.inFlight += 1;
    const path = byPath.get(entry.path) ?? { now: 0, max: 0 };
    byPath.set(entry.path, path);
    path.now += 1;
    path.max = Math.max(path.max, path.now);
    res.on('close', () => {
      state.inFlight -= 1;
      path.now -= 1;
    });
    try {
      await behaviour(req, res, entry);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    get inFlight() {
      return state.inFlight;
    },
    maxInFlightOn: (path) => byPath.get(path)?.max ?? 0,
    behave(next) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For the describe block it is called in: a test server allowed to deliver webhooks to loopback, and a receiver
 * for them, both closed after the block; `use` receives them once they run (in `before`).
 */
export function serverWithReceiver(
  overrides: Partial<Config>,
  use: (both: { server: TestServer; receiver: Receiver }) => void,
): void {
  let receiver: Receiver | undefined;
  serverForBlock(
    async (server) => {
      receiver = await startReceiver();
      use({ server, receiver });
    },
    { allowPrivateWebhooks: true, ...overrides },
  );
  after(async () => receiver?.close());
}
