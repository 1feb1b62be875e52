import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeferredLogger, type RenderLogger } from './logger.js';

function recorder(): { lines: string[]; log: RenderLogger } {
  const lines: string[] = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    lines.push(`${level} ${JSON.stringify(obj)} ${msg}`);
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('DeferredLogger', () => {
  it('holds lines until a logger is attached, then writes them there in order, and later lines at once', () => {
    const deferred = new DeferredLogger();
    deferred.info({ chromium_pid: 1 }, 'chromium started');
    deferred.error({ attempt: 0 }, 'chromium relaunch failed');
    const { lines, log } = recorder();
    assert.deepEqual(lines, []);
    deferred.attach(log);
    deferred.warn({}, 'later');
    assert.deepEqual(lines, [
      'info {"chromium_pid":1} chromium started',
      'error {"attempt":0} chromium relaunch failed',
      'warn {} later',
    ]);
  });
});
