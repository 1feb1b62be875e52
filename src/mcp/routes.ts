import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/error-body.js';
import type { App } from '../http/server.js';
import type { ApiCall, RouteSchemas } from './tools.js';

interface McpDeps {
  /** Whether `Authorization` holds a live key of an active team (accounts' check, without spending). */
  keyIsValid(authorization: string | undefined): Promise<boolean>;
  publicUrl(): string;
}

/**
 * `POST /mcp`: the Model Context Protocol over streamable HTTP, stateless (each request its own server and
 * transport, JSON answers, no session to keep between processes). It takes the API keys: each tool call
 * is an in-process request of the REST route with the caller's own `Authorization`, so modes, roles, rate
 * limits and usage are exactly the REST API's. The tools' input schemas are captured from the routes here.
 */
export function registerMcp(app: App, deps: McpDeps): void {
  const routes = captureRouteSchemas(app);
  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const authorization = request.headers.authorization;
    if (!(await deps.keyIsValid(authorization))) {
      const message = 'The MCP endpoint takes an API key: Authorization: Bearer <key>.';
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody(deps.publicUrl(), 'invalid_api_key', message));
    }
    // The MCP SDK (and zod under it) loads on the first MCP request, not at every server start (issue 54).
    const { answerMcp } = await import('./exchange.js');
    return answerMcp(request, reply, routes, inProcess(app, request, authorization));
  });
  // Stateless: no server-to-client stream (GET) and no session to end (DELETE).
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(
        errorBody(
          deps.publicUrl(),
          'invalid_request',
          'The MCP endpoint takes POST only (stateless streamable HTTP).',
        ),
      );
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}

/** The body, query and params schema of every route registered after this, by `METHOD /path`. */
function captureRouteSchemas(app: App): RouteSchemas {
  const routes: RouteSchemas = new Map();
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      routes.set(`${method} ${route.url}`, {
        body: schema.body,
        querystring: schema.querystring,
        params: schema.params,
      });
  });
  return routes;
}

/** A REST call on the caller's behalf: the same key, the same address (its budget), in this process. */
function inProcess(app: App, request: FastifyRequest, authorization: string | undefined): ApiCall {
  return async ({ method, url, body }) => {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await app.inject({
      method,
      url,
      headers,
      remoteAddress: request.ip,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, json: parseJson(response.body) };
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
