// The child process of test/helpers/tool-host.ts: runs the command-line tools a test process asks for. A test
// process holds hundreds of megabytes, and starting a process from it costs 30–55 ms of CPU (the fork copies
// its page tables), against about 7 ms from this small one.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { cpuSeconds } from '../../scripts/process-cpu.mjs';

process.on('message', ({ id, file, args, maxBuffer }) => {
  execFile(file, args, { encoding: 'buffer', maxBuffer }, (error, stdout, stderr) => {
    const failure = error && { message: error.message, code: error.code, signal: error.signal };
    process.send({ id, stdout, stderr, error: failure });
  });
});

// The test process has ended. Its CPU record (scripts/test-exit-guard.mjs) gets this process's, tools included.
process.on('disconnect', () => {
  const { QUIRE_TEST_CPU_DIR: dir, QUIRE_TOOL_HOST_FOR: owner } = process.env;
  try {
    if (dir && owner) {
      const record = JSON.stringify({ file: owner, cpuSeconds: cpuSeconds() });
      writeFileSync(path.join(dir, `tool-host-${process.pid}.json`), record);
    }
  } catch {
    // Not on Linux, or the run is over: the record is only for the runner's CPU report.
  }
  process.exit(0);
});
