import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A route-level onSend that marks every reply of the route `cache-control: no-store`, errors included: for
 * routes whose answers carry secrets, tokens or signed links (spec: Conventions 8; Webhook endpoints).
 */
export async function noStoreOnSend(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  reply.header('cache-control', 'no-store');
  return payload;
}
