import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../src/config/config.js';
import { Renderer, type RenderLogger } from '../../../src/render/index.js';

/** A logger that keeps every entry (object and message) it is given. */
function capturingLogger(): RenderLogger & { entries: Array<{ msg?: string; obj: object }> } {
  const entries: Array<{ msg?: string; obj: object }> = [];
  const keep = (obj: object, msg?: string) => void entries.push({ obj, msg });
  return { entries, info: keep, warn: keep, error: keep };
}

describe('render engine log lines', () => {
  // pino adds the service's own `pid` to every line: a second `pid` key would make it ambiguous.
  it("log Chromium's pid as chromium_pid, never as a second pid", async () => {
    const log = capturingLogger();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'quire-render-'));
    const renderer = await Renderer.start(loadConfig({}, { dataDir, renderPoolSize: 1 }), log);
    try {
      const started = log.entries.find((e) => e.msg === 'chromium started');
      assert.ok(started, JSON.stringify(log.entries));
      assert.equal((started.obj as { chromium_pid?: number }).chromium_pid, renderer.stats().browserPid);
      assert.ok(
        log.entries.every((e) => !('pid' in e.obj)),
        JSON.stringify(log.entries),
      );
    } finally {
      await renderer.close();
    }
  });
});
