// `npm run build` and the bootstrap: the server as a few ES modules in dist/server/ (esbuild), run by
// bin/quire.mjs. Node's ES module loader pays per file: Quire's ~270 modules with typebox's ~370 and
// kysely's ~260 took about 40 % of the server's start-up CPU as separate files (start to first
// PDF). Only those pure-ESM parts are bundled; every other dependency stays in node_modules as it is
// (native addons, packages that read their own files, CommonJS).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLED_DEPENDENCIES = new Set(['typebox', 'kysely']);
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED_DEPENDENCIES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// Chunk names carry content hashes: an earlier build's chunks would stay behind.
rmSync(path.join(root, 'dist', 'server'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/cli/main.ts',
    // bin/quire.mjs loads it before main for `serve`; the Liquid pool starts its threads from worker.js.
    'early-start': 'src/render/early-start.ts',
    worker: 'src/liquid/worker.ts',
    // The untrusted-file pool (src/untrusted/pool.ts) starts its threads from untrusted-worker.js.
    'untrusted-worker': 'src/untrusted/worker.ts',
    // The e-invoice pool (src/einvoice-inbound/pool.ts) starts its threads from einvoice-worker.js.
    'einvoice-worker': 'src/einvoice-inbound/worker.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  // Shared code goes to chunks, so early-start.js and main.js share one instance of each module, and
  // modules imported on first use stay out of the start-up path.
  splitting: true,
  chunkNames: '[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: 'linked',
  logLevel: 'warning',
});
