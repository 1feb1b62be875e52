import { PDFName } from '@cantoo/pdf-lib';
import { listed, type Outcome } from './outcome.js';
import { nonEmptyText } from './pdf-values.js';
import type { StructElement, StructureTree } from './structure-tree.js';

/** The checks that read the structure tree's elements: figure alternatives, table headers, heading levels. */

function noTree(tree: StructureTree): Outcome | undefined {
  return tree.present ? undefined : { count: 0, detail: 'no structure tree to check (see structure_tree)' };
}

export function checkFigureAlt(tree: StructureTree): Outcome {
  const absent = noTree(tree);
  if (absent) return absent;
  const figures = tree.elements.filter((e) => e.type === 'Figure');
  const missing = figures.filter(
    (e) =>
      !nonEmptyText(e.dict.lookup(PDFName.of('Alt'))) &&
      !nonEmptyText(e.dict.lookup(PDFName.of('ActualText'))),
  );
  const detail =
    missing.length > 0
      ? `${missing.length} of ${figures.length} <Figure> elements have neither /Alt nor /ActualText`
      : `${figures.length} <Figure> elements`;
  return { count: missing.length, detail };
}

/** Whether the table at `index` has a TH of its own: one inside a nested table belongs to that table. */
function tableHasHeader(elements: StructElement[], index: number): boolean {
  const table = elements[index];
  if (!table) return false;
  for (let i = index + 1; i < table.end; i++) {
    const element = elements[i];
    if (!element) break;
    if (element.type === 'TH') return true;
    if (element.type === 'Table') i = element.end - 1;
  }
  return false;
}

export function checkTableHeaders(tree: StructureTree): Outcome {
  const absent = noTree(tree);
  if (absent) return absent;
  const tables = tree.elements.flatMap((e, i) => (e.type === 'Table' ? [i] : []));
  const without = tables.filter((i) => !tableHasHeader(tree.elements, i)).length;
  const detail =
    without > 0
      ? `${without} of ${tables.length} <Table> elements have no <TH>`
      : `${tables.length} <Table> elements`;
  return { count: without, detail };
}

/** A heading level deeper than the one before by more than one; the first heading comes after "level 0". */
export function checkHeadingLevels(tree: StructureTree): Outcome {
  const absent = noTree(tree);
  if (absent) return absent;
  const levels = tree.elements.flatMap((e) => (/^H[1-6]$/.test(e.type) ? [Number(e.type.slice(1))] : []));
  const skips: string[] = [];
  let previous = 0;
  for (const level of levels) {
    if (level > previous + 1)
      skips.push(previous === 0 ? `the first heading is H${level}` : `H${previous} → H${level}`);
    previous = level;
  }
  const detail = skips.length > 0 ? listed(skips) : `${levels.length} numbered headings`;
  return { count: skips.length, detail };
}
