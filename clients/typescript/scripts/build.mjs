#!/usr/bin/env node
// Builds the package: ESM (dist/esm) and CommonJS (dist/cjs), each with its declarations and the generated
// schema.d.ts (tsc does not copy .d.ts sources). dist/cjs/package.json marks that folder CommonJS.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
// The CommonJS build compiles the same sources the ESM build has just type-checked: it skips the check
// (--noCheck emits the same files, a third of the time).
for (const [config, out, ...flags] of [
  ['tsconfig.json', 'dist/esm'],
  ['tsconfig.cjs.json', 'dist/cjs', '--noCheck'],
]) {
  execFileSync(process.execPath, [tsc, '-p', config, ...flags], { cwd: root, stdio: 'inherit' });
  copyFileSync(path.join(root, 'src/schema.d.ts'), path.join(root, out, 'schema.d.ts'));
}
writeFileSync(path.join(root, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');
