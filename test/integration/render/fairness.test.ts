import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { waitUntil } from '../../helpers/wait.js';
import { job, startRenderer } from './helpers.js';

// One page, so every render after the first waits for it.
let renderer: Renderer;

before(async () => {
  renderer = await startRenderer({ renderPoolSize: 1, renderTimeoutMs: 10_000 });
});
after(async () => {
  await renderer.close();
});

/** A document whose script keeps its page busy for a while. */
const slow = (label: string) =>
  `<script>const t = Date.now(); while (Date.now() - t < 400) {}</script><p>${label}</p>`;

describe('pool pages are shared fairly between tenants', () => {
  it("team B's single render gets the next free page, not the one after all of team A's", async () => {
    const finished: string[] = [];
    const render = (tenant: string, label: string) =>
      renderer.render(job(slow(label), {}, { tenant })).then(() => finished.push(label));
    const teamA = ['A1', 'A2', 'A3', 'A4', 'A5'].map((label) => render('team-a', label));
    await waitUntil('A1 to render and A2–A5 to wait', () => renderer.stats().queued === 4);
    const teamB = render('team-b', 'B1');
    await Promise.all([...teamA, teamB]);
    assert.deepEqual(finished.slice(0, 2), ['A1', 'B1'], `finish order: ${finished.join(' ')}`);
    assert.deepEqual(finished.slice(2), ['A2', 'A3', 'A4', 'A5'], 'team A keeps its own order');
  });
});
