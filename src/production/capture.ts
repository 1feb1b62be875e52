import { Type } from 'typebox';
import { checkSourceUrlShape } from '../render/index.js';
import { AppError } from '../shared/errors.js';

/** Spec "Limits": the render time limit; `wait_for.timeout_ms` may not ask for more. */
const MAX_WAIT_MS = 30_000;
const MAX_SOURCE_URL_LENGTH = 2048;

/**
 * Extension fields of POST /pdf for capturing pages: render a URL instead of
 * HTML, and wait for the page before printing. Kept together so other extensions merge beside them.
 */
export const CaptureFields = {
  source_url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_SOURCE_URL_LENGTH,
      description:
        'Extension: an http(s) page to render instead of `html` or `template_id` (public addresses only, unless the operator lists the host in QUIRE_URL_ALLOW_HOSTS). The filename defaults to the page title.',
    }),
  ),
  wait_for: Type.Optional(
    Type.Object(
      {
        selector: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 1000,
            description: 'Render once this CSS selector matches',
          }),
        ),
        expression: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 2000,
            description:
              "Render once this JavaScript expression is truthy; evaluated in an isolated world that sees the page's DOM (not its script's variables)",
          }),
        ),
        network_idle: Type.Optional(
          Type.Boolean({ description: 'Render once no request has been in flight for 500 ms' }),
        ),
        timeout_ms: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: MAX_WAIT_MS,
            description: 'Longest wait in ms (never past the render time limit); then render_timeout',
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          'Extension: wait for the page before printing (source_url, html and templates). Conditions given are awaited in order: selector, expression, network_idle.',
      },
    ),
  ),
};

interface CaptureRequest {
  source_url?: string;
  wait_for?: { selector?: string; expression?: string; network_idle?: boolean };
  html?: string;
  template_id?: string;
  data?: unknown;
  merge_data?: unknown;
  css?: string;
  e_invoice?: unknown;
}

/** Cross-field rules of the capture fields (before the spec's own rules, which know nothing of source_url). */
export function checkCaptureRules(body: CaptureRequest): void {
  if (body.source_url !== undefined) {
    const others = (['template_id', 'html', 'e_invoice'] as const).filter((f) => body[f] !== undefined);
    const other = others[0];
    if (other !== undefined)
      throw new AppError('invalid_request', `Send exactly one of "template_id", "html" or "source_url".`, {
        field: other,
      });
    for (const field of ['data', 'merge_data', 'css'] as const) {
      if (body[field] !== undefined)
        throw new AppError('invalid_request', `"${field}" cannot be used with "source_url".`, { field });
    }
    checkSourceUrlShape(body.source_url);
  }
  const wait = body.wait_for;
  if (wait && wait.selector === undefined && wait.expression === undefined && wait.network_idle !== true) {
    throw new AppError(
      'invalid_request',
      '"wait_for" needs a "selector", an "expression" or "network_idle": true.',
      { field: 'wait_for' },
    );
  }
}
