import type { FastifyReply } from 'fastify';
import { fileResponse, HEADER } from '../http/openapi.js';
import { COMMON_ERRORS, ErrorResponse } from '../http/schemas.js';
import type { Preview } from './preview.js';

/** The errors every preview route can answer: a missing template, too much input, a failed, busy or slow render. */
export const PREVIEW_ERRORS = {
  404: ErrorResponse,
  413: ErrorResponse,
  422: ErrorResponse,
  503: ErrorResponse,
  504: ErrorResponse,
  ...COMMON_ERRORS,
};

/** The OpenAPI responses of a route answered by `sendPreview`. */
export const PREVIEW_PDF_RESPONSES = {
  200: fileResponse(
    'The watermarked preview PDF (inline, sent with `Content-Security-Policy: sandbox`)',
    ['application/pdf'],
    { headers: { 'content-disposition': HEADER.contentDisposition, 'x-pages': HEADER.pages } },
  ),
  ...PREVIEW_ERRORS,
};

/**
 * Binary answers bypass the JSON response schemas, so they are sent through a plain reply. A preview is
 * shown inline by the dashboard's editor: `Content-Security-Policy: sandbox` keeps a hostile PDF opened
 * from it in an opaque origin, away from the dashboard's session and API.
 */
export function sendPreview(reply: FastifyReply, preview: Preview): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${preview.filename}"`)
    .header('content-security-policy', 'sandbox')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .header('x-pages', String(preview.pages))
    .send(preview.pdf);
}

export function sendPng(reply: FastifyReply, png: Buffer): FastifyReply {
  return reply
    .header('content-type', 'image/png')
    .header('cache-control', 'private, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .send(png);
}
