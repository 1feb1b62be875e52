import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { OWN_CHROMIUM } from '../../helpers/chromium.js';
import { pdfText } from '../../helpers/pdf.js';
import { job, startRenderer } from './helpers.js';

/** A process's command-line arguments. */
const argv = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

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
});
