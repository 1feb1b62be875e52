import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { InPage } from '../types.js';
import { registerRepeatedTableHeaders } from './in-page/repeat-table-headers.js';

let cachedSource: string | undefined;

/** Paged.js 0.4.3's polyfill from node_modules, read once; it is injected locally, never fetched. */
function polyfillSource(): string {
  if (cachedSource === undefined) {
    const entry = createRequire(import.meta.url).resolve('pagedjs');
    const root = dirname(dirname(entry));
    cachedSource = readFileSync(join(root, 'dist', 'paged.polyfill.min.js'), 'utf8');
  }
  return cachedSource;
}

/**
 * Lays the loaded document out into `.pagedjs_page` boxes. `auto: false` so the layout starts only
 * after fonts and images were awaited by the pipeline; Paged.js does not repeat `<thead>` on
 * continuation pages, so a handler does (Chromium's own print path does too).
 */
export async function layOutWithPolyfill(page: InPage): Promise<void> {
  // Sending the 500 KB library costs its transfer and a V8 pre-parse even when the guard below skips
  // it: it is sent only to a world that has not got it yet.
  if ((await page.evaluate('Boolean(window.Paged)')) !== true)
    await page.evaluate(`${loadPolyfillOnce()}\ntrue`);
  // Paged.js wraps the body into a template before it reads style sheets, so styles written in the
  // body (every HTML fragment) would be skipped: move them to the head end, keeping their order.
  const moveStyles =
    "for (const s of document.body.querySelectorAll('style, link[rel=stylesheet]')) document.head.append(s);";
  await page.evaluate(
    `${moveStyles}\n(window.PagedPolyfill = new window.Paged.Previewer()).preview().then(() => true)`,
  );
}

let cachedLoader: string | undefined;

/**
 * Parsing the 500 KB polyfill took about half of a polyfill document's time. Quire's isolated world
 * outlives the documents written into its page (document.open keeps the Window), so the library is
 * evaluated once per world and only a new Previewer is made per document (its chunker, polisher and
 * handlers start empty). The handler is registered with the library once, like the library itself.
 */
function loadPolyfillOnce(): string {
  if (cachedLoader === undefined) {
    // `__name`: the helper esbuild/tsx adds to keep function names, absent in the page.
    const setup = 'window.PagedConfig = { auto: false }; var __name = (f) => f;';
    const handler = `(${registerRepeatedTableHeaders.toString()})();`;
    cachedLoader = `if (!window.Paged) {\n${setup}\n${polyfillSource()}\n;${handler}\n}`;
  }
  return cachedLoader;
}
