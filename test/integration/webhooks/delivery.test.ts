import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sweepDeliveryLog } from '../../../src/webhooks/delivery-log.js';
import { verifySignature } from '../../../src/webhooks/signing.js';
import { api } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';
import { answer, type Received, type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';
import { type Harness, startHarness } from './harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('webhook delivery', () => {
  let h: Harness;
  let rx: Receiver;
  let team: { id: string; live: string; test: string };
  let endpoint: { id: string; secret: string };
  let hookPath = '';
  let n = 0;

  before(async () => {
    // A receiver's answer the tests hold back (the in-flight cap) must never meet the timeout, however long a
    // loaded machine takes to release it: the timeout has its own suite below, with 2 s.
    h = await startHarness({ webhookTimeoutMs: 60_000 });
    rx = await startReceiver();
  });
  after(async () => {
    await h.close();
    await rx.close();
  });
  beforeEach(async () => {
    rx.received.length = 0;
    rx.behave(answer(200));
    team = await h.team('growth');
    // Each test has its own path, so late deliveries of an earlier test's endpoint are never counted here.
    n += 1;
    hookPath = `/hook/${n}`;
    const made = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.live,
      body: { url: rx.url(hookPath), events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(made.status, 201);
    endpoint = { id: made.json.id, secret: made.json.secret };
  });

  const mine = () => rx.received.filter((r) => r.path === hookPath);
  const nowSeconds = () => Math.floor(h.clock.now().getTime() / 1000);
  const deliveries = async () =>
    (await api(h.base, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`, { key: team.live })).json.data;
  /** POST …/deliveries/<id>/retry of the endpoint, with the live key. */
  const retry = (deliveryId: string) =>
    api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`, { key: team.live });
  const verify = (r: Received, secret: string) =>
    verifySignature(String(r.headers['quire-signature']), secret, r.rawBody, { nowSeconds: nowSeconds() });

  it('signs every delivery over the raw body and logs the event exactly as sent', async () => {
    const eventId = await h.emit(team.id);
    await h.emit(team.id, { test: true }); // a test document: not for a live endpoint
    await h.settle();
    assert.equal(mine().length, 1);
    const [r] = mine();
    assert.ok(r);
    assert.equal(verify(r, endpoint.secret).ok, true);
    assert.equal(r.headers['quire-event-id'], eventId);
    assert.equal(r.headers['quire-event-type'], 'pdf.created');
    assert.equal(r.headers['user-agent'], 'Quire-Webhooks/1.0');
    assert.equal(r.headers['service-signature'], undefined, 'the brand, not the spec placeholder');
    assert.equal(r.headers['content-type'], 'application/json');
    const body = JSON.parse(r.rawBody);
    assert.equal(body.id, eventId);
    assert.equal(body.livemode, true);
    assert.equal('test_event' in body, false);
    assert.equal(body.data.filename.endsWith('.pdf'), true);
    assert.equal(body.data.batch_id, null);
    const [logged] = await deliveries();
    assert.equal(logged.status, 'succeeded');
    assert.equal(logged.attempts, 1);
    assert.equal(logged.response_status, 200);
    assert.equal(logged.response_body, 'ok');
    assert.deepEqual(logged.event, body);
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const rotated = await api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, {
      key: team.live,
    });
    assert.match(rotated.json.secret, /^whsec_/);
    assert.notEqual(rotated.json.secret, endpoint.secret);
    /** Emits an event; its delivery (the `index`th) carries `signatures` signatures, the old secret's or not. */
    const deliveredSignedBy = async (index: number, signatures: number, oldSecret: boolean) => {
      await h.emit(team.id);
      await h.settle();
      const delivery = mine()[index];
      assert.ok(delivery);
      assert.equal(String(delivery.headers['quire-signature']).match(/v1=/g)?.length, signatures);
      assert.equal(verify(delivery, endpoint.secret).ok, oldSecret);
      assert.equal(verify(delivery, rotated.json.secret).ok, true);
    };
    await deliveredSignedBy(0, 2, true);
    h.clock.advance(24 * HOUR + MINUTE);
    await deliveredSignedBy(1, 1, false);
  });

  it('retries after 1 min, 5 min, 30 min, 2 h, 6 h, 7 h and 8 h, then fails', async () => {
    rx.behave(answer(500, 'down'));
    const start = h.clock.now().getTime();
    await h.emit(team.id);
    await h.settle();
    const gaps = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 7 * HOUR, 8 * HOUR];
    let elapsed = 0;
    for (const [i, gap] of gaps.entries()) {
      h.clock.advance(gap - 1_000);
      await h.settle();
      assert.equal(mine().length, i + 1, `not before ${gap / MINUTE} min`);
      const [pending] = await deliveries();
      assert.equal(pending.status, 'pending');
      assert.equal(Date.parse(pending.next_attempt_at), start + elapsed + gap);
      h.clock.advance(1_000);
      await h.settle();
      elapsed += gap;
      assert.equal(mine().length, i + 2, `attempt ${i + 2} after ${gap / MINUTE} min`);
    }
    h.clock.advance(10 * HOUR);
    await h.settle();
    assert.equal(mine().length, 8);
    const [done] = await deliveries();
    assert.equal(done.status, 'failed');
    assert.equal(done.attempts, 8);
    assert.equal(done.next_attempt_at, null);
    assert.equal(done.response_status, 500);
    assert.equal(done.response_body, 'down');
    assert.equal(
      new Set(mine().map((r) => r.headers['quire-event-id'])).size,
      1,
      'same event id on re-sends',
    );
  });

  it('has at most 2 deliveries in flight per endpoint', async () => {
    const release: Array<() => void> = [];
    rx.behave(
      (_req, res) =>
        new Promise<void>((resolve) => {
          release.push(() => {
            res.end('ok');
            resolve();
          });
        }),
    );
    for (let i = 0; i < 5; i += 1) await h.emit(team.id);
    h.background.wake();
    await waitUntil('two deliveries to be answered at once', () => mine().length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    h.background.wake();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(mine().length, 2, 'the third waits for a free place');
    while (mine().length < 5 || release.length > 0) {
      release.shift()?.();
      await new Promise((r) => setTimeout(r, 20));
    }
    await h.settle();
    assert.equal(rx.maxInFlightOn(hookPath), 2);
    assert.equal(mine().length, 5);
    const log = await deliveries();
    assert.deepEqual(
      log.map((d: { status: string }) => d.status),
      ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded'],
    );
  });

  it('disables the endpoint after 24 hours of failures, drops waiting deliveries and emails the team', async () => {
    rx.behave(answer(503));
    await h.emit(team.id); // attempts at 0, 1m, 6m, 36m, 2h36m, 8h36m, 15h36m, 23h36m
    await h.settle();
    for (const gap of [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 7 * HOUR, 8 * HOUR]) {
      h.clock.advance(gap);
      await h.settle();
    }
    let state = await api(h.base, 'GET', `/v1/webhooks/${endpoint.id}`, { key: team.live });
    assert.equal(state.json.status, 'enabled', '23.6 hours of failures are not yet 24');
    h.clock.advance(30 * MINUTE);
    await h.emit(team.id); // fails at 24h06m after the first failure
    await h.settle();
    state = await api(h.base, 'GET', `/v1/webhooks/${endpoint.id}`, { key: team.live });
    assert.equal(state.json.status, 'disabled');
    assert.equal(state.json.disabled_reason, 'failing');
    const log = await deliveries();
    assert.equal(
      log.filter((d: { status: string }) => d.status === 'pending').length,
      0,
      'waiting deliveries dropped',
    );
    assert.equal(h.emails.at(-1)?.to, 'owner@example.com');
    assert.match(h.emails.at(-1)?.text ?? '', /disabled/);
    const before = mine().length;
    await h.emit(team.id);
    h.clock.advance(HOUR);
    await h.settle();
    await api(h.base, 'PUT', `/v1/webhooks/${endpoint.id}`, { key: team.live, body: { enabled: true } });
    rx.behave(answer(200));
    await h.settle();
    assert.equal(mine().length, before, 'events raised while disabled are never sent');
  });

  it('sends a test event once, never retries it and never disables for it', async () => {
    rx.behave(answer(500));
    const sent = await api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/test`, { key: team.live });
    assert.equal(sent.status, 202);
    assert.deepEqual(Object.keys(sent.json), ['delivery_id'], 'spec: 202 { delivery_id }');
    assert.equal(sent.headers.get('cache-control'), 'no-store');
    await h.settle();
    const [first] = mine();
    assert.ok(first);
    assert.equal(verify(first, endpoint.secret).ok, true);
    for (let i = 0; i < 30; i += 1) {
      h.clock.advance(HOUR);
      await h.settle();
    }
    assert.equal(mine().length, 1);
    const [r] = mine();
    assert.ok(r);
    assert.equal(JSON.parse(r.rawBody).test_event, true);
    const [logged] = await deliveries();
    assert.equal(logged.id, sent.json.delivery_id, 'the answer names the delivery it started');
    assert.equal(logged.test_event, true);
    assert.equal(logged.status, 'failed');
    assert.equal(logged.attempts, 1);
    const state = await api(h.base, 'GET', `/v1/webhooks/${endpoint.id}`, { key: team.live });
    assert.equal(state.json.status, 'enabled');
  });

  it('a disabled endpoint gets test events but no other events', async () => {
    const off = await api(h.base, 'PUT', `/v1/webhooks/${endpoint.id}`, {
      key: team.live,
      body: { enabled: false },
    });
    assert.equal(off.json.status, 'disabled');
    await h.emit(team.id);
    const sent = await api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/test`, { key: team.live });
    assert.equal(sent.status, 202);
    await h.settle();
    h.clock.advance(HOUR);
    await h.settle();
    assert.equal(mine().length, 1);
    assert.equal(JSON.parse(mine()[0]?.rawBody ?? '{}').test_event, true);
    const log = await deliveries();
    assert.deepEqual(
      log.map((d: { id: string; status: string }) => [d.id === sent.json.delivery_id, d.status]),
      [[true, 'succeeded']],
      'the event raised while disabled was not even queued',
    );
  });

  it('retries a finished delivery once with the same id; refuses pending ones and limits sends to 10 a minute', async () => {
    rx.behave(answer(500));
    await h.emit(team.id);
    await h.settle();
    const [waiting] = await deliveries();
    assert.equal(waiting.status, 'pending');
    const pending = await retry(waiting.id);
    assert.equal(pending.status, 404);
    assert.equal(pending.json.error.code, 'not_found');
    h.clock.advance(1_000);
    const test = await api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/test`, { key: team.live });
    await h.settle();
    rx.received.length = 0;
    rx.behave(answer(204, ''));
    const retried = await retry(test.json.delivery_id);
    assert.equal(retried.status, 202);
    assert.deepEqual(retried.json, { delivery_id: test.json.delivery_id });
    assert.equal(retried.headers.get('cache-control'), 'no-store');
    await h.settle();
    const [logged] = await deliveries();
    assert.equal(logged.id, test.json.delivery_id);
    assert.equal(logged.status, 'succeeded');
    assert.equal(logged.attempts, 2);
    assert.equal(logged.response_status, 204);
    assert.equal(mine().length, 1);
    assert.equal(mine()[0]?.rawBody, JSON.stringify(logged.event), 'the same event bytes');
    for (let i = 2; i < 10; i += 1) {
      const ok = await api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/test`, { key: team.live });
      assert.equal(ok.status, 202);
    }
    const limited = await api(h.base, 'POST', `/v1/webhooks/${endpoint.id}/test`, { key: team.live });
    assert.equal(limited.status, 429);
    assert.equal(limited.json.error.code, 'rate_limited');
    assert.equal(limited.json.error.details.reason, 'webhook_sends');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    await h.settle();
    h.clock.advance(MINUTE);
    await api(h.base, 'PUT', `/v1/webhooks/${endpoint.id}`, { key: team.live, body: { enabled: false } });
    const disabled = await retry(test.json.delivery_id);
    assert.equal(disabled.status, 400);
    assert.equal(disabled.json.error.code, 'invalid_request');
  });

  it('QUIRE_ALLOW_PRIVATE_WEBHOOKS waives https and the port rule for private targets only', async () => {
    const refused: Array<[string, string]> = [
      ['http://93.184.216.34/hook', 'https_required'],
      ['https://93.184.216.34:8080/hook', 'port'],
    ];
    for (const [url, reason] of refused) {
      const r = await api(h.base, 'POST', '/v1/webhooks', {
        key: team.test,
        body: { url, events: ['pdf.created'] },
      });
      assert.equal(r.status, 400, url);
      assert.deepEqual(r.json.error.details, { field: 'url', reason }, url);
    }
    const local = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.test,
      body: { url: 'http://10.20.30.40:9000/hook', events: ['pdf.created'] },
    });
    assert.equal(local.status, 201);
  });

  it('does not follow redirects', async () => {
    rx.behave((req, res) => {
      if (req.url === '/elsewhere') return void res.end('moved here');
      res.writeHead(302, { location: rx.url('/elsewhere') }).end();
    });
    await h.emit(team.id);
    await h.settle();
    assert.deepEqual(
      mine().map((r) => r.path),
      [hookPath],
    );
    const [logged] = await deliveries();
    assert.equal(logged.status, 'pending', 'a redirect is a failed attempt, retried later');
    assert.equal(logged.response_status, 302);
    assert.match(logged.last_error, /redirect/);
  });

  it('reads at most 4 KB of a 5 MB answer and keeps 1,024 characters', async () => {
    let sent = 0;
    let closedEarly = false;
    rx.behave(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(5 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.on('close', () => {
        closedEarly = !res.writableFinished;
      });
      while (sent < 5 * 1024 * 1024 && !res.destroyed) {
        res.write(chunk);
        sent += chunk.length;
        await new Promise((r) => setTimeout(r, 10));
      }
      res.end();
    });
    await h.emit(team.id);
    await h.settle();
    await new Promise((r) => setTimeout(r, 100));
    const [logged] = await deliveries();
    assert.equal(logged.status, 'succeeded');
    assert.equal(logged.response_body.length, 1024);
    assert.equal(logged.last_attempt_detail.response.body.length, 4096, 'the log shows the first 4 KB');
    assert.equal(closedEarly, true, 'the connection was dropped before the answer ended');
    assert.ok(sent < 1024 * 1024, `sent ${sent} bytes before the drop`);
  });

  it('logs what the last attempt sent and received (extension: last_attempt_detail)', async () => {
    rx.behave((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'x-receiver': 'dev box' });
      res.end(JSON.stringify({ error: 'database down', hint: 'x'.repeat(2000) }));
    });
    await h.emit(team.id);
    await h.settle();
    const [r] = mine();
    assert.ok(r);
    const [logged] = await deliveries();
    assert.equal(logged.status, 'pending', 'a 503 is retried');
    const detail = logged.last_attempt_detail;
    // The request exactly as the receiver got it: its headers (signature included) and its raw body.
    assert.equal(detail.request.body, r.rawBody);
    for (const name of [
      'content-type',
      'user-agent',
      'quire-signature',
      'quire-event-id',
      'quire-event-type',
    ])
      assert.equal(detail.request.headers[name], r.headers[name], name);
    assert.equal(JSON.stringify(detail).includes(endpoint.secret), false, 'the secret is never shown');
    assert.equal(detail.response.status, 503);
    assert.equal(detail.response.headers['x-receiver'], 'dev box');
    assert.equal(detail.response.headers['content-type'], 'application/json');
    assert.equal(JSON.parse(detail.response.body).error, 'database down', 'more than 1,024 characters kept');
    assert.equal(logged.response_body.length, 1024, 'the spec field keeps its 1,024 characters');

    // The receiver fixed, the scheduled retry is logged with the new answer.
    rx.behave(answer(200, 'thanks'));
    h.clock.advance(MINUTE);
    await h.settle();
    const [after] = await deliveries();
    assert.equal(after.status, 'succeeded');
    assert.equal(after.last_attempt_detail.response.status, 200);
    assert.equal(after.last_attempt_detail.response.body, 'thanks');
    assert.equal(after.last_attempt_detail.request.headers['quire-event-id'], r.headers['quire-event-id']);
  });

  it('logs the request but no response when the receiver cannot be reached', async () => {
    const closed = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.test,
      body: { url: 'http://127.0.0.1:1/nothing-listens', events: ['pdf.created'] },
    });
    assert.equal(closed.status, 201, closed.text);
    const sent = await api(h.base, 'POST', `/v1/webhooks/${closed.json.id}/test`, { key: team.test });
    assert.equal(sent.status, 202, sent.text);
    await h.settle();
    const list = await api(h.base, 'GET', `/v1/webhooks/${closed.json.id}/deliveries`, { key: team.test });
    const [failed] = list.json.data;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.last_error, 'connection refused');
    assert.equal(failed.last_attempt_detail.response, null);
    assert.match(failed.last_attempt_detail.request.headers['quire-signature'], /^t=\d+,v1=/);
  });

  it('pages the delivery log newest first and sweeps entries older than 30 days', async () => {
    for (let i = 0; i < 3; i += 1) {
      await h.emit(team.id);
      h.clock.advance(1_000);
    }
    await h.settle();
    const page1 = await api(h.base, 'GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=2`, {
      key: team.live,
    });
    assert.equal(page1.json.data.length, 2);
    assert.equal(page1.headers.get('cache-control'), 'no-store', 'entries carry signed document URLs');
    assert.ok(page1.json.next_before);
    const page2 = await api(
      h.base,
      'GET',
      `/v1/webhooks/${endpoint.id}/deliveries?limit=2&before=${page1.json.next_before}`,
      {
        key: team.live,
      },
    );
    assert.equal(page2.json.data.length, 1);
    assert.equal(page2.json.next_before, null);
    const ns = [...page1.json.data, ...page2.json.data].map(
      (d: { event: { data: { metadata: { n: number } } } }) => d.event.data.metadata.n,
    );
    assert.deepEqual(
      ns,
      [...ns].sort((a, b) => b - a),
    );
    h.clock.advance(30 * 24 * HOUR + MINUTE);
    await h.emit(team.id);
    await h.settle();
    const swept = await sweepDeliveryLog(h.built.services.db, h.clock);
    assert.ok(swept >= 3);
    const after = await deliveries();
    assert.equal(after.length, 1);
  });
});

describe('webhook delivery: the timeout', () => {
  let h: Harness;
  let rx: Receiver;
  let team: { id: string; live: string };
  let endpoint: { id: string };

  before(async () => {
    h = await startHarness({ webhookTimeoutMs: 2_000 });
    rx = await startReceiver();
    team = await h.team('growth');
    const made = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.live,
      body: { url: rx.url('/slow'), events: ['pdf.created'] },
    });
    assert.equal(made.status, 201, made.text);
    endpoint = { id: made.json.id };
  });
  after(async () => {
    await h.close();
    await rx.close();
  });

  it('gives up on a slow receiver at the timeout', async () => {
    rx.behave(
      (_req, res) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            res.end('late');
            resolve();
          }, 5_000);
          res.on('close', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    );
    await h.emit(team.id);
    await h.settle();
    const [logged] = (await api(h.base, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`, { key: team.live }))
      .json.data;
    assert.equal(logged.status, 'pending');
    assert.equal(logged.attempts, 1);
    assert.equal(logged.response_status, null);
    assert.match(logged.last_error, /timeout after 2000 ms/);
    assert.ok(logged.duration_ms >= 1_900 && logged.duration_ms < 5_000);
  });
});
