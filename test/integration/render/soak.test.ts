import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { OWN_CHROMIUM } from '../../helpers/chromium.js';
import { job, startRenderer } from './helpers.js';

/** The soak is 1,000 renders; CI runs a short version (QUIRE_SOAK_RENDERS=1000 for the long one). */
const RENDERS = Number(process.env.QUIRE_SOAK_RENDERS ?? 100);
/** Recycling often exercises page/context replacement during the soak as well. */
const RECYCLE_AFTER = 25;
/** Descriptors that may come and go between two quiet moments (timers, pipes, keep-alive sockets). */
const FD_SLACK = 8;
/**
 * Chromium's own count moves with how many renderer and utility processes it keeps alive (each holds
 * a few pipes and shared-memory handles in the browser process), so it swings by a dozen on a busy
 * machine. A leak of one descriptor per render would add RENDERS; this slack is a fraction of that.
 */
const CHROMIUM_FD_SLACK = Math.max(16, Math.floor(RENDERS / 5));
/** How long a snapshot watches the counts for their quiet minimum (processes wind down after a page closes). */
const QUIET_WINDOW_MS = 3_000;

const docs = [
  '<p>plain invoice-like text</p><table><tr><td>1</td><td>2.00</td></tr></table>',
  '<script>window.__state = new Array(1000).fill("x"); document.write("<p>scripted</p>")</script>',
  '<img src="http://10.0.0.1/blocked.png"><p>blocked image</p>',
  '<iframe srcdoc="<p>frame</p>"></iframe><p>srcdoc frame</p>',
];

function fdCount(pid: number | 'self'): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

let renderer: Renderer;
before(async () => {
  renderer = await startRenderer({ ...OWN_CHROMIUM, renderPoolSize: 2, pageRecycleAfter: RECYCLE_AFTER });
});
after(() => renderer.close());

/** The lowest count seen over the quiet window: a descriptor still being closed is not a leak. */
async function quietMinimum(count: () => number): Promise<number> {
  let lowest = count();
  const end = Date.now() + QUIET_WINDOW_MS;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    lowest = Math.min(lowest, count());
  }
  return lowest;
}

async function snapshot() {
  await renderer.settled();
  const stats = renderer.stats();
  const browserPid = stats.browserPid;
  assert.ok(browserPid);
  return {
    pages: stats.pages,
    contexts: stats.contexts,
    fds: await quietMinimum(() => fdCount('self')),
    browserFds: await quietMinimum(() => fdCount(browserPid)),
  };
}

it(`${RENDERS} sequential renders leave no pages, contexts or file descriptors behind`, {
  timeout: 600_000,
}, async (t) => {
  // Warm-up past the first page replacement: Chromium opens a few descriptors once, on the first one.
  for (let i = 0; i < RECYCLE_AFTER + 5; i++) await renderer.render(job(docs[i % docs.length] ?? ''));
  const start = await snapshot();
  assert.deepEqual([start.pages, start.contexts], [2, 2]);
  for (let i = 0; i < RENDERS; i++) {
    const result = await renderer.render(job(docs[i % docs.length] ?? ''));
    assert.equal(result.pages, 1);
  }
  const end = await snapshot();
  t.diagnostic(`before ${JSON.stringify(start)}, after ${JSON.stringify(end)}`);
  assert.deepEqual([end.pages, end.contexts], [2, 2], 'pages or contexts leaked');
  assert.ok(end.fds <= start.fds + FD_SLACK, `Node descriptors grew from ${start.fds} to ${end.fds}`);
  assert.ok(
    end.browserFds <= start.browserFds + CHROMIUM_FD_SLACK,
    `Chromium descriptors grew from ${start.browserFds} to ${end.browserFds}`,
  );
});
