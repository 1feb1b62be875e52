import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/**
 * Sizes that keep the code easy to read and to change: no function
 * in src/ over 150 lines, no source file in src/ or web/src/ over 20 KB. Tests are exempt: a test file's
 * describe block is a list of cases, not logic to follow.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_FUNCTION_LINES = 150;
const MAX_FILE_BYTES = 20 * 1024;

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full, keep);
    return keep(entry.name) ? [full] : [];
  });
}

const isSource = (name: string) => /\.(ts|tsx|css)$/.test(name) && !/\.(test|d)\.tsx?$/.test(name);

/** Every function-like node with a body, and the lines it spans. */
function functionSpans(file: string): { name: string; lines: number }[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind);
  const spans: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      spans.push({ name, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

describe('code size', () => {
  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files(path.join(ROOT, 'src'), (name) => name.endsWith('.ts') && isSource(name)).flatMap(
      (file) =>
        functionSpans(file)
          .filter((span) => span.lines > MAX_FUNCTION_LINES)
          .map((span) => `${path.relative(ROOT, file)} ${span.name}: ${span.lines} lines`),
    );
    assert.deepEqual(long, [], 'split these into named functions');
  });

  it('no source file in src/ or web/src/ is over 20 KB', () => {
    const large = ['src', 'web/src']
      .flatMap((dir) => files(path.join(ROOT, dir), isSource))
      .filter((file) => statSync(file).size > MAX_FILE_BYTES)
      .map((file) => `${path.relative(ROOT, file)}: ${statSync(file).size} bytes`);
    assert.deepEqual(large, [], 'split these by what each part does');
  });

  it('finds a long function when there is one (the check can fail)', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES + 1 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const dir = path.join(ROOT, '.tmp');
    const file = path.join(dir, 'code-size-probe.ts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `export function tooLong() {\n${body}\n}\n`);
    assert.deepEqual(functionSpans(file), [{ name: 'tooLong', lines: MAX_FUNCTION_LINES + 3 }]);
  });
});
