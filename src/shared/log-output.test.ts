import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAnnouncer, logDestination, logProcessWarnings, prettyLine } from './log-output.js';

function sink(isTTY?: boolean) {
  const out = { text: '', isTTY, write: (t: string) => (out.text += t) };
  return out;
}

describe('start-up announcements', () => {
  const lines = ['', 'Created the default team.', '  Live key: qk_live_abc', ''];

  it('are one JSON record on a stream that is not a terminal, with the facts as fields', () => {
    const err = sink(false);
    createAnnouncer('json', err)('default_team_created', lines, { live_key: 'qk_live_abc' });
    const written = err.text.split('\n').filter(Boolean);
    assert.equal(written.length, 1);
    const record = JSON.parse(written[0] ?? '');
    assert.equal(record.event, 'default_team_created');
    assert.equal(record.live_key, 'qk_live_abc');
    assert.equal(record.level, 30);
    assert.equal(record.msg, 'Created the default team. Live key: qk_live_abc');
  });

  it('are the text lines on a terminal, or with QUIRE_LOG_FORMAT=pretty', () => {
    for (const [format, isTTY] of [
      ['json', true],
      ['pretty', false],
    ] as const) {
      const err = sink(isTTY);
      createAnnouncer(format, err)('default_team_created', lines, { live_key: 'qk_live_abc' });
      assert.equal(err.text, '\nCreated the default team.\n  Live key: qk_live_abc\n\n');
    }
  });
});

describe('QUIRE_LOG_FORMAT', () => {
  it('json keeps pino’s own destination (stdout)', () => {
    assert.equal(logDestination('json'), undefined);
  });

  it('pretty writes one readable line per record, the fields after the message', () => {
    const out = sink();
    const record = { level: 30, time: Date.UTC(2026, 10, 26, 17, 29, 41, 210), pid: 1, hostname: 'h' };
    logDestination('pretty', out)?.write(
      `${JSON.stringify({ ...record, reqId: 'req_1', status: 401, msg: 'request completed' })}\n`,
    );
    assert.equal(out.text, '17:29:41.210 INFO  request completed reqId=req_1 status=401\n');
  });

  it('pretty prints an error’s stack under its line, and passes anything not JSON through', () => {
    const line = prettyLine(
      JSON.stringify({ level: 50, time: 0, msg: 'failed', err: { stack: 'Error: x\n  at y' } }),
    );
    assert.equal(line, '00:00:00.000 ERROR failed\n    Error: x\n      at y\n');
    assert.equal(prettyLine('not json'), 'not json\n');
  });
});

describe('process warnings', () => {
  it('become log records instead of plain-text lines on stderr', async () => {
    const logged: { fields: object; msg: string }[] = [];
    logProcessWarnings({ warn: (fields, msg) => logged.push({ fields, msg }) });
    const stderr: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => stderr.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      process.emitWarning('something is deprecated', { type: 'DeprecationWarning', code: 'DEP0999' });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(logged, [
      { fields: { warning: 'DeprecationWarning', code: 'DEP0999' }, msg: 'something is deprecated' },
    ]);
    assert.deepEqual(stderr, []);
  });
});
