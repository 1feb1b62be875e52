import type { PoolSlot } from './pool-slot.js';

/**
 * Calls Quire's own function in an isolated world of the page (never visible to the document, and
 * not counted as document script), with JSON arguments; returns its (awaited) JSON result.
 */
export async function callIsolated(slot: PoolSlot, fn: string, ...args: unknown[]): Promise<unknown> {
  slot.world ??= (
    await slot.cdp.send('Page.createIsolatedWorld', { frameId: slot.frameId, worldName: 'quire' })
  ).executionContextId;
  const { result, exceptionDetails } = await slot.cdp.send('Runtime.callFunctionOn', {
    functionDeclaration: fn,
    executionContextId: slot.world,
    arguments: args.map((value) => ({ value })),
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`in-page call failed: ${exceptionDetails.text}`);
  return result.value;
}

/**
 * Runs in Quire's isolated world: writes the document into the page (what playwright's setContent
 * does, minus its navigation tracking, which hangs when a document's script starts a navigation that
 * the guard then refuses), waits for the load event and for frames still about to load, makes lazy images eager (nobody scrolls this
 * page), then waits for web fonts and every image, so the PDF shows what the document asked for.
 * A string, not a function: it must not depend on how this file was compiled.
 */
const LOAD_DOCUMENT = `function (html) {
  document.open();
  document.write(html);
  document.close();
  const loaded = new Promise((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  // A frame whose navigation has not started yet did not delay the load event: wait for it too.
  const framesStarting = () => Array.from(document.querySelectorAll('iframe, frame'))
    .filter((f) => {
      try {
        return /^https?:/.test(f.src) && f.contentWindow.location.href === 'about:blank';
      } catch (e) {
        return false; // cross-origin: already navigated, so it delayed the load event
      }
    })
    .map((f) => new Promise((resolve) => f.addEventListener('load', resolve, { once: true })));
  return loaded.then(() => Promise.all(framesStarting())).then(() => {
    const images = Array.from(document.images);
    for (const img of images) if (img.loading === 'lazy') img.loading = 'eager';
    const pending = images.filter((img) => !img.complete).map((img) => new Promise((resolve) => {
      img.addEventListener('load', resolve, { once: true });
      img.addEventListener('error', resolve, { once: true });
    }));
    return Promise.all([document.fonts.ready, ...pending]);
  }).then(() => true);
}`;

/** Loads a document into the page and waits for its load event, fonts and images. */
export async function loadDocument(slot: PoolSlot, html: string): Promise<void> {
  await callIsolated(slot, LOAD_DOCUMENT, html);
}

/** Replaces the document by an empty one: its nodes, listeners and animations are gone. */
export async function blankDocument(slot: PoolSlot): Promise<void> {
  await callIsolated(slot, 'function () { document.open(); document.close(); }');
}
