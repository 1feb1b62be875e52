import type { InPage } from '../types.js';

/** Appends a style sheet to the document's head from Quire's isolated world (never the document's own). */
export async function addStyle(page: InPage, css: string): Promise<void> {
  const expression = `(() => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(css)}; document.head.append(s); return true; })()`;
  await page.evaluate(expression);
}
