import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../src/render/browser-supervisor.js';
import { treeCpuMs } from './proc.js';

/** Contexts made per launch: the pool's pages are made one at a time, like these. */
const PAGES_PER_LAUNCH = 4;

export interface PageCostFigures {
  /** Median Chromium CPU for one new page (its context, the page, one small PDF), Quire's launch flags. */
  quireMs: number;
  /** The same without Quire's --disable-features switch (playwright's own list applies, as before). */
  withoutMs: number;
  rounds: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Chromium's CPU per new page, contexts kept open so no process's CPU leaves the tree before it is read. */
async function cpuPerPage(chromiumPath: string, args: string[]): Promise<number> {
  const server = await chromium.launchServer({ executablePath: chromiumPath, args });
  const pid = server.process().pid ?? 0;
  let browser: Browser | null = null;
  try {
    browser = await chromium.connect(server.wsEndpoint());
    const before = treeCpuMs(pid);
    for (let i = 0; i < PAGES_PER_LAUNCH; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.setContent('<p>page</p>');
      await page.pdf();
    }
    // Processes a context starts late (WebUI pages) have started and settled by now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return (treeCpuMs(pid) - before) / PAGES_PER_LAUNCH;
  } finally {
    await browser?.close();
    await server.close();
  }
}

/**
 * The `pages` section: what one new pool page costs Chromium with Quire's flags against the same flags without
 * the features it switches off (Chromium 156's omnibox popups, two WebUI renderer processes per context),
 * launches alternating so both see the same machine.
 */
export async function pageCost(chromiumPath: string, rounds: number): Promise<PageCostFigures> {
  const without = CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--disable-features='));
  const quire: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < rounds; round++) {
    quire.push(await cpuPerPage(chromiumPath, [...CHROMIUM_ARGS, '--no-sandbox']));
    plain.push(await cpuPerPage(chromiumPath, [...without, '--no-sandbox']));
  }
  return { quireMs: median(quire), withoutMs: median(plain), rounds };
}

export function pageCostReport(figures: PageCostFigures): string[] {
  return [
    '## A new pool page (browser context, page, one small PDF): Chromium CPU',
    '',
    '| launch flags | Chromium CPU per page (median) |',
    '|---|---|',
    `| Quire's (omnibox WebUI switched off) | ${figures.quireMs.toFixed(0)} ms |`,
    `| without that switch | ${figures.withoutMs.toFixed(0)} ms |`,
    '',
    `Ratio ${(figures.withoutMs / Math.max(figures.quireMs, 1)).toFixed(2)}× over ${figures.rounds} alternating launches of ${PAGES_PER_LAUNCH} pages each.`,
  ];
}
