import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Renderer, RenderJob } from '../../../src/render/index.js';
import { pdfInfoFields, pdfText } from '../../helpers/pdf.js';
import { job, RED_PNG, startRenderer, type TestServer, testServer } from './helpers.js';

// One pool page, so document B always lands on the page document A used.
let renderer: Renderer;
let server: TestServer;
let counted = 0;

const storagePage = (mode: 'set' | 'read') => `<!DOCTYPE html><body><script>
  let ls = 'none';
  try { ${mode === 'set' ? "localStorage.setItem('k', 'A-LS'); document.cookie = 'k=A-COOKIE';" : ''} ls = localStorage.getItem('k'); } catch (e) { ls = 'denied'; }
  document.body.textContent = '${mode.toUpperCase()} cookie=' + (document.cookie || 'none') + ' ls=' + ls;
</script></body>`;

before(async () => {
  server = await testServer({
    '/set': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(storagePage('set')),
    '/read': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(storagePage('read')),
    // Holds the load event (and so the render) until a document's asynchronous state calls are done.
    '/hold.png': (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG), 500);
    },
    '/counted.png': (_req, res) => {
      counted += 1;
      res
        .writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' })
        .end(RED_PNG);
    },
  });
  renderer = await startRenderer({ renderPoolSize: 1, allowPrivateResources: true });
});
after(async () => {
  await renderer.close();
  await server.close();
});

const text = async (html: string) =>
  (await pdfText((await renderer.render(job(html))).pdf)).replace(/\s+/g, ' ');

/** Document A of one tenant: sets every kind of state a page keeps, and reports what took. */
const setEverything = () => `<body><script>
  const out = [];
  const attempt = (name, fn) => { try { fn(); out.push(name + ':set'); } catch (e) { out.push(name + ':refused'); } };
  attempt('name', () => { window.name = 'A-NAME'; });
  attempt('session', () => sessionStorage.setItem('k', 'A-SESSION'));
  attempt('local', () => localStorage.setItem('k', 'A-LOCAL'));
  attempt('cookie', () => { document.cookie = 'k=A-COOKIE'; });
  attempt('history', () => { history.pushState({}, '', '#A-HASH'); history.pushState({}, '', '#A-HASH2'); });
  attempt('idb', () => { indexedDB.open('A-IDB'); });
  const later = (name, p) => p.then(() => out.push(name + ':set'), () => out.push(name + ':refused'));
  const pending = [];
  try { pending.push(later('cache', caches.open('A-CACHE'))); } catch (e) { out.push('cache:refused'); }
  try { pending.push(later('sw', navigator.serviceWorker.register('/sw.js'))); } catch (e) { out.push('sw:refused'); }
  // Keeps writing the name after the document is gone, until its Window is.
  setInterval(() => { window.name = 'A-TIMER'; }, 1);
  Promise.allSettled(pending).then(() => document.body.append('A ' + out.join(' ') + ' name=' + window.name));
</script><img src="${server.origin}/hold.png"></body>`;

/** Document B of another tenant: reads every kind of state back. */
const readEverything = () => `<body><script>
  const out = [];
  const read = (name, fn) => { try { out.push(name + '=' + fn()); } catch (e) { out.push(name + '=refused'); } };
  read('name', () => window.name || 'empty');
  read('session', () => sessionStorage.getItem('k'));
  read('local', () => localStorage.getItem('k'));
  read('cookie', () => document.cookie || 'empty');
  read('history', () => history.length);
  read('hash', () => location.hash || 'empty');
  read('referrer', () => document.referrer || 'empty');
  const later = (name, p) => p.then((v) => out.push(name + '=' + (JSON.stringify(v) || 'empty')), () => out.push(name + '=refused'));
  const pending = [];
  try { pending.push(later('idb', indexedDB.databases().then((list) => list.map((d) => d.name)))); } catch (e) { out.push('idb=refused'); }
  try { pending.push(later('cache', caches.keys())); } catch (e) { out.push('cache=refused'); }
  try { pending.push(later('sw', navigator.serviceWorker.getRegistrations().then((l) => l.length))); } catch (e) { out.push('sw=refused'); }
  Promise.allSettled(pending).then(() => document.body.append('B ' + out.join(' ')));
</script><img src="${server.origin}/hold.png"></body>`;

describe('isolation between documents on the same page', () => {
  it('nothing a document of one tenant stores in the page reaches the next two documents', async () => {
    const a = await text(setEverything());
    assert.match(a, /A .*name:set.* name=A-(NAME|TIMER)/, a);
    for (const render of ['first', 'second']) {
      const b = await text(readEverything());
      assert.match(b, /^\s*B /, b);
      assert.doesNotMatch(b, /A-/, `${render} render after A: ${b}`);
      assert.match(b, /name=empty/, b);
      assert.match(b, /history=1 /, b);
      assert.match(b, /cookie=(empty|refused)/, b);
      assert.match(b, /referrer=empty/, b);
    }
  });

  it('a window global and a prototype change of document A are gone in document B', async () => {
    const a = await text(`<script>window.__tenant = 'A-SECRET'; Object.prototype.polluted = 'yes';
      document.write('A sees ' + window.__tenant + ' ' + ({}).polluted)</script>`);
    assert.match(a, /A sees A-SECRET yes/);
    const b = await text(
      `<script>document.write('B sees ' + typeof window.__tenant + ' ' + ({}).polluted)</script>`,
    );
    assert.match(b, /B sees undefined undefined/);
  });

  it('a handler of a script-free document A that fires after printing cannot leave a global', async () => {
    const a = await text(`<style>@keyframes k { from { color: #000 } to { color: #111 } }</style>
      <div style="animation: k 1s" onanimationend="window.__late = 'A-LATE'">A</div>`);
    assert.match(a, /A/);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the animation's end
    const b = await text(`<script>document.write('B late ' + typeof window.__late)</script>`);
    assert.match(b, /B late undefined/);
  });

  // Documents live on an opaque about:blank origin, so an http frame is third-party: Chromium refuses
  // it cookies and storage outright. Should that ever change, B must still find nothing of A's.
  it('cookies and localStorage of document A’s frames do not reach document B', async () => {
    const a = await text(`<iframe src="${server.origin}/set"></iframe>`);
    assert.match(a, /SET cookie=(none|k=A-COOKIE) ls=(denied|A-LS)/, 'the frame of document A did not run');
    // A reached another origin, so its context is replaced; on a loaded machine making the new page can
    // take longer than this renderer's 3 s wait for a page, which is not what this test is about.
    await renderer.settled();
    const b = await text(`<iframe src="${server.origin}/read"></iframe>`);
    assert.match(b, /READ cookie=none ls=(null|denied)/);
  });

  it('nothing is served from a cache filled by document A', async () => {
    counted = 0;
    await text(`<img src="${server.origin}/counted.png"><p>A</p>`);
    await text(`<img src="${server.origin}/counted.png"><p>B</p>`);
    assert.equal(counted, 2);
  });
});

describe('caller code of wait_for.expression', () => {
  /** Team A's worst through its expression: patches the page's writers, leaves a global and a timer. */
  const HOSTILE_EXPRESSION = `(() => {
    const write = Document.prototype.write;
    Document.prototype.write = function (html) { return write.call(this, String(html).replace(/original/g, 'REWRITTEN')); };
    Element.prototype.append = function () {};
    window.__left = 'A-GLOBAL';
    setInterval(() => { document.title = 'A-TIMER'; window.name = 'A-TIMER'; }, 1);
    return true;
  })()`;
  const teamB = (html: string, extra: Partial<RenderJob> = {}) =>
    renderer.render(job(html, {}, { tenant: 'team-b', title: 'B title', ...extra }));
  const describePdf = async (pdf: Buffer) => {
    const info = await pdfInfoFields(pdf);
    return {
      text: (await pdfText(pdf)).replace(/\s+/g, ' ').trim(),
      pages: info.Pages,
      title: info.Title,
      author: info.Author,
      creator: info.Creator,
    };
  };

  it("cannot rewrite, read or outlive into another team's documents on the same page", async () => {
    const bHtml = '<h1>B original</h1><p>B original body</p>';
    const fresh = await describePdf((await teamB(bHtml)).pdf);
    assert.match(fresh.text, /B original B original body/);
    for (let i = 0; i < 3; i++) {
      const a = await renderer.render(
        job('<p>A original</p>', {}, { tenant: 'team-a', waitFor: { expression: HOSTILE_EXPRESSION } }),
      );
      assert.match(
        await pdfText(a.pdf),
        /A original/,
        "A's own document was loaded before its expression ran",
      );
    }
    for (let i = 0; i < 3; i++) {
      const b = await describePdf((await teamB(bHtml)).pdf);
      assert.deepEqual(b, fresh, `B's document ${i + 1} after A's expressions`);
    }
    const probe = await teamB('<p>probe</p>', {
      waitFor: {
        expression:
          "(document.body.append(' left=' + typeof window.__left + ' name=' + (window.name || 'empty')), true)",
      },
    });
    assert.match(await pdfText(probe.pdf), /left=undefined name=empty/);
  });

  it("sees the page's own globals: window.ready set by the page's script after 900 ms", async () => {
    const result = await renderer.render(
      job(
        `<p id="state">loading</p><script>
          setTimeout(() => { document.getElementById('state').textContent = 'ready at last'; window.ready = true; }, 900);
        </script>`,
        {},
        { tenant: 'team-a', waitFor: { expression: 'window.ready === true', timeout_ms: 10_000 } },
      ),
    );
    assert.match(await pdfText(result.pdf), /ready at last/);
  });

  it('a value that cannot be copied out of the page (a node, window) counts as truthy', async () => {
    const result = await renderer.render(
      job('<p id="here">node</p>', {}, { waitFor: { expression: "document.getElementById('here')" } }),
    );
    assert.match(await pdfText(result.pdf), /node/);
    const win = await renderer.render(job('<p>window</p>', {}, { waitFor: { expression: 'window' } }));
    assert.match(await pdfText(win.pdf), /window/);
  });
});
