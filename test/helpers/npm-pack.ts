import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `npm pack` of a folder into `destination` (its prepack script runs); the tarball's path. */
export async function npmPack(folder: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination, folder], {
    cwd: folder,
    maxBuffer: 16 * 1024 * 1024,
  });
  // The JSON report comes last: lifecycle scripts (prepack) may print before it.
  const [packed] = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as Array<{ filename: string }>;
  assert.ok(packed, `npm pack ${folder} packed nothing`);
  return path.join(destination, packed.filename);
}
