import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { api } from '../../helpers/server.js';
import { pdfText } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'quire.mjs');

/** A document whose script keeps the render busy for about 3 s. */
const BUSY_3S = '<script>const end = Date.now() + 3000; while (Date.now() < end) {}</script><p>finished</p>';

interface Served {
  child: ChildProcess;
  base: string;
  liveKey: string;
  exited: Promise<number | null>;
}

/** `quire serve` from source on a free port and a fresh data directory; resolves once it serves. */
async function serve(dataDir: string): Promise<Served> {
  const env = {
    ...process.env,
    QUIRE_DATA_DIR: dataDir,
    QUIRE_FROM_SOURCE: '1',
    QUIRE_PORT: '0',
    QUIRE_LOG_LEVEL: 'warn',
    QUIRE_WORKERS: '0',
  };
  const child = spawn(process.execPath, [bin, 'serve'], {
    env,
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving (http:\/\/[^\s]+)\/v1/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  const liveKey = /Live key: (qk_live_\w+)/.exec(output)?.[1];
  assert.ok(liveKey, output);
  return { child, base, liveKey, exited };
}

describe('quire serve on SIGTERM (issue 11 item 12)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-shutdown-'));
  let served: Served | undefined;
  after(() => {
    if (served?.child.exitCode === null) served.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the render in flight, answers it with the PDF, then exits 0', async () => {
    served = await serve(dataDir);
    const render = api(served.base, 'POST', '/v1/pdf', { key: served.liveKey, body: { html: BUSY_3S } });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the render is under way
    served.child.kill('SIGTERM');
    const response = await render;
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.match(await pdfText(response.buffer), /finished/);
    assert.equal(await served.exited, 0);
  });
});
