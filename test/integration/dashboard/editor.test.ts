import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Dialog, Page } from 'playwright-core';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Browser, openBrowser, signInNewOwner } from './browser.js';

/**
 * The template editor under a fast typist (issue 30 item 1): typing at 20 ms a key and holding Backspace
 * (key auto-repeat) must neither freeze the tab nor lose a character, and unsaved work survives a reload.
 */

/**
 * The brief's bar: the page answers a round trip within 200 ms while someone types. On a shared, loaded
 * machine the test process itself is sometimes descheduled for longer, so the bar holds for 95 % of the
 * round trips and none may take a second (the freeze this guards against took 45 s and more).
 */
const ANSWER_MS = 200;
const ANSWERED_SHARE = 0.95;
const CEILING_MS = 1_000;
/** Typing and erasing take about 4 s; far beyond that the page has frozen. */
const FROZEN_MS = 90_000;
const KEY_DELAY_MS = 20;
const HOLD_MS = 2_000;
/** Chromium's key auto-repeat rate is about 30 ms; each repeat is a keydown with `repeat: true`. */
const REPEAT_MS = 30;
/** Letters, digits and spaces only: no bracket or tag that CodeMirror would close by itself. */
const TYPED =
  'the quick brown fox jumps over the lazy dog 0123456789 pack my box with five dozen liquor jugs now';

/** Round trips into the page until stopped: how long a user would have waited for it, in ms. */
function watchAnswers(page: Page): { stop(): Promise<number[]> } {
  let running = true;
  const waits: number[] = [];
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      await page.evaluate(() => document.readyState);
      waits.push(Math.round(performance.now() - start));
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return waits;
    },
  };
}

/** Fails instead of waiting for the test's timeout when the page has frozen (keys are acknowledged by it). */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frozen = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish in ${ms / 1000} s: the page froze`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, frozen]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * At least this many auto-repeats whatever the time: on a busy machine each press takes longer to be
 * acknowledged, and fewer than this in the hold's time would test too little.
 */
const MIN_REPEATS = 25;

/** Holds a key as a user does: one keydown, auto-repeats every REPEAT_MS, one keyup. Returns the presses. */
async function holdKey(page: Page, key: string, ms: number, maxPresses: number): Promise<number> {
  const end = performance.now() + ms;
  let presses = 0;
  while (presses < maxPresses && (presses < MIN_REPEATS || performance.now() < end)) {
    // Playwright sends a keydown of a key already down with `autoRepeat` set, as the OS does.
    await page.keyboard.down(key);
    presses += 1;
    await new Promise((r) => setTimeout(r, REPEAT_MS));
  }
  await page.keyboard.up(key);
  return presses;
}

/** Types TYPED at 20 ms a key, then holds Backspace for 2 s; returns how many characters it erased. */
async function typeAndErase(page: Page): Promise<number> {
  await page.keyboard.type(TYPED, { delay: KEY_DELAY_MS });
  return holdKey(page, 'Backspace', HOLD_MS, TYPED.length - 10);
}

interface Pane {
  name: string;
  label: string;
  /** Put into the pane first; the caret then goes `back` characters before its end. */
  start: string;
  back: number;
}

const PANES: Pane[] = [
  { name: 'HTML', label: 'Template HTML', start: '<p>Hello </p>', back: 4 },
  { name: 'CSS', label: 'Template CSS', start: 'p { color: #123; } /*  */', back: 3 },
  { name: 'data', label: 'Sample data JSON', start: '{"note": ""}', back: 2 },
];

describe('template editor under fast typing', { timeout: 600_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let liveKey: string;
  let templateId: string;
  const errors: string[] = [];

  before(async () => {
    server = await startTestServer({ workers: 1 });
    const team = await server.team('growth');
    liveKey = team.live;
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: liveKey,
      body: { name: 'Typing', html: '<p>Hi</p>', css: '', sample_data: {} },
    });
    assert.equal(created.status, 201);
    templateId = (created.json as { id: string }).id;
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (err) => errors.push(err.message));
    await signInNewOwner(page, server, team.team.id, 'owner@example.com', 'owner password 123');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    if (!(await page.getByRole('radio', { name: 'Live' }).isChecked())) {
      await page.getByRole('radio', { name: 'Live' }).check();
      await page.locator('.mode-live').waitFor();
    }
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    assert.deepEqual(errors, [], 'no uncaught errors in the page');
  });

  it('keeps every key typed at 20 ms and every auto-repeated Backspace, and stays responsive', async () => {
    await page.goto(`${server.base}/app/#/templates/${templateId}`);
    await page.getByRole('heading', { name: 'Typing', level: 1 }).waitFor();
    const expected: Record<string, string> = {};
    for (const pane of PANES) {
      await page.getByRole('textbox', { name: pane.label }).click();
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(pane.start);
      for (let i = 0; i < pane.back; i++) await page.keyboard.press('ArrowLeft');
      const watch = watchAnswers(page);
      const erased = await within(FROZEN_MS, `typing in the ${pane.name} pane`, typeAndErase(page));
      const waits = await watch.stop();
      assert.ok(erased > 20, `${pane.name}: Backspace repeated ${erased} times`);
      const quick = waits.filter((ms) => ms < ANSWER_MS).length;
      assert.ok(
        waits.length > 20 && quick >= waits.length * ANSWERED_SHARE && Math.max(...waits) < CEILING_MS,
        `${pane.name}: the page answered ${quick} of ${waits.length} round trips within ${ANSWER_MS} ms ` +
          `while typing, the slowest in ${Math.max(...waits)} ms`,
      );
      const cut = pane.start.length - pane.back;
      expected[pane.name] =
        pane.start.slice(0, cut) + TYPED.slice(0, TYPED.length - erased) + pane.start.slice(cut);
    }
    await page.getByRole('button', { name: 'Save new version' }).click();
    await page.getByText('Saved as version 2.').waitFor({ timeout: 60_000 });
    const saved = await api(server.base, 'GET', `/v1/templates/${templateId}`, { key: liveKey });
    const t = saved.json as { html: string; css: string; sample_data: unknown };
    assert.equal(t.html, expected.HTML);
    assert.equal(t.css, expected.CSS);
    assert.deepEqual(t.sample_data, JSON.parse(expected.data!));
    assert.equal(await page.getByTestId('unsaved').count(), 0, 'nothing unsaved after the save');
  });

  it('asks before leaving unsaved changes and offers the draft back after a reload', async () => {
    const dialogs: string[] = [];
    const answer = (accept: boolean) => (dialog: Dialog) => {
      dialogs.push(dialog.type());
      void (accept ? dialog.accept() : dialog.dismiss());
    };
    const html = page.getByRole('textbox', { name: 'Template HTML' });
    await html.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' kept draft words', { delay: KEY_DELAY_MS });
    await page.getByTestId('unsaved').waitFor();
    await waitFor('the draft in local storage', async () =>
      (await page.evaluate(() => JSON.stringify(localStorage))).includes('kept draft words') ? true : null,
    );

    // In-app navigation asks; staying keeps the page and the text.
    page.once('dialog', answer(false));
    await page.getByRole('link', { name: 'Templates' }).click();
    assert.deepEqual(dialogs, ['confirm']);
    assert.match(page.url(), new RegExp(`#/templates/${templateId}$`));
    await page.getByTestId('unsaved').waitFor();
    assert.match((await html.textContent()) ?? '', /kept draft words/);

    // Closing or reloading the tab asks too (beforeunload); after the reload the draft is offered back.
    page.once('dialog', answer(true));
    await page.reload();
    assert.deepEqual(dialogs, ['confirm', 'beforeunload']);
    await page.getByRole('heading', { name: 'Unsaved changes were kept' }).waitFor();
    assert.doesNotMatch((await html.textContent()) ?? '', /kept draft words/, 'the saved version shows');
    await page.getByRole('button', { name: 'Restore draft' }).click();
    await page.getByTestId('unsaved').waitFor();
    assert.match((await html.textContent()) ?? '', /kept draft words/);
    await page.getByRole('button', { name: 'Save new version' }).click();
    await page.getByText(/Saved as version \d+\./).waitFor({ timeout: 60_000 });
    const saved = await api(server.base, 'GET', `/v1/templates/${templateId}`, { key: liveKey });
    assert.match((saved.json as { html: string }).html, /<\/p> kept draft words$/);

    // Saved: nothing to ask about and nothing offered any more.
    await page.reload();
    await page.getByRole('heading', { name: 'Typing', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Template HTML' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Unsaved changes were kept' }).count(), 0);
    assert.deepEqual(dialogs, ['confirm', 'beforeunload']);
  });

  it('deletes a template after confirmation, asking for its name once documents were made from it', async () => {
    const made = await api(server.base, 'POST', '/v1/templates', {
      key: liveKey,
      body: { name: 'Used', html: '<p>Used</p>' },
    });
    const usedId = (made.json as { id: string }).id;
    const rendered = await api(server.base, 'POST', '/v1/pdf', {
      key: liveKey,
      body: { template_id: usedId },
    });
    assert.equal(rendered.status, 200, rendered.text);

    // No documents from "Typing": a plain confirmation.
    await page.goto(`${server.base}/app/#/templates/${templateId}`);
    await page.getByRole('button', { name: 'Delete template' }).click();
    const plain = page.getByRole('dialog', { name: 'Delete the template Typing?' });
    await plain.waitFor();
    assert.equal(await plain.getByRole('textbox').count(), 0, 'no name to type');
    await plain.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(
      (await api(server.base, 'GET', `/v1/templates/${templateId}`, { key: liveKey })).status,
      200,
    );

    await page.goto(`${server.base}/app/#/templates/${usedId}`);
    await page.getByRole('heading', { name: 'Used', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the template Used?' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete template' });
    assert.equal(await confirm.isDisabled(), true, 'not before the name is typed');
    await dialog.getByLabel('Type Used to confirm').fill('Used');
    await confirm.click();
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await page.locator('.toast').filter({ hasText: 'Template Used deleted.' }).waitFor();
    const gone = await api(server.base, 'GET', `/v1/templates/${usedId}`, { key: liveKey });
    assert.equal(gone.status, 404);
  });
});
