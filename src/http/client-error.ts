import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { newRequestId } from '../shared/ids.js';
import { errorBody } from './error-body.js';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (bad chunking, conflicting Content-Length,
 * control characters in the request line or headers, over-long headers, timeouts) still get the spec's
 * error object and an `x-request-id`, instead of Node's default body.
 */

/** Node's parser error, as the `clientError` event hands it over. */
export interface ClientError extends Error {
  code?: string;
  reason?: string;
}

interface ClientErrorAnswer {
  status: number;
  message: string;
}

/** What the parser could not accept, by llhttp error code (HPE_*), in words a client can act on. */
function describeClientError(error: ClientError): ClientErrorAnswer {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request headers are too large.' };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_STRICT':
      return { status: 400, message: 'The chunked request body is malformed (Transfer-Encoding: chunked).' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, message: 'The connection ended before the request body was complete.' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return {
        status: 400,
        message: 'Content-Length is invalid, repeated with different values, or sent with Transfer-Encoding.',
      };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { status: 400, message: 'A header name or value contains characters HTTP does not allow.' };
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_CONSTANT':
      return {
        status: 400,
        message:
          'The request line is malformed (method, path or HTTP version), or the previous body was longer than its Content-Length.',
      };
    default:
      return { status: 400, message: 'The HTTP request is malformed.' };
  }
}

/** The raw HTTP/1.1 response: Fastify has no request or reply for a request the parser refused. */
export function clientErrorResponse(publicUrl: string, error: ClientError, requestId: string): string {
  const { status, message } = describeClientError(error);
  const body = JSON.stringify(errorBody(publicUrl, 'invalid_request', message));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'cache-control: no-store',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** True while a response to an earlier request on this keep-alive socket is being written. */
function responseInProgress(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return current?.headersSent === true;
}

/** Fastify's `clientErrorHandler`: answers in the error shape, then closes the connection. */
export function createClientErrorHandler(publicUrl: () => string) {
  // Fastify calls it bound to the instance, whose logger carries the server's settings.
  return function onClientError(this: { log: FastifyBaseLogger }, error: ClientError, socket: Socket): void {
    // A reset connection has nobody left to answer (Node's documentation of `clientError`).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const requestId = newRequestId();
    // debug, not info: a client sending garbage must not be able to flood the logs.
    this.log.debug({ reqId: requestId, code: error.code, reason: error.reason }, 'malformed HTTP request');
    // Writing into a response already under way would corrupt it; closing is all that is left then.
    if (socket.writable && !responseInProgress(socket)) {
      socket.end(clientErrorResponse(publicUrl(), error, requestId));
      return;
    }
    socket.destroy();
  };
}
