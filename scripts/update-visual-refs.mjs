#!/usr/bin/env node
// Regenerates the visual-regression references (test/visual/reference/*.png): page 1 of every print
// fixture at 50 dpi, through the real renderer. Review the changed images before committing them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(process.execPath, ['--import', 'tsx', 'test/visual/write-references.ts'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
