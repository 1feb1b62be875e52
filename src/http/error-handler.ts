import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../shared/errors.js';
import { BlobStoreUnavailable } from '../storage/index.js';
import { drainRequestBody } from './drain-request.js';
import { errorBody } from './error-body.js';
import { describeValidationError } from './validation-message.js';

/** Maps Fastify's own errors (parsing, limits, validation) onto the spec's codes. */
function fromFastifyError(error: FastifyError): { code: ErrorCode; status: number; message: string } | null {
  if (error.validation) {
    return {
      code: 'invalid_request',
      status: 400,
      message: describeValidationError(error.validation, error.validationContext),
    };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        code: 'invalid_request',
        status: 415,
        message: 'Request bodies must be JSON with Content-Type: application/json.',
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', status: 413, message: 'The request body is larger than 5 MB.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'invalid_request', status: 400, message: 'The JSON body is empty.' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'invalid_request', status: 400, message: 'Content-Length does not match the body.' };
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { code: 'invalid_request', status: 400, message: 'The body is not valid JSON.' };
  }
  if (error.statusCode === 400)
    return { code: 'invalid_request', status: 400, message: 'The request is malformed.' };
  return null;
}

export function createErrorHandler(publicUrl: () => string) {
  return async (error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    // A body refused unread (too large, not JSON) is drained first, or closing the socket would reset it
    // while the client still sends and the answer would be lost.
    await drainRequestBody(request.raw);
    if (error instanceof AppError) {
      // The client gets service_busy; the store's own error is for the operator.
      if (error instanceof BlobStoreUnavailable)
        request.log.warn({ err: error.cause }, 'blob store unavailable');
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.code(error.status).send(errorBody(publicUrl(), error.code, error.message, error.details));
    }
    const mapped = fromFastifyError(error);
    if (mapped) return reply.code(mapped.status).send(errorBody(publicUrl(), mapped.code, mapped.message));
    // Never leak a stack, SQL or internal message: log it under the request id instead.
    request.log.error({ err: error }, 'internal error');
    return reply
      .code(500)
      .send(
        errorBody(
          publicUrl(),
          'internal_error',
          `An internal error occurred (request ${String(request.id)}).`,
        ),
      );
  };
}
