import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Another process (the CLI, a worker) writing to the same SQLite file in a loop: each write holds the lock for a
 * few milliseconds and commits, so the server's snapshots keep going stale — what made deferred transactions
 * fail at once with SQLITE_BUSY_SNAPSHOT instead of waiting out the busy timeout.
 */
const WRITER = `
const { existsSync } = require('node:fs');
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('busy_timeout = 5000');
const touch = db.prepare("update teams set name = name");
let writes = 0;
while (!existsSync(process.argv[2])) {
  db.exec('begin immediate');
  touch.run();
  const hold = Date.now() + 3;
  while (Date.now() < hold) {}
  db.exec('commit');
  writes++;
  const pause = Date.now() + 2;
  while (Date.now() < pause) {}
}
process.stdout.write(String(writes));
`;

/** Writes until `stopFile` exists; resolves with the number of committed writes. */
function startWriter(file: string, stopFile: string): { child: ChildProcess; writes: Promise<number> } {
  const child = spawn(process.execPath, ['-e', WRITER, file, stopFile], { cwd: root });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const writes = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`writer: ${err}`))));
  });
  return { child, writes };
}

describe('the embedded database while another process writes', {
  skip: !!process.env.QUIRE_TEST_DATABASE_URL,
}, () => {
  let server: TestServer;
  let live: string;

  before(async () => {
    server = await startTestServer();
    ({ live } = await server.team());
  });
  after(async () => {
    await server?.close();
  });

  it('answers every render (concurrency 2) without a 5xx', async () => {
    const file = path.join(server.config.dataDir, 'quire.sqlite');
    const stopFile = path.join(server.config.dataDir, 'stop-writer');
    const writer = startWriter(file, stopFile);
    try {
      const statuses: number[] = [];
      const failures: string[] = [];
      const renderLoop = async (lane: number) => {
        for (let i = 0; i < 20; i++) {
          const res = await api(server.base, 'POST', '/v1/pdf', {
            key: live,
            body: { html: `<p>lane ${lane} render ${i}</p>`, response: i % 2 === 0 ? 'url' : 'binary' },
          });
          statuses.push(res.status);
          if (res.status >= 500) failures.push(`${res.status} ${res.text}`);
        }
      };
      await Promise.all([renderLoop(1), renderLoop(2)]);
      assert.deepEqual(failures, []);
      assert.equal(statuses.length, 40);
      assert.deepEqual(
        statuses.filter((s) => s !== 200),
        [],
      );
    } finally {
      writeFileSync(stopFile, '');
    }
    // The other process really wrote throughout (a few hundred commits), so the renders met its locks.
    assert.ok((await writer.writes) > 50);
  });
});
