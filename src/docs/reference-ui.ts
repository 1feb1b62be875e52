import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { samplesAsMarkdown } from './code-samples.js';

/**
 * The reference at /docs: Swagger UI (served from the package, no CDN) titled "Quire API" in the dashboard's
 * colours. Swagger UI does not read `x-codeSamples`, so the page's copy of the document carries each
 * operation's curl and client samples at the end of its description; /v1/openapi.json keeps them in
 * `x-codeSamples` only, for Redoc, Scalar and code generators.
 */

const ACCENT = '#0b5cad';

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="32" viewBox="0 0 150 32"><rect width="32" height="32" rx="6" fill="${ACCENT}"/><path d="M9 7h10l5 5v13H9z" fill="#fff"/><path d="M19 7v5h5" fill="#cfe0f3"/><text x="40" y="22" font-family="system-ui,sans-serif" font-size="17" font-weight="600" fill="#fff">Quire API</text></svg>`;

const CSS = `
.swagger-ui .topbar { background: #10233a; padding: 6px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .info .title { color: #10233a; }
.swagger-ui .info a, .swagger-ui .markdown a { color: ${ACCENT}; }
.swagger-ui .opblock-tag { font-size: 20px; }
.swagger-ui .opblock .opblock-summary-description { color: #333; }
.swagger-ui .btn.execute { background: ${ACCENT}; border-color: ${ACCENT}; }
.swagger-ui .markdown pre, .swagger-ui .renderedMarkdown pre { background: #10233a; color: #f3f6fa; padding: 10px; border-radius: 4px; }
`;

type Json = Record<string, unknown>;
type Sample = { lang: string; label: string; source: string };

/** The document as the page shows it: the code samples appended to each operation's description. */
export function withSamplesInDescriptions(document: Json): Json {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item)) {
      const samples = (operation as Json)?.['x-codeSamples'] as Sample[] | undefined;
      if (!samples) continue;
      const op = operation as Json;
      op.description = `${op.description ?? ''}\n\n${samplesAsMarkdown(samples)}`;
    }
  }
  return document;
}

export const REFERENCE_UI: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  uiConfig: {
    docExpansion: 'list',
    deepLinking: true,
    filter: true,
    displayOperationId: false,
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
  },
  theme: { title: 'Quire API', css: [{ filename: 'quire.css', content: CSS }] },
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/docs', target: '_self' },
  transformSpecification: (document) => withSamplesInDescriptions(document as Json),
};
