import type { CDPSession, Page } from 'playwright-core';

/**
 * Quire's in-page code runs in an isolated world of the page (its own JS globals over the shared
 * DOM): the document's script cannot see or tamper with it, and the pool does not count it as
 * document script (src/render/pool-slot.ts watchScripts), so script-free documents keep the cheap
 * page reset. playwright's page.evaluate/addScriptTag would run in the document's main world.
 */
interface World {
  cdp: CDPSession;
  contextId: number;
}

const worlds = new WeakMap<Page, Promise<World>>();

async function createWorld(page: Page, cdp?: CDPSession): Promise<World> {
  const session = cdp ?? (await page.context().newCDPSession(page));
  const { frameTree } = await session.send('Page.getFrameTree');
  const { executionContextId } = await session.send('Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: 'quire-print',
  });
  return { cdp: session, contextId: executionContextId };
}

async function evaluateIn(world: World, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await world.cdp.send('Runtime.evaluate', {
    expression,
    contextId: world.contextId,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) {
    const detail = exceptionDetails.exception?.description ?? exceptionDetails.text;
    throw new Error(`print-mode in-page call failed: ${detail}`);
  }
  return result.value;
}

/** Evaluates an expression in the isolated world; a world lost to a navigation is made anew. */
export async function evaluateIsolated(page: Page, expression: string): Promise<unknown> {
  let pending = worlds.get(page);
  if (!pending) {
    pending = createWorld(page);
    worlds.set(page, pending);
  }
  const world = await pending;
  try {
    return await evaluateIn(world, expression);
  } catch (error) {
    if (!/context/i.test(String(error))) throw error;
    const fresh = createWorld(page, world.cdp);
    worlds.set(page, fresh);
    return evaluateIn(await fresh, expression);
  }
}

/**
 * Runs functions written in TypeScript inside the page. They are sent as their source text, so
 * they may call each other (all are declared in the script) but import nothing at run time. `__name`
 * is a no-op stand-in for the helper esbuild/tsx adds to keep function names.
 */
export async function runInPage<R>(
  page: Page,
  helpers: readonly ((...args: never[]) => unknown)[],
  entry: string,
  args: readonly unknown[],
): Promise<R> {
  const source = helpers.map((fn) => fn.toString()).join(';\n');
  const call = `${entry}(...${JSON.stringify(args)})`;
  const script = `(async () => { const __name = (f) => f; ${source};\n return await ${call}; })()`;
  return (await evaluateIsolated(page, script)) as R;
}
