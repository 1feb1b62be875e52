#!/usr/bin/env node
// The `quire` command. Runs the server bundle (dist/server/, scripts/bundle.mjs), or the TypeScript sources
// through tsx when QUIRE_FROM_SOURCE=1 or no build exists yet (tests and development).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'server', 'main.js');

const fromSource = process.env.QUIRE_FROM_SOURCE === '1' || !existsSync(built);
const moduleUrl = (sourceFile, bundled) =>
  pathToFileURL(fromSource ? path.join(root, 'src', sourceFile) : path.join(root, 'dist', 'server', bundled))
    .href;
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
}
const argv = process.argv.slice(2);
// `serve` launches Chromium before the CLI's modules load (src/render/early-start.ts); help does not.
if (argv[0] === 'serve' && !argv.includes('--help') && !argv.includes('-h')) {
  const { prelaunchChromium } = await import(moduleUrl('render/early-start.ts', 'early-start.js'));
  await prelaunchChromium();
}
const { main } = await import(moduleUrl('cli/main.ts', 'main.js'));
await main(argv);
