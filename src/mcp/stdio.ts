import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { quireVersion } from '../shared/version.js';

/** Where `quire mcp` finds Quire, and with which key (QUIRE_URL, QUIRE_API_KEY). */
interface StdioTarget {
  url: string;
  apiKey: string;
}

/**
 * `quire mcp`: an MCP server on stdin/stdout for a desktop assistant, relaying every request to the
 * `/mcp` endpoint of the Quire at `target.url` with the key. The tools, their schemas, limits and errors are
 * therefore the server's own, whatever version it runs. Resolves when the assistant closes stdin.
 */
export async function runStdioMcp(target: StdioTarget): Promise<void> {
  const client = new Client({ name: 'quire-mcp-stdio', version: quireVersion() });
  const endpoint = new URL(`${target.url.replace(/\/+$/, '')}/mcp`);
  await client.connect(
    new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${target.apiKey}` } },
    }),
  );
  const server = new Server({ name: 'quire', version: quireVersion() }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await client.close();
}
