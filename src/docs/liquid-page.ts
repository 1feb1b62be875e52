import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../shared/package-root.js';

/** docs/liquid-filters.md, the one source of the filter reference (also read on GitHub). */
export function liquidReferencePath(): string {
  return path.join(packageRoot(), 'docs', 'liquid-filters.md');
}

let cached: string | undefined;

/**
 * GET /docs/liquid: the Liquid and filter reference as a page, linked from the dashboard's editor. The
 * markdown is turned into HTML once (it is part of the installed version, not edited at run time).
 */
export function renderLiquidPage(): string {
  cached ??= page(markdownToHtml(readFileSync(liquidReferencePath(), 'utf8')));
  return cached;
}

function page(body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Liquid in Quire: filters and warnings</title>
<style>body{font:15px/1.55 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#18202a}
h1,h2,h3{line-height:1.25}h3{margin-top:2rem}h2{margin-top:2.5rem;border-bottom:1px solid #d5dbe3;padding-bottom:.25rem}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}td,th{border-bottom:1px solid #d5dbe3;padding:.4rem .6rem;text-align:left;vertical-align:top}
code{font:13.5px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef1f5;border-radius:4px;padding:0 .2em}
a{color:#0b5cad}:target{background:#fff6e0}nav{font-size:14px}</style></head>
<body><nav><a href="/">Dashboard</a> · <a href="/docs">API reference</a> · <a href="/docs/errors">Errors</a></nav>
${body}
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A heading's anchor: `### \`money: currency, locale\`` → `money`, so `/docs/liquid#money` links a filter. */
function slug(text: string): string {
  const code = /^`([a-z_]+)/.exec(text)?.[1];
  return (
    code ??
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
  );
}

/** Inline markdown: code spans (verbatim), bold and links; everything else is escaped text. */
function inline(text: string): string {
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length >= 2) {
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      }
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+|\/[^)\s]*|#[^)\s]*)\)/g, '<a href="$2">$1</a>');
    })
    .join('');
}

/** A table row's cells; `\|` is a pipe inside a cell (the file writes Liquid's filter pipe that way). */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/**
 * The markdown the reference uses (headings, paragraphs, bullet lists with indented continuation lines,
 * pipe tables, inline code, bold, links) as HTML. Not a general markdown parser: a test renders the real
 * file and checks its filters and tables come out.
 */
export function markdownToHtml(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    if (line.trim() === '') {
      i++;
    } else if (heading) {
      const level = heading[1]!.length;
      const text = heading[2]!;
      out.push(`<h${level} id="${escapeHtml(slug(text))}">${inline(text)}</h${level}>`);
      i++;
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.startsWith('|')) rows.push(cells(lines[i++]!));
      const [head, , ...body] = rows;
      out.push(
        `<table><thead><tr>${(head ?? []).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>`,
        ...body.map((row) => `<tr>${row.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`),
        '</tbody></table>',
      );
    } else if (line.startsWith('- ')) {
      const items: string[] = [];
      while (i < lines.length && (lines[i]!.startsWith('- ') || lines[i]!.startsWith('  '))) {
        const next = lines[i++]!;
        if (next.startsWith('- ')) items.push(next.slice(2));
        else items[items.length - 1] += ` ${next.trim()}`;
      }
      out.push(`<ul>${items.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    } else {
      const paragraph: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== '' && !/^(#|\||- )/.test(lines[i]!)) {
        paragraph.push(lines[i++]!.trim());
      }
      out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}
