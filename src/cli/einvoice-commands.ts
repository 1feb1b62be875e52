import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CompiledRules, ReceivedEInvoices } from '../einvoice-inbound/index.js';
import { AppError } from '../shared/errors.js';
import { NO_TENANT } from '../shared/fair-queue.js';
import { UsageError } from './usage-error.js';

type Print = (line: string) => void;

/** Per file; the server's limit is QUIRE_EINVOICE_CHECK_TIMEOUT_MS (10 s). */
const CLI_TIME_LIMIT_MS = 120_000;

/** What one file gave: its report, or why it is not an e-invoice (the API's invalid_request message). */
async function checkFile(
  einvoices: ReceivedEInvoices,
  file: string,
  action: 'validate' | 'parse',
): Promise<{ ok: boolean; json: Record<string, unknown> }> {
  try {
    const bytes = await readFile(file);
    if (action === 'parse') return { ok: true, json: { file, ...(await einvoices.parse(NO_TENANT, bytes)) } };
    const report = await einvoices.validate(NO_TENANT, bytes);
    return { ok: report.valid, json: { file, ...report } };
  } catch (err) {
    if (err instanceof AppError)
      return { ok: false, json: { file, error: { code: err.code, message: err.message } } };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`No such file: ${file}`);
    throw err;
  }
}

/** QUIRE_EINVOICE_RULES_DIR, the one setting the command reads (it needs no server and no other setting). */
function rulesDirOf(env: NodeJS.ProcessEnv): string | null {
  const dir = env.QUIRE_EINVOICE_RULES_DIR?.trim();
  return dir ? path.resolve(dir) : null;
}

/**
 * `quire einvoice validate FILE…` and `quire einvoice parse FILE` (README "Received e-invoices"): the
 * API's checks for operators and CI pipelines, on this machine, without a server. JSON on stdout (one
 * object per file, an array for several); exit code 1 when a file is invalid or is not an e-invoice.
 */
export async function einvoiceCommand(rest: string[], print: Print): Promise<void> {
  const [sub, ...files] = rest;
  if (sub !== 'validate' && sub !== 'parse')
    throw new UsageError('Usage: quire einvoice validate FILE… | quire einvoice parse FILE');
  if (files.length === 0 || (sub === 'parse' && files.length > 1))
    throw new UsageError(
      sub === 'parse'
        ? 'quire einvoice parse takes one FILE.'
        : 'quire einvoice validate needs at least one FILE.',
    );
  // An operator's own files on their own machine: no other team to protect, so a generous limit.
  const einvoices = new ReceivedEInvoices({
    threads: 1,
    timeMs: CLI_TIME_LIMIT_MS,
    rules: new CompiledRules(rulesDirOf(process.env)),
  });
  try {
    const results = [];
    for (const file of files) results.push(await checkFile(einvoices, file, sub));
    const output = results.length === 1 ? results[0]?.json : results.map((r) => r.json);
    print(JSON.stringify(output, null, 2));
    if (results.some((r) => !r.ok)) process.exitCode = 1;
  } finally {
    await einvoices.close();
  }
}
