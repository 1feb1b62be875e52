import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/**
 * The folder rules, read from the import statements of every non-test file under src/:
 * no cycle between top-level folders, the composition root (src/app.ts) imported only by the CLI,
 * playwright-core only inside src/render/; a folder reached from outside only through its `index.ts`
 * (the toolkit folders excepted), no route file imported from another folder, `einvoice/` standing on
 * `shared/` alone, and the request schema several capabilities share kept out of `pdf/`.
 *
 * Type-only imports count like any other: a type names the module that owns it, so importing it ties the two
 * folders together just the same (the in-page port must not expose playwright's types either). The one
 * exception is src/storage/schema.ts, which composes the database type from each capability's `tables.ts`:
 * those files are pure type declarations, and a type-only import of them from schema.ts is not an edge.
 */

const SRC = path.resolve(import.meta.dirname, '../../src');
/** Folders every capability may use; they must not import a capability themselves. */
const LEAVES = new Set(['shared', 'storage', 'config']);
/**
 * Toolkits of independent modules rather than capabilities: each file is its own public module, and a
 * barrel would make every importer (worker threads included) load all of them.
 */
const TOOLKITS = new Set(['shared', 'config', 'http']);
/**
 * Deep imports kept on purpose: code that must load light. An index.ts loads its whole folder (routes
 * included) and, through their imports, most of the service.
 * - `quire serve` checks the plans file and starts Chromium before it loads the service;
 * - the untrusted-file worker thread loads only the parsers it runs.
 */
const DEEP_IMPORTS_ALLOWED = new Set([
  'cli/startup-problem.ts → accounts/plans.ts',
  'cli/serve.ts → render/early-start.ts',
  'untrusted/worker.ts → batches/spreadsheet.ts',
  'untrusted/worker.ts → brand/files.ts',
  'untrusted/worker.ts → certificates/pkcs12.ts',
]);

interface Import {
  /** Importing file, relative to src/. */
  from: string;
  /** Imported file relative to src/, or the package name for a bare specifier. */
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The module specifiers of a file: static imports, re-exports and dynamic `import()` with a literal. */
function specifiersOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypeOnly =
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly) &&
        !clause?.name;
      found.push({
        specifier: node.moduleSpecifier.text,
        typeOnly: !!clause?.isTypeOnly || allNamedTypeOnly,
      });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push({ specifier: literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier as a path under src/ (`./x.js` is the file `x.ts`); a package name as it is. */
function resolve(fromFile: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier.startsWith('node:') ? specifier : packageName(specifier);
  const target = path.resolve(path.dirname(fromFile), specifier);
  const asTs = target.replace(/\.js$/, '.ts');
  return path.relative(SRC, existsSync(asTs) ? asTs : target);
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const IMPORTS: Import[] = sourceFiles(SRC).flatMap((file) =>
  specifiersOf(file).map(({ specifier, typeOnly }) => ({
    from: path.relative(SRC, file),
    to: resolve(file, specifier),
    typeOnly,
  })),
);

const isInSrc = (target: string) => !target.startsWith('..') && /\.(ts|js)$/.test(target);

/** Top-level folder of a file under src/; a file directly in src/ (app.ts) is its own node. */
const folderOf = (file: string) => file.split('/')[0] ?? file;

/** schema.ts composing the capabilities' table types: allowed (see the header comment). */
const isSchemaComposition = (i: Import) =>
  i.from === 'storage/schema.ts' && i.typeOnly && /^[^/]+\/tables\.ts$/.test(i.to);

/** Folder → folder → the imports that make the edge. */
function folderGraph(): Map<string, Map<string, Import[]>> {
  const graph = new Map<string, Map<string, Import[]>>();
  for (const i of IMPORTS) {
    if (!isInSrc(i.to) || isSchemaComposition(i)) continue;
    const [a, b] = [folderOf(i.from), folderOf(i.to)];
    if (a === b) continue;
    const edges = graph.get(a) ?? new Map<string, Import[]>();
    edges.set(b, [...(edges.get(b) ?? []), i]);
    graph.set(a, edges);
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan): each is at least one cycle. */
function cycles(graph: Map<string, Map<string, Import[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return components;
}

const describeImport = (i: Import) => `src/${i.from} → src/${i.to}${i.typeOnly ? ' (type-only)' : ''}`;

/** Imports from one top-level folder (or app.ts) into another folder's files. */
const CROSS_FOLDER = IMPORTS.filter(
  (i) => isInSrc(i.to) && i.to.includes('/') && folderOf(i.from) !== folderOf(i.to),
);

const offendersMessage = (rule: string, offenders: Import[]) =>
  `\n${rule}:\n  ${offenders.map(describeImport).join('\n  ')}`;

describe('src/ folder structure', () => {
  it('has no import cycle between top-level folders', () => {
    const graph = folderGraph();
    const problems: string[] = [];
    for (const component of cycles(graph)) {
      problems.push(`cycle between ${component.join(', ')}:`);
      for (const a of component) {
        for (const [b, imports] of graph.get(a) ?? []) {
          if (!component.includes(b)) continue;
          const more = imports.length > 2 ? ` (+${imports.length - 2} more)` : '';
          problems.push(`  ${a} → ${b}: ${imports.slice(0, 2).map(describeImport).join('; ')}${more}`);
        }
      }
    }
    for (const leaf of LEAVES) {
      for (const [b, imports] of graph.get(leaf) ?? []) {
        if (LEAVES.has(b)) continue;
        problems.push(
          `${leaf}/ must stay a leaf but imports ${b}: ${imports.slice(0, 3).map(describeImport).join('; ')}`,
        );
      }
    }
    assert.ok(problems.length === 0, `\n${problems.join('\n')}`);
  });

  it('imports the composition root src/app.ts only from src/cli/', () => {
    const offenders = IMPORTS.filter((i) => i.to === 'app.ts' && folderOf(i.from) !== 'cli').map(
      describeImport,
    );
    assert.ok(offenders.length === 0, `\nsrc/app.ts imported outside src/cli/:\n  ${offenders.join('\n  ')}`);
  });

  it('reaches another folder only through its index.ts', () => {
    const offenders = CROSS_FOLDER.filter(
      (i) =>
        !/^[^/]+\/index\.ts$/.test(i.to) &&
        !TOOLKITS.has(folderOf(i.to)) &&
        !isSchemaComposition(i) &&
        !DEEP_IMPORTS_ALLOWED.has(`${i.from} → ${i.to}`),
    );
    assert.ok(
      offenders.length === 0,
      offendersMessage("imports past another folder's index.ts (export what is needed from it)", offenders),
    );
  });

  it("imports no other folder's route file", () => {
    // A folder's routes are registered by its own capability (createX in its index.ts). The composition
    // root (app.ts, no folder) registers the server's own routes: health, docs, metrics.
    const offenders = CROSS_FOLDER.filter(
      (i) => folderOf(i.from) !== 'app.ts' && /(^|[/-])routes\.ts$/.test(i.to),
    );
    assert.ok(offenders.length === 0, offendersMessage("imports of another folder's route file", offenders));
  });

  it('keeps einvoice/ on shared/ alone', () => {
    const offenders = CROSS_FOLDER.filter(
      (i) => folderOf(i.from) === 'einvoice' && folderOf(i.to) !== 'shared',
    );
    assert.ok(offenders.length === 0, offendersMessage('einvoice/ imports beyond shared/', offenders));
  });

  it('keeps the shared request schema out of pdf/', () => {
    // Page options, deliver and capture fields serve templates and batches as much as POST /pdf: they live
    // in production/, and nothing outside pdf/ (but app.ts, which wires it) depends on pdf/.
    const offenders = IMPORTS.filter(
      (i) => isInSrc(i.to) && folderOf(i.to) === 'pdf' && !['pdf', 'app.ts'].includes(folderOf(i.from)),
    );
    assert.ok(offenders.length === 0, offendersMessage('imports of pdf/ from other folders', offenders));
  });

  it('imports playwright-core only inside src/render/', () => {
    const offenders = IMPORTS.filter((i) => i.to === 'playwright-core' && folderOf(i.from) !== 'render').map(
      (i) => `src/${i.from}${i.typeOnly ? ' (type-only)' : ''}`,
    );
    assert.ok(
      offenders.length === 0,
      `\nplaywright-core imported outside src/render/:\n  ${offenders.join('\n  ')}`,
    );
  });
});
