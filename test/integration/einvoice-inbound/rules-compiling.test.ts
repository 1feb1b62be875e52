import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Serving, serveQuire, sqliteDataDir, terminate } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHARED_RULES = path.join(ROOT, 'dist', 'einvoice-rules');
const SAMPLES = path.join(ROOT, 'tools', 'einvoice-validate', 'samples');
/** The smallest stylesheet (a few CPU seconds to compile): the one this server starts without. */
const MISSING = 'facturx-1.09.2__minimum__FACTUR-X_MINIMUM.xslt.sef.json';

/**
 * `npm start` from a fresh checkout no longer compiles the official e-invoice rules before it listens
 * (issue 54): the server compiles what is missing in the background, and a check that needs a rule set not
 * compiled yet answers 503 service_busy with Retry-After. The server gets its own rules directory
 * (QUIRE_EINVOICE_RULES_DIR): links to the shared compiled rules, without the Factur-X MINIMUM one, so the
 * shared dist/einvoice-rules is never changed.
 */
describe('a server started without one compiled rule set compiles it in the background', () => {
  const rulesDir = mkdtempSync(path.join(tmpdir(), 'quire-rules-'));
  // No shipped compiled copies (tools/einvoice-validate/sef/): what a rule set newer than the shipped one meets.
  const noShipped = mkdtempSync(path.join(tmpdir(), 'quire-no-shipped-rules-'));
  const { env, remove } = sqliteDataDir('quire-rules-compiling-', {
    QUIRE_WORKERS: '0',
    QUIRE_EINVOICE_RULES_DIR: rulesDir,
    QUIRE_EINVOICE_SHIPPED_RULES_DIR: noShipped,
  });
  let server: Serving;
  let key = '';
  /** The background compile's process group, stopped until the busy answers are checked. */
  let compile: number | null = null;
  before(async () => {
    for (const name of readdirSync(SHARED_RULES).filter((file) => !file.startsWith(MISSING)))
      symlinkSync(path.join(SHARED_RULES, name), path.join(rulesDir, name));
    server = await serveQuire(env);
    key = server.liveKey ?? '';
    // Held still (SIGSTOP) rather than raced: the MINIMUM stylesheet compiles in a few seconds, sometimes
    // before the server's first check has loaded its worker, and the busy answer is what this test is about.
    compile = await waitFor(
      'the background compile to start',
      async () => compileProcessGroup(rulesDir),
      30_000,
      10,
    );
    process.kill(-compile, 'SIGSTOP');
  });
  after(async () => {
    resumeCompile();
    if (server) await terminate(server);
    remove();
    rmSync(rulesDir, { recursive: true, force: true });
    rmSync(noShipped, { recursive: true, force: true });
  });

  function resumeCompile(): void {
    if (compile !== null) process.kill(-compile, 'SIGCONT');
    compile = null;
  }

  /** Asked every 3 s at most: within the 30 checks a minute a team and mode may make. */
  function validate(file: string) {
    return api(server.base, 'POST', '/v1/e-invoices/validate', {
      key,
      body: { filename: path.basename(file), content_base64: readFileSync(file).toString('base64') },
    });
  }

  it('answers service_busy with Retry-After while the rules a check needs compile, the others at once, then checks', async () => {
    const minimum = path.join(SAMPLES, 'xml', 'zf24_MINIMUM_Rechnung.xml');
    const busy = await validate(minimum);
    assert.equal(busy.status, 503, busy.text);
    assert.equal(busy.json.error.code, 'service_busy');
    assert.match(
      busy.json.error.message,
      /FACTUR-X_MINIMUM\.xslt\) are being compiled .*retry in about \d+ s/,
    );
    assert.match(busy.headers.get('retry-after') ?? '', /^[1-9]\d*$/);

    // A check whose rules are all compiled does not wait for the others.
    const peppol = await validate(path.join(SAMPLES, 'peppol', '3.0.21', 'base-example.xml'));
    assert.equal(peppol.status, 200, peppol.text);
    assert.equal(peppol.json.valid, true);

    resumeCompile();
    // Compiled at low priority beside the suite's processes: asked again as Retry-After says, up to 5 minutes.
    const checked = await waitFor(
      'the Factur-X MINIMUM rules compiled',
      async () => {
        const answer = await validate(minimum);
        if (answer.status === 503) return null;
        return answer;
      },
      300_000,
      3_000,
    );
    assert.equal(checked.status, 200, checked.text);
    assert.equal(checked.json.profile, 'minimum');
    assert.equal(checked.json.valid, true, JSON.stringify(checked.json.errors));
    assert.ok(
      checked.json.rules.some((set: { name: string }) => set.name === 'Factur-X / ZUGFeRD'),
      JSON.stringify(checked.json.rules),
    );
    assert.ok(existsSync(path.join(rulesDir, MISSING)), 'compiled into QUIRE_EINVOICE_RULES_DIR');
    assert.ok(!readdirSync(rulesDir).some((file) => file.endsWith('.partial')));
  });
});

/** The process group of the compile a server started for `rulesDir` (RulesCompiler: its own group), if running. */
function compileProcessGroup(rulesDir: string): number | null {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (command.includes('compile-einvoice-rules.mjs') && command.includes(rulesDir)) return Number(pid);
  }
  return null;
}
