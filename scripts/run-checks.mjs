#!/usr/bin/env node
// `npm test`'s static checks, side by side: `npm run lint` and `npm run typecheck` each keep one core busy for
// 10–20 s, and one after the other they left the second core idle (the test suite itself is CPU-bound on two
// cores, so every idle second counts). Each check's output is printed whole when it ends, never interleaved;
// the exit status is the first failing check's.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['npm', ['run', 'lint']],
  ['npm', ['run', 'typecheck']],
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
