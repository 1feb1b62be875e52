import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../shared/errors.js';
import type { ProtectOption } from './schema.js';

const run = promisify(execFile);
const QPDF_TIMEOUT_MS = 30_000;

const yn = (allowed: boolean | undefined) => (allowed === false ? 'n' : 'y');

/** qpdf's `--encrypt U O 256 … --` arguments, one per line of its argument file. */
export function encryptArguments(protect: ProtectOption, input: string, output: string): string[] {
  const p = protect.permissions ?? {};
  return [
    input,
    '--encrypt',
    protect.user_password ?? '',
    protect.owner_password,
    '256',
    `--print=${p.print === 'high' || p.print === undefined ? 'full' : p.print}`,
    `--extract=${yn(p.copy)}`,
    `--modify-other=${yn(p.modify)}`,
    `--annotate=${yn(p.annotate)}`,
    `--form=${yn(p.fill_forms)}`,
    `--assemble=${yn(p.assemble)}`,
    '--',
    output,
  ];
}

/**
 * `protect`: AES-256 (R6) encryption by qpdf. The passwords reach qpdf in an argument file (`@file`,
 * mode 0600 in a private temporary folder, deleted after) so they never appear in `ps`; they are not
 * logged, stored or returned, and qpdf's own messages are not passed on.
 */
export async function protectPdf(pdf: Buffer, protect: ProtectOption): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-protect-'));
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    const args = path.join(dir, 'args');
    await writeFile(input, pdf, { mode: 0o600 });
    await writeFile(args, `${encryptArguments(protect, input, output).join('\n')}\n`, { mode: 0o600 });
    try {
      await run('qpdf', [`@${args}`], { timeout: QPDF_TIMEOUT_MS });
    } catch (err) {
      // Exit code 3: warnings only, the output was written.
      if ((err as { code?: unknown }).code !== 3)
        throw new AppError('render_failed', 'The PDF could not be encrypted (qpdf failed).');
    }
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
