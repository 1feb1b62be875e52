// jsreport 4 as a benchmark peer of Quire (bench/jsreport.ts starts it): jsreport-core with its HTTP API
// (express), a file-system template store, handlebars and the chrome-pdf recipe driving the same Debian
// Chromium as Quire. The invoice and the 10-page report are inserted as stored templates on start; clients
// render them with POST /api/report {template: {name}, data}. Prints "jsreport ready" when it can serve.
// Environment: JSREPORT_PORT, JSREPORT_DATA_DIR, JSREPORT_CHROMIUM (executable), JSREPORT_CHROMIUM_ARGS
// (JSON array), JSREPORT_FIXTURES (bench/fixtures), JSREPORT_WORKERS (jsreport's worker threads and
// Chromium pages, default 4: the concurrency the bench goes up to, as Quire's and raw's pages),
// JSREPORT_TRUST_USER_CODE=1 (jsreport's `trustUserCode`: template helpers run without its SES sandbox; the
// default keeps jsreport's own default, the sandbox, as Quire too treats templates as untrusted).
const { readFileSync } = require('node:fs');
const path = require('node:path');

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const dataDir = env('JSREPORT_DATA_DIR');
const fixtures = env('JSREPORT_FIXTURES');
const workers = Number(process.env.JSREPORT_WORKERS ?? 4);
const chromeOptions = {
  format: 'A4',
  marginTop: '20mm',
  marginRight: '20mm',
  marginBottom: '20mm',
  marginLeft: '20mm',
  printBackground: true,
};

async function main() {
  const jsreport = require('@jsreport/jsreport-core')({
    loadConfig: false,
    discover: false,
    rootDirectory: __dirname,
    tempDirectory: path.join(dataDir, 'temp'),
    httpPort: Number(env('JSREPORT_PORT')),
    logger: { console: { transport: 'console', level: 'warn' } },
    store: { provider: 'fs' },
    extensions: { 'fs-store': { dataDirectory: path.join(dataDir, 'data') } },
    workers: { numberOfWorkers: workers },
    reportTimeout: 120000,
    trustUserCode: process.env.JSREPORT_TRUST_USER_CODE === '1',
    chrome: {
      strategy: 'chrome-pool',
      // The recipe runs inside each of jsreport's worker threads, each with its own pool: one browser per
      // worker gives `workers` browsers in all (the default, a browser per CPU per worker, would start 4 × 2).
      numberOfWorkers: 1,
      launchOptions: {
        executablePath: env('JSREPORT_CHROMIUM'),
        args: JSON.parse(env('JSREPORT_CHROMIUM_ARGS')),
      },
    },
  });
  jsreport.use(require('@jsreport/jsreport-express')());
  jsreport.use(require('@jsreport/jsreport-fs-store')());
  jsreport.use(require('@jsreport/jsreport-handlebars')());
  jsreport.use(require('@jsreport/jsreport-chrome-pdf')());
  await jsreport.init();
  const helpers = readFileSync(path.join(__dirname, 'helpers.js'), 'utf8');
  const templates = jsreport.documentStore.collection('templates');
  const stored = [
    ['invoice', readFileSync(path.join(__dirname, 'invoice.hbs'), 'utf8')],
    ['report', readFileSync(path.join(fixtures, 'report-10p.html'), 'utf8')],
    ['document', readFileSync(path.join(fixtures, 'doc-50p.html'), 'utf8')],
  ];
  for (const [name, content] of stored)
    await templates.insert({
      name,
      content,
      helpers,
      engine: 'handlebars',
      recipe: 'chrome-pdf',
      chrome: chromeOptions,
    });
  process.stdout.write('jsreport ready\n');
  const stop = () => jsreport.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
