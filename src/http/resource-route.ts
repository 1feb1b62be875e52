import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { COMMON_ERRORS, ErrorResponse, IdParams } from './schemas.js';
import type { App } from './server.js';

/** What names and describes one operation in the OpenAPI document. */
interface OperationDoc {
  tags: string[];
  operationId: string;
  summary: string;
  description: string;
}

/** A route that reads, or acts on, the one resource its path names by `:id`. */
interface ResourceRoute<Row, Answer extends TSchema> {
  method: 'GET' | 'POST';
  url: string;
  doc: OperationDoc;
  /** The schema of the 200 answer. */
  answer: Answer;
  /**
   * The resource as the caller may see it. Throws the resource's own 404 error (`document_not_found`,
   * `template_not_found`, ...) when it is unknown, another team's or hidden from the key's mode.
   */
  find(request: FastifyRequest, id: string): Promise<Row>;
  /** The answer for the resource found (and any action the route takes on it). */
  respond(row: Row): Promise<Static<Answer>> | Static<Answer>;
}

/**
 * Registers a route on one resource named by `:id`: the id is a UUID, an unseen resource is a 404, and the
 * answer is `no-store` because such answers carry signed links (spec: Conventions 8). The header is set once
 * the answer is made, so only the 200 carries it, as src/docs/sent-headers.ts documents.
 */
export function registerResourceRoute<Row, Answer extends TSchema>(
  app: App,
  route: ResourceRoute<Row, Answer>,
): void {
  // Widened on purpose: the type provider cannot resolve a generic answer schema; `respond` checks the answer.
  const response: Record<number, TSchema> = { 200: route.answer, 404: ErrorResponse, ...COMMON_ERRORS };
  app.route({
    method: route.method,
    url: route.url,
    schema: { ...route.doc, params: IdParams, response },
    handler: async (request, reply) => {
      const answer = await route.respond(await route.find(request, request.params.id));
      reply.header('cache-control', 'no-store');
      return answer;
    },
  });
}
