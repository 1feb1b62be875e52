import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { type LocalPdf, localPdfTools } from '../pdf-tools/index.js';
import { AppError } from '../shared/errors.js';
import { commandFlags } from './flags.js';
import { UsageError } from './usage-error.js';

type Print = (line: string) => void;

async function readPdf(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`No such file: ${file}`);
    throw err;
  }
}

/** One file's answer, or the API's refusal of it (code, message, field) as JSON. */
async function perFile<T>(file: string, work: () => Promise<T>): Promise<{ ok: boolean; json: unknown }> {
  try {
    return { ok: true, json: { file, ...(await work()) } };
  } catch (err) {
    if (err instanceof AppError)
      return { ok: false, json: { file, error: { code: err.code, message: err.message, ...err.details } } };
    throw err;
  }
}

function printAll(print: Print, results: { ok: boolean; json: unknown }[]): void {
  print(JSON.stringify(results.length === 1 ? results[0]?.json : results.map((r) => r.json), null, 2));
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

async function inspect(args: string[], print: Print, tools: LocalPdf): Promise<void> {
  const { values, positionals } = commandFlags(
    args,
    { password: { type: 'string' }, text: { type: 'boolean' } },
    true,
  );
  if (positionals.length === 0) throw new UsageError('quire pdf inspect needs at least one FILE.');
  const results = [];
  for (const file of positionals)
    results.push(
      await perFile(file, async () =>
        tools.inspect(await readPdf(file), { password: values.password, text: values.text === true }),
      ),
    );
  printAll(print, results);
}

/** `--steps` as JSON text or `@file.json`, checked against the API's step schema. */
async function stepsOf(text: string | undefined, tools: LocalPdf): Promise<unknown[]> {
  if (!text)
    throw new UsageError(
      'quire pdf transform needs --steps \'[{"op": "rotate", …}]\' (or --steps @steps.json).',
    );
  const json = text.startsWith('@') ? await readFile(text.slice(1), 'utf8') : text;
  let steps: unknown;
  try {
    steps = JSON.parse(json);
  } catch {
    throw new UsageError(
      '--steps is not JSON: send an array of steps, e.g. [{"op": "rotate", "pages": "all", "degrees": 90}].',
    );
  }
  if (!Array.isArray(steps) || !Value.Check(tools.stepsSchema, steps))
    throw new UsageError(
      '--steps must be an array of 1 to 20 steps as POST /v1/pdf/transform takes them (docs/pdf-tools.md).',
    );
  return steps;
}

async function transform(args: string[], print: Print, tools: LocalPdf): Promise<void> {
  const { values, positionals } = commandFlags(
    args,
    { steps: { type: 'string' }, out: { type: 'string' }, password: { type: 'string' } },
    true,
  );
  if (positionals.length !== 1) throw new UsageError('quire pdf transform takes one FILE.');
  const [file = ''] = positionals;
  const steps = await stepsOf(values.steps, tools);
  const out = values.out ?? path.join(path.dirname(file), `${path.parse(file).name}-transformed.pdf`);
  const result = await perFile(file, async () => {
    const made = await tools.transform(await readPdf(file), steps, { password: values.password });
    await writeFile(out, made.pdf);
    return { out, pages: made.pages, bytes: made.pdf.length };
  });
  printAll(print, [result]);
}

async function split(args: string[], print: Print, tools: LocalPdf): Promise<void> {
  const { values, positionals } = commandFlags(
    args,
    {
      ranges: { type: 'string' },
      every: { type: 'string' },
      'out-dir': { type: 'string' },
      password: { type: 'string' },
    },
    true,
  );
  if (positionals.length !== 1) throw new UsageError('quire pdf split takes one FILE.');
  const [file = ''] = positionals;
  const every = values.every === undefined ? undefined : Number(values.every);
  if (every !== undefined && (!Number.isInteger(every) || every < 1))
    throw new UsageError('--every takes a whole number of pages, e.g. --every 2.');
  const ranges = values.ranges?.split(';').map((r) => r.trim());
  const dir = values['out-dir'] ?? path.dirname(file);
  const result = await perFile(file, async () => {
    const parts = await tools.split(await readPdf(file), { ranges, every, password: values.password });
    const written = [];
    for (const [i, part] of parts.entries()) {
      const name = path.join(dir, `${path.parse(file).name}-${i + 1}.pdf`);
      await writeFile(name, part.pdf);
      written.push({ file: name, pages: part.pages });
    }
    return { parts: written };
  });
  printAll(print, [result]);
}

/**
 * `quire pdf inspect|transform|split FILE…` (docs/pdf-tools.md): the PDF tools of the API on this machine,
 * without a server, for operators' own files; JSON out, exit code 1 when a file is refused. The steps that
 * need a team (merging stored documents, `sign` with a team certificate) are the API's only.
 */
export async function pdfCommand(rest: string[], print: Print): Promise<void> {
  const [sub, ...args] = rest;
  const tools = await localPdfTools();
  if (sub === 'inspect') return inspect(args, print, tools);
  if (sub === 'transform') return transform(args, print, tools);
  if (sub === 'split') return split(args, print, tools);
  throw new UsageError(
    'Usage: quire pdf inspect FILE… | quire pdf transform FILE --steps JSON | quire pdf split FILE',
  );
}
