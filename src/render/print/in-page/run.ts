import type { InPage } from '../../types.js';

/**
 * Runs functions written in TypeScript inside the page, in Quire's isolated world (InPage). They are
 * sent as their source text, so they may call each other (all are declared in the script) but import
 * nothing at run time. `__name` is a no-op stand-in for the helper esbuild/tsx adds to keep function names.
 */
export async function runInPage<R>(
  page: InPage,
  helpers: readonly ((...args: never[]) => unknown)[],
  entry: string,
  args: readonly unknown[],
): Promise<R> {
  const source = helpers.map((fn) => fn.toString()).join(';\n');
  const call = `${entry}(...${JSON.stringify(args)})`;
  const script = `(async () => { const __name = (f) => f; ${source};\n return await ${call}; })()`;
  return (await page.evaluate(script)) as R;
}
