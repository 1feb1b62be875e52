import type { Page } from 'playwright-core';
import { evaluateIsolated } from './in-page/run.js';

/** Appends a style sheet to the document's head from the isolated world (page.addStyleTag runs in the main world). */
export async function addStyle(page: Page, css: string): Promise<void> {
  const expression = `(() => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(css)}; document.head.append(s); return true; })()`;
  await evaluateIsolated(page, expression);
}
