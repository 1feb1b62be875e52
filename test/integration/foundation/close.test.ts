import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import { busyDocument } from '../../helpers/chromium.js';
import { startTestServer } from '../../helpers/server.js';
import { withinTime } from '../../helpers/wait.js';

/** Far below Fastify's 72 s keep-alive timeout, which is what a close used to wait for; far above a drain. */
const CLOSE_CEILING_MS = 30_000;

describe('closing the server', () => {
  it('lets a render in flight finish, then ends its keep-alive connection instead of waiting out the keep-alive timeout', async () => {
    const server = await startTestServer();
    const team = await server.team('growth');
    const agent = new http.Agent({ keepAlive: true });
    try {
      const received = new Promise<void>((resolve) =>
        server.built.app.server.once('request', () => resolve()),
      );
      const answered = new Promise<number>((resolve, reject) => {
        const request = http.request(
          `${server.base}/v1/pdf`,
          {
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${team.live}`, 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify({ html: busyDocument(1_500) }));
      });
      await received;
      const closed = server.close();
      assert.equal(await answered, 200, 'the render in flight finishes within the drain');
      // A hang caught, not a limit measured: the close used to wait out the keep-alive timeout.
      await withinTime(
        closed,
        CLOSE_CEILING_MS,
        `the close had not ended ${CLOSE_CEILING_MS} ms after it began`,
      );
    } finally {
      agent.destroy();
    }
  });
});
