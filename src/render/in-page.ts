import type { PoolSlot } from './pool-slot.js';
import type { InPage } from './types.js';

/**
 * Quire's own in-page code runs in one isolated world per document (never visible to the document,
 * and not counted as document script by the pool, so script-free documents keep the cheap reset).
 * playwright's page.evaluate/addScriptTag would run in the document's main world.
 */
async function isolatedWorld(slot: PoolSlot): Promise<number> {
  slot.world ??= (
    await slot.cdp.send('Page.createIsolatedWorld', { frameId: slot.frameId, worldName: 'quire' })
  ).executionContextId;
  return slot.world;
}

type Evaluation = {
  result: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
};

/**
 * Runs one CDP evaluation in the world; a world that no longer exists (its document was replaced) is
 * made anew once. "Cannot find context" is answered before anything ran, so the retry runs it once.
 */
async function inWorld(slot: PoolSlot, send: (world: number) => Promise<Evaluation>): Promise<unknown> {
  let answer: Evaluation;
  try {
    answer = await send(await isolatedWorld(slot));
  } catch (err) {
    if (!/Cannot find context/i.test(String(err))) throw err;
    slot.world = null;
    answer = await send(await isolatedWorld(slot));
  }
  const { result, exceptionDetails } = answer;
  if (exceptionDetails) {
    const detail = exceptionDetails.exception?.description ?? exceptionDetails.text;
    throw new Error(`in-page call failed: ${detail}`);
  }
  return result.value;
}

/** Calls Quire's own function in the isolated world with JSON arguments; returns its awaited JSON result. */
export function callIsolated(slot: PoolSlot, fn: string, ...args: unknown[]): Promise<unknown> {
  return inWorld(slot, (world) =>
    slot.cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: fn,
      executionContextId: world,
      arguments: args.map((value) => ({ value })),
      awaitPromise: true,
      returnByValue: true,
    }),
  );
}

/** Evaluates a script (which may declare globals of the world, as the Paged.js polyfill does). */
export function evaluateIsolated(slot: PoolSlot, expression: string): Promise<unknown> {
  return inWorld(slot, (world) =>
    slot.cdp.send('Runtime.evaluate', {
      expression,
      contextId: world,
      awaitPromise: true,
      returnByValue: true,
    }),
  );
}

/**
 * Whether caller code (`wait_for.expression`) is truthy, evaluated in the document's main world, where the
 * page's own globals live, as Puppeteer's waitForFunction and Gotenberg's waitForExpression do. Quire's
 * isolated world stays out of the caller's reach; the code counts as document script, so the page gets the
 * full reset (a fresh Window and, with it, a fresh isolated world) before any other document uses it.
 * Judged from the remote value, so an expression whose value cannot be copied out (a node, `window`) is
 * still truthy.
 */
export async function documentExpressionTruthy(slot: PoolSlot, expression: string): Promise<boolean> {
  slot.scriptRan = true;
  const { result, exceptionDetails } = (await slot.cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    silent: true,
  })) as { result: RemoteValue; exceptionDetails?: Evaluation['exceptionDetails'] };
  if (exceptionDetails) {
    const detail = exceptionDetails.exception?.description ?? exceptionDetails.text;
    throw new Error(`in-page call failed: ${detail}`);
  }
  return truthy(result);
}

/** The parts of a CDP RemoteObject that decide JavaScript truthiness. */
interface RemoteValue {
  type: string;
  subtype?: string;
  value?: unknown;
  unserializableValue?: string;
}

function truthy(remote: RemoteValue): boolean {
  switch (remote.type) {
    case 'undefined':
      return false;
    case 'object':
      return remote.subtype !== 'null';
    case 'number':
    case 'bigint':
      // NaN, -0 and 0n come as unserializableValue; Infinity and big integers are truthy.
      if (remote.unserializableValue !== undefined)
        return !['NaN', '-0', '0n'].includes(remote.unserializableValue);
      return Boolean(remote.value);
    default:
      return remote.value === undefined ? true : Boolean(remote.value);
  }
}

/** The mode strategies' view of a pool page (types.ts InPage); emulation is undone by the reset. */
export function inPagePort(slot: PoolSlot): InPage {
  return {
    evaluate: (expression) => evaluateIsolated(slot, expression),
    emulatePrintMedia: async () => {
      slot.emulated = true;
      await slot.page.emulateMedia({ media: 'print' });
    },
    setViewport: async (size) => {
      slot.emulated = true;
      await slot.page.setViewportSize(size);
    },
  };
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

/**
 * Replaces the document by an empty one: its nodes, listeners and animations are gone. `window.name`
 * belongs to the tab, not the document, and survives both this and a navigation: it is cleared too.
 */
export async function blankDocument(slot: PoolSlot): Promise<void> {
  await callIsolated(slot, CLEAR_DOCUMENT);
}

/** Clears what a navigation to about:blank keeps of the previous document's Window (window.name). */
export async function clearWindowName(slot: PoolSlot): Promise<void> {
  await callIsolated(slot, "function () { window.name = ''; }");
}

const CLEAR_DOCUMENT = "function () { document.open(); document.close(); window.name = ''; }";
