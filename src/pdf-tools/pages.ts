import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../shared/errors.js';
import { fileIn, inTempDir, runTool, type ToolBudget } from './tools.js';

/**
 * A page selection (`3,1-2,5-`, `last`) as 1-based page numbers in its order, against a document of `total`
 * pages: a page outside the document names `field`.
 */
export function selectPages(selection: string, total: number, field: string): number[] {
  const number = (token: string) => (token === 'last' ? total : Number(token));
  const out: number[] = [];
  for (const part of selection.split(',')) {
    const m = /^\s*(\d+|last)\s*(-\s*(\d+|last)?)?\s*$/.exec(part);
    if (!m)
      throw new AppError(
        'invalid_request',
        `"${field}": "${part.trim()}" is not a page or a range (e.g. 3, 1-2, 5-, last).`,
        {
          field,
        },
      );
    const from = number(m[1] ?? '');
    const to = m[2] === undefined ? from : m[3] === undefined ? total : number(m[3]);
    for (const page of [from, to])
      if (page < 1 || page > total)
        throw new AppError(
          'invalid_request',
          `"${field}": page ${page} is outside the document, which has ${total} page${total === 1 ? '' : 's'}.`,
          { field },
        );
    const step = to >= from ? 1 : -1;
    for (let page = from; page !== to + step; page += step) out.push(page);
    if (out.length > 10_000)
      throw new AppError('invalid_request', `"${field}" selects more than 10,000 pages.`, { field });
  }
  return out;
}

/** qpdf writing `args` over the file (the input first, `out.pdf` where `{out}` stands) within the write budget; the output. */
async function qpdfWrite(
  pdf: Buffer,
  budget: ToolBudget,
  args: (input: string, output: string) => string[],
): Promise<Buffer> {
  return inTempDir(async (dir) => {
    const input = await fileIn(dir, 'in.pdf', pdf);
    const output = path.join(dir, 'out.pdf');
    // Streams are copied as they are: re-encoding lets a small hostile stream inflate without end.
    await runTool('qpdf', ['--warning-exit-0', '--stream-data=preserve', ...args(input, output)], {
      timeMs: budget.writeMs,
    });
    return readFile(output);
  });
}

/** The file with only `pages` (1-based), in that order; document-level parts (Info, forms) kept. */
export function keepPages(pdf: Buffer, pages: number[], budget: ToolBudget): Promise<Buffer> {
  return qpdfWrite(pdf, budget, (input, output) => [input, '--pages', '.', pages.join(','), '--', output]);
}

/** The file with `pages` (1-based; all when null) turned clockwise by `degrees`. */
export function rotatePages(
  pdf: Buffer,
  pages: number[] | null,
  degrees: number,
  budget: ToolBudget,
): Promise<Buffer> {
  const range = pages === null ? '' : `:${pages.join(',')}`;
  return qpdfWrite(pdf, budget, (input, output) => [input, output, `--rotate=+${degrees}${range}`]);
}
