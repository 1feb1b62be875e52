import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

/**
 * The README is a landing page and the guides live in docs/: every relative link between them (and to the
 * repository's files) leads somewhere, every `#anchor` names a heading of its file, the README stays short
 * and points at the guides, and docs/architecture.md names only files that exist.
 */

const root = path.resolve(import.meta.dirname, '../..');
const README_MAX_LINES = 600;
const MIN_GUIDES_LINKED = 5;

const docs = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const pages = ['README.md', ...docs];

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The lines of a Markdown text outside fenced code blocks, with their numbers. */
function proseLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) lines.push({ line, number: index + 1 });
  });
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Inline links `[text](target)` and `<a href>`s outside code (fenced blocks and `code spans`). */
function linksOf(text: string): { target: string; number: number }[] {
  return proseLines(text).flatMap(({ line, number }) => {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '');
    return [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)],
      ...[...prose.matchAll(/<a\s[^>]*href="([^"]+)"/g)],
    ].map((match) => ({ target: match[1] ?? '', number }));
  });
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

describe('README.md and docs/*.md', () => {
  it('link only to files that exist, and to headings their file has', () => {
    const problems: string[] = [];
    const anchorCache = new Map<string, Set<string>>();
    const anchorsIn = (file: string) => {
      let anchors = anchorCache.get(file);
      if (!anchors) {
        anchors = anchorsOf(read(file));
        anchorCache.set(file, anchors);
      }
      return anchors;
    };
    for (const page of pages) {
      for (const { target, number } of linksOf(read(page))) {
        if (isExternal(target)) continue;
        const [filePart = '', anchor] = target.split('#', 2);
        const file =
          filePart === ''
            ? page
            : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(filePart)));
        const where = `${page}:${number}: ${target}`;
        if (file.startsWith('../') || !existsSync(path.join(root, file))) {
          problems.push(`${where} — no file ${file}`);
          continue;
        }
        if (anchor === undefined || anchor === '') continue;
        if (!file.endsWith('.md') || statSync(path.join(root, file)).isDirectory()) continue;
        if (!anchorsIn(file).has(decodeURIComponent(anchor)))
          problems.push(`${where} — ${file} has no heading with the anchor #${anchor}`);
      }
    }
    assert.deepEqual(problems, [], `\nBroken links:\n  ${problems.join('\n  ')}`);
  });
});

describe('README.md, the landing page', () => {
  const readme = read('README.md');

  it(`stays within ${README_MAX_LINES} lines (the guides live in docs/)`, () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; move sections into a guide in docs/`);
  });

  it(`links at least ${MIN_GUIDES_LINKED} guides in docs/`, () => {
    const guides = new Set(
      linksOf(readme)
        .map(({ target }) => target.split('#')[0] ?? '')
        .filter((target) => /^(\.\/)?docs\/[^/]+\.md$/.test(target))
        .map((target) => target.replace(/^\.\//, ''))
        .filter((target) => existsSync(path.join(root, target))),
    );
    assert.ok(
      guides.size >= MIN_GUIDES_LINKED,
      `README.md links ${guides.size} guides (${[...guides].join(', ')}); at least ${MIN_GUIDES_LINKED} expected`,
    );
  });
});

describe('docs/architecture.md', () => {
  it('names only repository paths that exist', () => {
    const text = read('docs/architecture.md');
    const named = [...text.matchAll(/`((?:src|test|scripts|web)\/[^`\s]*)`/g)].map((match) => match[1] ?? '');
    assert.ok(named.length > 0, 'docs/architecture.md names no src/… file');
    const missing = [...new Set(named)].filter((file) => !existsSync(path.join(root, file)));
    assert.deepEqual(
      missing,
      [],
      `\nPaths in docs/architecture.md that do not exist:\n  ${missing.join('\n  ')}`,
    );
  });
});
