// The start-up baseline of `npm run bench`'s start section, run as its own plain-JS process (no tsx, as
// Quire runs from dist/): what a fresh Node process needs to print one invoice with raw playwright-core
// (import, launch, a context and page, setContent, page.pdf). Prints "done" when the PDF is in hand, then
// its phases as JSON (ms since the process started: imported, launched, page, pdf); the parent times
// spawn → "done". Arguments: CHROMIUM_PATH HTML_FILE CHROMIUM_ARGS_JSON.
import { readFileSync } from 'node:fs';

const [chromiumPath, htmlFile, argsJson] = process.argv.slice(2);
if (!chromiumPath || !htmlFile || !argsJson) throw new Error('usage: raw-start.mjs CHROMIUM HTML ARGS_JSON');
const phases = {};
const mark = (name) => {
  phases[name] = Math.round(performance.now());
};
const { chromium } = await import('playwright-core');
mark('imported');
const browser = await chromium.launch({ executablePath: chromiumPath, args: JSON.parse(argsJson) });
mark('launched');
const page = await (await browser.newContext()).newPage();
mark('page');
await page.setContent(readFileSync(htmlFile, 'utf8'));
const pdf = await page.pdf({ format: 'A4', printBackground: true });
if (pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error('raw start: no PDF');
mark('pdf');
process.stdout.write(`done ${JSON.stringify(phases)}\n`);
await browser.close();
