// Started by sandbox.test.ts as another (non-root) user: starts the browser supervisor as Quire does,
// renders a page and prints, as one JSON line, whether Chromium is sandboxed, the log lines and the
// seccomp mode of each renderer process (2 = a seccomp-bpf filter: the sandbox is really on).
import { readFileSync } from 'node:fs';
import { BrowserSupervisor } from '../../../src/render/browser-supervisor.js';

const lines: string[] = [];
const log = {
  info: (_o: object, msg?: string) => lines.push(`info ${msg}`),
  warn: (_o: object, msg?: string) => lines.push(`warn ${msg}`),
  error: (_o: object, msg?: string) => lines.push(`error ${msg}`),
};
const supervisor = await BrowserSupervisor.start(
  { chromiumPath: process.argv[2] ?? '/usr/bin/chromium', chromiumWsEndpoint: null },
  log,
);
try {
  const page = await (await supervisor.current()).newPage();
  await page.setContent('<p>sandboxed</p>');
  const text = await page.textContent('p');
  const renderers = (await supervisor.processes()).filter((p) => p.type === 'renderer');
  const seccomp = renderers.map((p) => {
    const status = readFileSync(`/proc/${p.pid}/status`, 'utf8');
    return Number(/^Seccomp:\s+(\d+)/m.exec(status)?.[1] ?? -1);
  });
  process.stdout.write(`${JSON.stringify({ sandboxed: supervisor.sandboxed, lines, text, seccomp })}\n`);
} finally {
  await supervisor.close();
}
