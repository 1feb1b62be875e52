export { registerMcp } from './routes.js';

/**
 * `quire mcp`: the stdio bridge, loaded with the MCP SDK only when it runs (the server, which imports this
 * folder, does not load the SDK at start: issue 54).
 */
export async function runStdioMcp(target: { url: string; apiKey: string }): Promise<void> {
  const { runStdioMcp: run } = await import('./stdio.js');
  return run(target);
}
