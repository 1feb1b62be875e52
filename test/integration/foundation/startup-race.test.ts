import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { kill, SERVING, type Started, sqliteDataDir, startQuire } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';

/** Each round lines all four processes up at the migrations (below), so the race happens every round. */
const ROUNDS = 3;
/**
 * How often the test looks for processes that opened the database. Each look lists and reads every descriptor
 * of each waiting process; at 5 ms that loop alone cost more CPU than the four processes it watched. A process
 * that opens the file meanwhile only waits on the held lock, in sleeps SQLite counts against its 5 s timeout.
 */
const POLL_MS = 20;

/** Whether process `pid` has `file` open (Linux /proc; the product runs on Debian). */
function hasOpen(pid: number, file: string): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });
}

/**
 * Lines the processes up at the database. Module loading under tsx takes seconds and varies by command,
 * so processes spawned together would otherwise reach the migrations far apart and the race would rarely
 * show. The test holds SQLite's write lock on the (still table-less) database; each process is frozen
 * (SIGSTOP) as soon as it has the file open, which is before its first write can pass the lock. Once all
 * have arrived the lock is released and all are resumed at once. SQLite's busy timeout counts its own
 * sleeps, so the frozen time does not use it up.
 */
async function lineUpAtTheDatabase(file: string, processes: Started[]): Promise<void> {
  const holder = new SqliteDatabase(file);
  holder.pragma('journal_mode = WAL');
  holder.exec('begin immediate');
  const frozen: ChildProcess[] = [];
  try {
    const waiting = new Set(processes.map((p) => p.child));
    const deadline = Date.now() + 180_000;
    while (waiting.size > 0 && Date.now() < deadline) {
      for (const child of waiting) {
        if (child.exitCode !== null || child.signalCode !== null) waiting.delete(child);
        else if (child.pid !== undefined && hasOpen(child.pid, file)) {
          child.kill('SIGSTOP');
          frozen.push(child);
          waiting.delete(child);
        }
      }
      await sleep(POLL_MS);
    }
  } finally {
    holder.exec('commit');
    holder.close();
    for (const child of frozen) child.kill('SIGCONT');
  }
}

/**
 * On a fresh data directory every process ran the migrations, and all but one failed with
 * `table "teams" already exists`. All four commands are spawned in the same tick on an empty directory and
 * lined up so that they reach the migrations together.
 */
describe('serve, worker and two team create started at the same instant on an empty data directory', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: every process comes up and both teams can use their keys`, async () => {
      // SQLite's migration lock is what this test is about, whatever database the pass uses.
      const { dataDir, env, remove } = sqliteDataDir('quire-race-', {
        QUIRE_WORKERS: '0',
        QUIRE_RENDER_POOL_SIZE: '1',
      });
      const teamCreate = (name: string) =>
        startQuire(env, ['team', 'create', '--name', name, '--plan', 'growth', '--json'], /"live"/);
      const processes = [
        startQuire(env, ['serve'], SERVING),
        startQuire(env, ['worker'], /Quire worker running/),
        teamCreate('First'),
        teamCreate('Second'),
      ];
      const [serve, worker, first, second] = processes as [Started, Started, Started, Started];
      try {
        await lineUpAtTheDatabase(path.join(dataDir, 'quire.sqlite'), processes);
        const outcomes = await Promise.allSettled(processes.map((p) => p.ready));
        const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
        assert.deepEqual(failures, [], failures.join('\n\n'));
        assert.equal(await first.exit, 0, first.output());
        assert.equal(await second.exit, 0, second.output());

        const base = (await serve.ready)[1]!;
        for (const created of [first, second]) {
          const { keys } = JSON.parse(created.stdout()) as { keys: { live: string } };
          const me = await api(base, 'GET', '/v1/me', { key: keys.live });
          assert.equal(me.status, 200, me.text);
        }
        assert.equal(worker.child.exitCode, null, `the worker stopped: ${worker.output()}`);
      } finally {
        await Promise.all(processes.map(kill));
        remove();
      }
    });
  }
});
