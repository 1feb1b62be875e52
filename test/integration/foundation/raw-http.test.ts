import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { REQUEST_ID, startTestServer, type TestServer } from '../../helpers/server.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  json: any;
  /** The socket error the client saw while sending (EPIPE, ECONNRESET), if any. */
  socketError: string | null;
}

/**
 * Writes `head` and then `bodyBytes` filler bytes (as chunks when `chunked`) on a raw socket, half-closes,
 * and reads whatever comes back: the HTTP parser errors under test never reach an ordinary HTTP client.
 */
function rawExchange(
  port: number,
  head: string,
  options: { bodyBytes?: number; chunked?: boolean; tail?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let socketError: string | null = null;
    socket.on('data', (d) => received.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      socketError = err.code ?? err.message;
    });
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const [headText = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = headText.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      if (!status) return reject(new Error(`no HTTP answer (socket error ${socketError}): ${text}`));
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      let json: unknown = null;
      try {
        json = JSON.parse(rest.join('\r\n\r\n'));
      } catch {}
      resolve({ status, headers, json, socketError });
    });
    socket.write(head);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < (options.bodyBytes ?? 0)) {
        sent += chunk.length;
        const frame = options.chunked
          ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
          : chunk;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      socket.end(options.tail ?? (options.chunked ? '0\r\n\r\n' : ''));
    };
    pump();
  });
}

function assertInvalidRequest(answer: RawAnswer, message: RegExp): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.json));
  assert.equal(answer.json?.error?.code, 'invalid_request');
  assert.match(answer.json.error.message, message);
  assert.match(answer.json.error.docs_url, /\/docs\/errors#invalid_request$/);
  assert.match(answer.headers['x-request-id'] ?? '', REQUEST_ID);
  assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
}

describe('raw HTTP: parse errors and oversized bodies get the error object', () => {
  let server: TestServer;
  let port: number;
  let auth: string;
  const post = (headers: string) =>
    `POST /v1/pdf HTTP/1.1\r\nHost: q\r\n${auth}Content-Type: application/json\r\n${headers}\r\n`;

  before(async () => {
    server = await startTestServer();
    port = Number(new URL(server.base).port);
    auth = `Authorization: Bearer ${(await server.team('growth')).test}\r\n`;
  });
  after(async () => server.close());

  it('answers a malformed chunk size', async () => {
    const answer = await rawExchange(port, post('Transfer-Encoding: chunked\r\n'), { tail: 'zz\r\nabc\r\n' });
    assertInvalidRequest(answer, /chunked/);
  });

  it('answers conflicting Content-Length headers, and Content-Length with chunking', async () => {
    const twice = await rawExchange(port, post('Content-Length: 5\r\nContent-Length: 7\r\n'), {
      tail: '{"a":1}',
    });
    assertInvalidRequest(twice, /Content-Length/);
    const both = await rawExchange(port, post('Content-Length: 7\r\nTransfer-Encoding: chunked\r\n'), {
      tail: '7\r\n{"a":1}\r\n0\r\n\r\n',
    });
    assertInvalidRequest(both, /Content-Length|Transfer-Encoding/);
  });

  it('answers a body that ends before its Content-Length', async () => {
    const answer = await rawExchange(port, post('Content-Length: 50\r\n'), { tail: '{"html":' });
    assertInvalidRequest(answer, /ended before the request body was complete/);
  });

  it('answers control characters in the request line and in a header', async () => {
    assertInvalidRequest(
      await rawExchange(port, 'GET /v1/me\x01x HTTP/1.1\r\nHost: q\r\n\r\n'),
      /request line is malformed/,
    );
    assertInvalidRequest(
      await rawExchange(port, `GET /v1/me HTTP/1.1\r\nHost: q\r\n${auth}X-Note: a\x01b\r\n\r\n`),
      /header/,
    );
  });

  it('lets the 413 reach a client still sending a body over 5 MB (Content-Length)', async () => {
    const bytes = 8 * 1024 * 1024;
    const answer = await rawExchange(port, post(`Content-Length: ${bytes}\r\n`), { bodyBytes: bytes });
    assert.equal(answer.status, 413);
    assert.equal(answer.json?.error?.code, 'payload_too_large');
    assert.match(answer.headers['x-request-id'] ?? '', REQUEST_ID);
    assert.equal(answer.socketError, null, 'the client must not see a reset while sending');
  });

  it('lets the 413 reach a client still sending a chunked body over 5 MB', async () => {
    const answer = await rawExchange(port, post('Transfer-Encoding: chunked\r\n'), {
      bodyBytes: 8 * 1024 * 1024,
      chunked: true,
    });
    assert.equal(answer.status, 413);
    assert.equal(answer.json?.error?.code, 'payload_too_large');
    assert.equal(answer.socketError, null, 'the client must not see a reset while sending');
  });
});
