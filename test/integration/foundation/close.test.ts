import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import { startTestServer } from '../../helpers/server.js';

/** A document that keeps its render busy for `ms`, so its answer is still to come when the close begins. */
const busy = (ms: number) =>
  `<p>busy</p><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script>`;

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
        request.end(JSON.stringify({ html: busy(1_500) }));
      });
      await received;
      const started = Date.now();
      const closed = server.close().then(() => Date.now() - started);
      assert.equal(await answered, 200, 'the render in flight finishes within the drain');
      let timer: NodeJS.Timeout | undefined;
      const ms = await Promise.race([
        closed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the close still waited ${CLOSE_CEILING_MS} ms after the last answer`)),
            CLOSE_CEILING_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      assert.ok(ms < CLOSE_CEILING_MS, `closed after ${ms} ms`);
    } finally {
      agent.destroy();
    }
  });
});
