import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from '../http/server.js';
import { packageRoot } from '../shared/package-root.js';

/** Vite names every asset under /app/assets/ by its content hash, so a changed file gets a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built dashboard: `vite build` of web/ writes dist/dashboard/. */
export function defaultWebRoot(): string {
  return path.join(packageRoot(), 'dist', 'dashboard');
}

/**
 * The dashboard's Content-Security-Policy. Scripts only from the built files (Vite emits no inline
 * script), no plugins, no framing by other sites, and requests only to Quire itself.
 * - style-src allows inline styles: CodeMirror injects <style> elements at run time and Preact sets
 *   `style` attributes; the page is static and cached, so a per-response nonce is not possible. Styles
 *   cannot run code.
 * - img-src: thumbnails and logos are signed links under QUIRE_PUBLIC_URL (which may name another host
 *   than the one the browser used); data:/blob: for previews made in the page.
 * - blob: PDFs: the template editor's "Open PDF" shows its draft-preview PDF from a blob: URL in a new tab.
 *   That document inherits this policy, and Chromium shows a PDF through an embedded viewer, so object-src
 *   allows blob: (object URLs only the dashboard's own scripts can make) and nothing else. frame-src blob:
 *   dates from the editor's former framed viewer (its preview is now page images) and is kept for now.
 */
export function dashboardCsp(publicOrigin: string | null): string {
  const images = ["'self'", 'data:', 'blob:', ...(publicOrigin ? [publicOrigin] : [])];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(' ')}`,
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    'object-src blob:',
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of every dashboard answer (pages, assets, the redirect and the not-built notice). */
function dashboardHeaders(publicUrl: (() => string) | undefined): Record<string, string> {
  const origin = publicUrl ? originOf(publicUrl()) : null;
  return {
    'content-security-policy': dashboardCsp(origin),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Serves the dashboard SPA at /app/ (hash routing: only index.html and assets exist) and sends `/` and `/app`
 * there.
 * index.html is revalidated on every load so a new build is picked up at once; hashed assets are cached for
 * a year. `publicUrl` is QUIRE_PUBLIC_URL (the origin of signed image links).
 */
export async function registerWebApp(
  app: App,
  root = defaultWebRoot(),
  publicUrl?: () => string,
): Promise<void> {
  // An encapsulated scope: the headers apply to the dashboard's routes only, not to the API.
  await app.register(async (web) => {
    web.addHook('onSend', async (_request, reply, payload) => {
      reply.headers(dashboardHeaders(publicUrl));
      return payload;
    });
    await registerDashboardRoutes(web, root);
  });
}

/** Quire's mark (the sidebar's "Q"), as every page's icon: browsers ask for /favicon.ico on their own. */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5cad"/>' +
  '<text x="16" y="23" font-family="Arial,Helvetica,sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">Q</text></svg>';

async function registerDashboardRoutes(app: App, root: string): Promise<void> {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app/', 302));
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG),
  );
  // @fastify/static's `redirect` covers folders below the prefix, not the prefix itself: /app typed by hand
  // would be a 404. The SPA's relative asset URLs need the slash.
  app.get('/app', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app/', 301));
  if (!existsSync(path.join(root, 'index.html'))) {
    // A checkout that skipped the bootstrap: say how to build instead of a bare 404.
    app.get('/app/*', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The dashboard is not built. Run `npm run bootstrap` (or `npm run build`) and restart Quire.\n',
        ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/app/',
    // @fastify/swagger-ui registers its own copy; a second reply decorator would clash.
    decorateReply: false,
    cacheControl: false,
    redirect: true,
    setHeaders: (reply, filePath) => {
      const isAsset = filePath.startsWith(path.join(root, 'assets') + path.sep);
      reply.header('cache-control', isAsset ? IMMUTABLE : 'no-cache');
    },
  });
}
