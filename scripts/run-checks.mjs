#!/usr/bin/env node
// `npm test`'s static checks, side by side: `npm run lint` and the two halves of `npm run typecheck` (server
// and tests; dashboard) each keep one core busy for 7–22 s, and one after the other they left the second core
// idle (the test suite itself is CPU-bound on two cores, so every idle second counts). The type checks are
// incremental (their build info in .tmp/tsc/): a check after a small change re-reads what changed and what
// depends on it, about 7 s instead of 22 s; a fresh clone pays the whole check once. Each check's output is
// printed whole when it ends, never interleaved; the exit status is the first failing check's.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['npm', ['run', 'lint']],
  ['npm', ['run', 'typecheck:server']],
  ['npm', ['run', 'typecheck:web']],
];

function runCheck([command, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `# ${command} ${args.join(' ')}: ${code === 0 ? 'passed' : `failed (${code})`} in ${seconds} s`,
      );
      resolve(code ?? 1);
    });
  });
}

const statuses = await Promise.all(CHECKS.map(runCheck));
process.exit(statuses.find((status) => status !== 0) ?? 0);
