#!/usr/bin/env node
// Writes the OpenAPI document the server serves at GET /v1/openapi.json to a file (default: stdout).
// Builds the real app (routes and schemas exactly as served) on a throw-away data directory; no port, no Chromium.
// Usage: node --import tsx scripts/openapi-dump.mjs [out.json]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-openapi-'));
try {
  const config = loadConfig({}, { dataDir, host: '127.0.0.1', port: 0, logLevel: 'silent' });
  const built = await buildApp(config, { warmRenderer: false, startSweeper: false });
  await built.app.ready();
  const text = `${JSON.stringify(built.app.swagger(), null, 2)}\n`;
  await built.close();
  const out = process.argv[2];
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
