import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder holding Quire's package.json, found by walking up from this module: the same from src/
 * (tsx) and from the server bundle in dist/server/ (scripts/bundle.mjs), whichever file this code ends
 * up in. Files read at run time (the dashboard build, the PDF/A colour profile, the version) are found from it.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  root = dir;
  return root;
}
