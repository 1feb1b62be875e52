import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfInfoFields, pdfText } from '../../helpers/pdf.js';
import { renderedPdf, serverForBlock, type TestServer } from '../../helpers/server.js';

/**
 * The invariant of docs/tenant-isolation.md, through the API: whatever team A sends through an input that
 * reaches a shared resource (the page pool, the Liquid workers, print mode's in-page code), team B's next
 * document is what it is on a fresh service — its text, page count and metadata. One pool page, so B's
 * documents land on the page A's used.
 */
describe('cross-tenant: team B gets the same document after team A did its worst', () => {
  let server: TestServer;
  serverForBlock((s) => (server = s), { renderPoolSize: 1 });

  /** What a reader of the PDF notices: its text, pages and document information. */
  async function seen(key: string, body: Record<string, unknown>) {
    const r = await renderedPdf(server, key, body);
    const info = await pdfInfoFields(r.buffer);
    return {
      text: (await pdfText(r.buffer)).replace(/\s+/g, ' ').trim(),
      pages: info.Pages,
      title: info.Title,
      author: info.Author,
      creator: info.Creator,
      producer: info.Producer,
      warnings: r.headers.get('x-warnings'),
    };
  }

  /** B's documents before and after A's attempts must be equal. */
  async function unchangedAfter(attack: (aKey: string) => Promise<void>, bBodies: Record<string, unknown>[]) {
    const a = await server.team('growth');
    const b = await server.team('growth');
    const fresh = await Promise.all(bBodies.map((body) => seen(b.live, body)));
    await attack(a.live);
    for (const [i, body] of bBodies.entries())
      assert.deepEqual(await seen(b.live, body), fresh[i], `B's document ${i + 1} after team A`);
  }

  it('the page pool: A patches the page through wait_for.expression and its scripts', async () => {
    const hostile = `(() => {
      const write = Document.prototype.write;
      Document.prototype.write = function (html) { return write.call(this, String(html).replace(/Invoice/g, 'PWNED')); };
      Object.prototype.injected = 'A';
      window.__leak = 'A-GLOBAL';
      setInterval(() => { document.title = 'A-TIMER'; window.name = 'A-TIMER'; }, 1);
      return true;
    })()`;
    await unchangedAfter(
      async (aKey) => {
        for (let i = 0; i < 6; i++)
          await renderedPdf(server, aKey, {
            html: `<p>A ${i}</p><script>Array.prototype.map = () => []; window.name = 'A-NAME';</script>`,
            wait_for: { expression: hostile },
          });
      },
      [
        { html: '<title>Invoice 7</title><h1>Invoice 7</h1><p>Total 12.00</p>' },
        {
          html: '<h1>Invoice 8</h1><p id="out"></p><script>document.getElementById("out").textContent = [typeof window.__leak, window.name || "empty", ({}).injected || "clean"].join(" ");</script>',
        },
        {
          html: '<p id="s">waiting</p><script>window.ready = true</script>',
          wait_for: { expression: 'window.ready === true' },
        },
      ],
    );
  });

  it('the Liquid workers: A assigns, captures and sends the names B uses', async () => {
    await unchangedAfter(
      async (aKey) => {
        for (let i = 0; i < 4; i++)
          await renderedPdf(server, aKey, {
            html: `{% assign greeting = 'A-SECRET' %}{% capture note %}A-NOTE{% endcapture %}<p>{{ greeting }} {{ note }} {{ data.x }}</p>`,
            // `__proto__` and `constructor.prototype` keys never get this far: the JSON parser refuses them.
            data: { data: { x: 1 }, polluted: 'A-DATA', customer: { name: 'A-NAME', polluted: 'A' } },
          });
      },
      [
        {
          html: '<p>[{{ greeting }}|{{ note }}|{{ polluted }}|{{ customer.polluted }}|{{ customer.name }}]</p>',
          data: { customer: { name: 'Ada' } },
        },
      ],
    );
  });

  it("print mode's in-page code: A's running elements and page rules do not reach B's print document", async () => {
    const printPage = (who: string) => `<style>
        .head { position: running(head); } @page { @top-center { content: element(head); } }
        h1 { string-set: title content(text); }
      </style><div class="head">${who} header</div><h1>${who} title</h1><p>${who} body</p>`;
    await unchangedAfter(
      async (aKey) => {
        for (let i = 0; i < 3; i++)
          await renderedPdf(server, aKey, {
            html: `${printPage('A')}<style>@page { @bottom-center { content: "A-FOOTER" } } body::after { content: "A-AFTER" }</style>`,
            mode: 'print',
          });
      },
      [{ html: printPage('B'), mode: 'print' }],
    );
  });
});
