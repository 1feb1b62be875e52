#!/usr/bin/env node
// The `quire` command. Runs the compiled build (dist/), or the TypeScript sources through tsx when
// QUIRE_FROM_SOURCE=1 or no build exists yet (tests and development).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'cli', 'main.js');

if (process.env.QUIRE_FROM_SOURCE === '1' || !existsSync(built)) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import(pathToFileURL(path.join(root, 'src', 'cli', 'main.ts')).href);
  await main(process.argv.slice(2));
} else {
  const { main } = await import(pathToFileURL(built).href);
  await main(process.argv.slice(2));
}
