import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { quireVersion } from '../shared/version.js';
import { type ApiCall, inputSchemaOf, type RouteSchemas, TOOLS } from './tools.js';

/**
 * An MCP server over Quire's tools; every call goes through `api` with the caller's own key. A refused call
 * is an MCP tool error (`isError`) whose text and structured content carry the spec's error object, code
 * first, so an assistant can act on `template_not_found` or `rate_limited` as a program would.
 */
export function createMcpServer(routes: RouteSchemas, api: ApiCall): Server {
  const server = new Server({ name: 'quire', version: quireVersion() }, { capabilities: { tools: {} } });
  const tools = TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: { ...inputSchemaOf(tool, routes), type: 'object' as const },
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) return toolError('not_found', `No tool ${request.params.name}.`);
    const answer = await api(tool.call(request.params.arguments ?? {}));
    if (answer.status >= 400) return refused(answer.status, answer.json);
    const result = tool.answer ? tool.answer(answer.json) : answer.json;
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: asObject(result),
    } satisfies CallToolResult;
  });
  return server;
}

/** The REST error object as a tool error (its code, message and details as the API sent them). */
function refused(status: number, json: unknown): CallToolResult {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  return toolError(code, message, error);
}

function toolError(code: string, message: string, error?: unknown): CallToolResult {
  const body = { error: { ...(typeof error === 'object' && error ? error : {}), code, message } };
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: body,
  };
}

/** structuredContent must be an object: a list answer is wrapped as `{ data }`. */
function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { data: value };
}
