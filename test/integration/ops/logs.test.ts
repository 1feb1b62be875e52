import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  OWN_CHROMIUM,
  SERVING,
  type Started,
  sqliteDataDir,
  startQuire,
  terminate,
} from '../../helpers/quire-process.js';

/**
 * A log collector reading a container's output gets JSON only. A real `quire serve` (SQLite,
 * Chromium) at the production log level answers a few requests and is stopped with SIGTERM; every line it
 * wrote, on stdout and on stderr (no terminal here), must parse as JSON, with one line per request.
 */
describe('log lines', () => {
  const { env, remove } = sqliteDataDir('quire-logs-', {
    QUIRE_LOG_LEVEL: 'info',
    QUIRE_WORKERS: '1',
    // Chromium's start-up lines are among those that must be JSON.
    ...OWN_CHROMIUM,
  });
  after(remove);

  /** Starts the server, runs `use` against it, then stops it with SIGTERM and waits for its output to end. */
  async function served(
    extra: Record<string, string>,
    use: (base: string, started: Started) => Promise<void>,
  ) {
    const started = startQuire({ ...env, ...extra }, ['serve'], SERVING);
    try {
      const base = (await started.ready)[1] as string;
      await use(base, started);
    } finally {
      await terminate(started);
      await started.closed;
    }
    return started;
  }

  const request = async (base: string, method: string, url: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${url}`, { method, ...init });
    await res.arrayBuffer();
    return { status: res.status, id: res.headers.get('x-request-id') ?? '' };
  };

  function jsonLines(text: string, stream: string): Record<string, unknown>[] {
    const lines = text.split('\n').filter((line) => line !== '');
    return lines.map((line) => {
      assert.doesNotThrow(() => JSON.parse(line), `a ${stream} line that is not JSON: ${line}`);
      return JSON.parse(line) as Record<string, unknown>;
    });
  }

  it('QUIRE_LOG_FORMAT=json (the default): every stdout and stderr line is JSON, one line per request', async () => {
    const sent: { status: number; id: string; url: string }[] = [];
    const started = await served({}, async (base, process) => {
      const key = /"live_key":"(qk_live_\w+)"/.exec(process.stderr())?.[1];
      assert.ok(key, `the default team's keys as a JSON event on stderr: ${process.output()}`);
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const calls: [string, string, RequestInit?][] = [
        ['POST', '/v1/pdf', { headers: auth, body: JSON.stringify({ html: '<h1>Logged</h1>' }) }],
        ['POST', '/v1/pdf', { headers: auth, body: JSON.stringify({ html: 42 }) }],
        ['GET', '/v1/me', { headers: { authorization: 'Bearer qk_live_wrong' } }],
        ['GET', '/v1/nowhere?token=secret-query'],
        ['GET', '/healthz'],
      ];
      for (const [method, url, init] of calls)
        sent.push({ ...(await request(base, method, url, init)), url });
    });
    assert.deepEqual(
      sent.map((s) => s.status),
      [200, 400, 401, 404, 200],
    );

    const stdout = jsonLines(started.stdout(), 'stdout');
    const stderr = jsonLines(started.stderr(), 'stderr');
    for (const record of [...stdout, ...stderr]) {
      assert.equal(typeof record.level, 'number', JSON.stringify(record));
      assert.equal(typeof record.time, 'number', JSON.stringify(record));
      assert.equal(typeof record.msg, 'string', JSON.stringify(record));
    }
    // The start-up announcements are events on stderr; the log stream holds none of them.
    const events = stderr.map((r) => r.event);
    assert.ok(events.includes('default_team_created') && events.includes('serving'), JSON.stringify(events));
    assert.ok(events.includes('owner_sign_in_link'));
    assert.ok(!started.stdout().includes('qk_live_'), 'keys never reach the log stream');

    // One line per request, with its status and time, under the id the response carried.
    for (const { id, status, url } of sent.slice(0, 4)) {
      const lines = stdout.filter((r) => r.reqId === id);
      assert.equal(lines.length, 1, `${url}: ${JSON.stringify(lines)}`);
      const [line] = lines as [Record<string, unknown>];
      assert.equal(line.msg, 'request completed');
      assert.equal(line.status, status);
      assert.equal(line.url, url.split('?')[0], 'no query string (signed-link tokens) in the log');
      assert.ok(typeof line.ms === 'number' && line.ms >= 0);
    }
    const probe = sent[4] as { id: string };
    assert.equal(stdout.filter((r) => r.reqId === probe.id).length, 0, 'probes log at debug');
    assert.ok(!started.stdout().includes('secret-query'));
    // The drain on SIGTERM logs JSON too.
    assert.ok(stdout.some((r) => String(r.msg).startsWith('shutting down')));
  });

  it('QUIRE_LOG_FORMAT=pretty: readable lines, and the announcements as text', async () => {
    const started = await served({ QUIRE_LOG_FORMAT: 'pretty' }, async (base) => {
      await request(base, 'GET', '/v1/me');
    });
    assert.match(
      started.stdout(),
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request completed reqId=req_\w+ method=GET url=\/v1\/me status=401 ms=[\d.]+$/m,
    );
    assert.match(started.stderr(), /^Quire is serving http:\/\/127\.0\.0\.1:\d+\/v1 \(API docs: /m);
    assert.doesNotMatch(started.stdout(), /^\{/m);
  });
});
