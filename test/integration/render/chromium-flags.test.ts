import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { OWN_CHROMIUM } from '../../helpers/chromium.js';
import { pdfText } from '../../helpers/pdf.js';
import { job, startRenderer } from './helpers.js';

/** A process's command-line arguments. */
const argv = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/** The processes whose parent is `pid`, and theirs. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the table was read.
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, of] of parents)
      if (of === parent) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
}

describe("Chromium's command line, as launched", () => {
  let renderer: Renderer;
  let pid = 0;
  before(async () => {
    renderer = await startRenderer({ ...OWN_CHROMIUM });
    assert.match(await pdfText((await renderer.render(job('<p>one page</p>'))).pdf), /one page/);
    pid = (await renderer.stats())?.browserPid ?? 0;
    assert.ok(pid > 0, 'the renderer reports its browser pid');
  });
  after(() => renderer.close());

  it('keeps every feature playwright switches off: Chromium reads only the last --disable-features', () => {
    const lists = argv(pid)
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','));
    assert.ok(lists.length >= 1);
    const applied = new Set(lists.at(-1));
    const lost = lists.flat().filter((name) => !applied.has(name));
    assert.deepEqual(lost, [], `add these to DISABLED_FEATURES in src/render/browser-supervisor.ts: ${lost}`);
    assert.ok(applied.has('WebUIOmniboxPopup') && applied.has('WebUIOmniboxAimPopup'));
  });

  it('makes no WebUI renderer for the pool page (the omnibox popups cost two processes per page)', () => {
    const webUi = descendants(pid).filter((child) => {
      try {
        return argv(child).includes('--top-chrome-webui');
      } catch {
        return false;
      }
    });
    assert.deepEqual(webUi, []);
  });
});
