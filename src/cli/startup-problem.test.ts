import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../config/config.js';
import { reportStartupFailure, StartupProblem } from './startup-problem.js';

/** Two in-memory streams; `tty` makes stderr a terminal. */
function streams(tty: boolean) {
  const written = { out: '', err: '' };
  return {
    written,
    streams: {
      out: { write: (text: string) => (written.out += text) },
      err: { write: (text: string) => (written.err += text), isTTY: tty },
    },
  };
}

const busy = new StartupProblem('port_in_use', 'QUIRE_PORT: port 3000 on 0.0.0.0 is already in use.');

describe('reportStartupFailure (quire serve/worker that cannot start)', () => {
  it('without a terminal: one JSON record on stdout, nothing on stderr, exit 1', () => {
    const { written, streams: s } = streams(false);
    assert.equal(reportStartupFailure(busy, {}, s), 1);
    assert.equal(written.err, '');
    assert.ok(written.out.endsWith('\n') && written.out.split('\n').length === 2, written.out);
    const record = JSON.parse(written.out);
    assert.equal(record.level, 60);
    assert.equal(record.event, 'startup_failed');
    assert.equal(record.code, 'port_in_use');
    assert.equal(record.msg, 'Quire cannot start: QUIRE_PORT: port 3000 on 0.0.0.0 is already in use.');
  });

  it('on a terminal: the record on stdout and the readable line on stderr', () => {
    const { written, streams: s } = streams(true);
    reportStartupFailure(busy, {}, s);
    assert.equal(JSON.parse(written.out).code, 'port_in_use');
    assert.equal(written.err, 'Quire cannot start: QUIRE_PORT: port 3000 on 0.0.0.0 is already in use.\n');
  });

  it('with QUIRE_LOG_FORMAT=pretty: only the readable text, on stderr', () => {
    const { written, streams: s } = streams(false);
    const invalid = new ConfigError('Invalid configuration:\n  - QUIRE_PORT must be an integer, got "x"');
    assert.equal(reportStartupFailure(invalid, { QUIRE_LOG_FORMAT: 'pretty' }, s), 2);
    assert.equal(written.out, '');
    assert.equal(written.err, 'Invalid configuration:\n  - QUIRE_PORT must be an integer, got "x"\n');
  });

  it('a bug is reported with its stack inside the record, still one line', () => {
    const { written, streams: s } = streams(false);
    reportStartupFailure(new TypeError('boom'), {}, s);
    const record = JSON.parse(written.out);
    assert.equal(record.code, 'startup_failed');
    assert.equal(record.msg, 'Quire cannot start: TypeError: boom');
    assert.equal(record.err.type, 'TypeError');
    assert.match(record.err.stack, /startup-problem\.test/);
  });
});
