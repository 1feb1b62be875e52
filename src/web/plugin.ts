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
 * Serves the dashboard SPA at /app/ (hash routing: only index.html and assets exist) and sends `/` and `/app`
 * there.
 * index.html is revalidated on every load so a new build is picked up at once; hashed assets are cached for
 * a year.
 */
export async function registerWebApp(app: App, root = defaultWebRoot()): Promise<void> {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app/', 302));
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
