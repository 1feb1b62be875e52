import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from './server.js';
import type { ApiCall, RouteSchemas } from './tools.js';

/** Runs one MCP exchange through the SDK's web-standard transport and sends its answer. */
export async function answerMcp(
  request: FastifyRequest,
  reply: FastifyReply,
  routes: RouteSchemas,
  api: ApiCall,
): Promise<FastifyReply> {
  const server = createMcpServer(routes, api);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const web = new Request(`http://localhost${request.url}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(request.body ?? null),
    });
    const response = await transport.handleRequest(web, { parsedBody: request.body });
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    return reply.send(await response.text());
  } finally {
    await server.close();
  }
}
