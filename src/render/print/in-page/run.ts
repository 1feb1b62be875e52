import type { InPage } from '../../types.js';

type InPageFunction = (...args: never[]) => unknown;

/** What the world answers: the entry's result, or that the world has not got the entry yet. */
type Answer<R> = { value: R } | { missing: true };

/** The world's table of installed entries (a global of Quire's isolated world only). */
const TABLE = 'globalThis.__quireInPage';

const keys = new WeakMap<readonly InPageFunction[], { key: string; source: string }>();

/** A key naming the exact source of the helpers, so a changed helper list is installed anew. */
function bundleOf(helpers: readonly InPageFunction[], entry: string): { key: string; source: string } {
  let bundle = keys.get(helpers);
  if (bundle === undefined) {
    const source = helpers.map((fn) => fn.toString()).join(';\n');
    let hash = 5381;
    for (let i = 0; i < source.length; i++) hash = (hash * 33) ^ source.charCodeAt(i);
    bundle = { key: `${entry}:${(hash >>> 0).toString(36)}:${source.length}`, source };
    keys.set(helpers, bundle);
  }
  return bundle;
}

/**
 * Runs functions written in TypeScript inside the page, in Quire's isolated world (InPage). They are
 * sent as their source text, so they may call each other (all are declared in the same scope) but
 * import nothing at run time. The source is sent and parsed once per world (the world outlives the
 * documents written into the page); later calls send only the entry's key and arguments. `__name` is
 * a no-op stand-in for the helper esbuild/tsx adds to keep function names.
 */
export async function runInPage<R>(
  page: InPage,
  helpers: readonly InPageFunction[],
  entry: string,
  args: readonly unknown[],
): Promise<R> {
  const { key, source } = bundleOf(helpers, entry);
  const found = `${TABLE}?.[${JSON.stringify(key)}]`;
  const call = (fn: string) => `(async () => ({ value: await ${fn}(...${JSON.stringify(args)}) }))()`;
  const answer = (await page.evaluate(`${found} ? ${call(found)} : ({ missing: true })`)) as Answer<R>;
  if ('value' in answer) return answer.value;
  const install =
    `(${TABLE} ??= {})[${JSON.stringify(key)}] = (() => { const __name = (f) => f; ${source};\n` +
    `return ${entry}; })()`;
  const installed = (await page.evaluate(`${call(`(${install})`)}`)) as Answer<R>;
  return (installed as { value: R }).value;
}
