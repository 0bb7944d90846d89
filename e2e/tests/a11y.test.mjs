// Accessibility (issue 10): axe-core (pinned in package-lock.json) on every page and in the states the
// suite opens reports no serious or critical violation; the keyboard alone reaches every control;
// the skip link moves the focus to the content.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, visit, engineRequest, fullDialogues, goldPredictions, jsonl, pasteAndScore, session, axe } from "../lib.mjs";

// With a board and classes served (--db): the Board page loads one, as on the Worker, rather than
// asking a server that has none (whose 404 the browser logs as a console error).
const s = session({ db: true });

async function clean(page, where) {
  const v = await axe(page);
  assert.deepEqual(v, [], `${where}: axe reports\n${v.join("\n")}`);
}

/**
 * states walks the states to check: every page of the navigation, then pages with work done on them.
 * The first page is loaded; the others are reached as a link's click reaches them (visit), in the
 * same document, as a user moves through the site.
 */
async function states(page, base, check) {
  await open(page, base, "/");
  const navPaths = await page.$$eval("nav.nav a[href]", (as) => as.map((a) => a.getAttribute("href")));
  for (const p of navPaths) {
    await visit(page, p);
    await page.waitForSelector("main h1");
    await check(p);
  }
  const all = await engineRequest(page, { op: "dialogues" });
  const d = all.find((x) => x.special) || all[0];
  await visit(page, `/sample?level=${encodeURIComponent(d.level)}&file=${encodeURIComponent(d.file)}`);
  await page.waitForSelector("[data-testid=prompt-text]");
  await check("/sample (a dialogue)");
  await visit(page, "/score");
  const dls = await fullDialogues(page, all.slice(0, 3));
  const lines = goldPredictions(dls);
  lines[0].pred = "no call";
  await pasteAndScore(page, jsonl(lines) + "not json\n");
  await page.locator("[data-testid=verdict-row] >> nth=0 >> text=compare").click();
  await page.waitForSelector(".compare dl");
  await check("/score (verdicts, compare open)");
  await visit(page, "/results");
  await page.waitForSelector("[data-testid=level-row]");
  await check("/results (a batch)");
  await visit(page, "/sandbox");
  await page.locator("[data-testid=sandbox-example] >> nth=0").click();
  await page.getByTestId("sandbox-run").click();
  await page.waitForSelector("[data-testid=sandbox-history]");
  await check("/sandbox (after a call)");
}

test("axe-core finds no serious or critical violation on any page or state", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await states(page, s.server.url, (where) => clean(page, where));
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("the keyboard alone reaches every control of every page, and the skip link moves the focus to the content", async () => {
  const page = await s.browser.context.newPage();
  await states(page, s.server.url, async (where) => {
    // Wait until the page is settled (lists load after the heading): the same number of controls twice.
    let n = -1;
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(250);
      const m = await page.evaluate(() => document.querySelectorAll("a[href], button, select, textarea, input, summary").length);
      if (m === n) break;
      n = m;
    }
    const controls = await page.evaluate(() => {
      const sel = "a[href], button:not([disabled]), select:not([disabled]), textarea:not([disabled]), input:not([type=hidden]):not([disabled]), summary";
      let i = 0;
      const out = [];
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (el.closest("[hidden], details:not([open]) > :not(summary)")) continue;
        if (r.width === 0 && r.height === 0 && !el.classList.contains("skip")) continue;
        el.dataset.kbd = String(i++);
        out.push(`${el.tagName.toLowerCase()}[${el.dataset.testid || el.textContent.trim().slice(0, 30)}]`);
      }
      return out;
    });
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    await page.focus("body");
    const reached = new Set();
    for (let n = 0; n < 2 * controls.length + 10 && reached.size < controls.length; n++) {
      await page.keyboard.press("Tab");
      const k = await page.evaluate(() => document.activeElement?.dataset?.kbd);
      if (k !== undefined) reached.add(Number(k));
    }
    const missed = controls.filter((_, i) => !reached.has(i));
    assert.deepEqual(missed, [], `${where}: Tab never reaches ${missed.length} of ${controls.length} controls`);
  });
  // The skip link: the first Tab lands on it, Enter moves the focus to the content.
  await open(page, s.server.url, "/dataset");
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.className), "skip", "the first Tab lands on the skip link");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.id), "main", "Enter on the skip link moves the focus to the content");
  await page.keyboard.press("Tab");
  assert.ok(await page.evaluate(() => document.getElementById("main").contains(document.activeElement)), "the next Tab stays in the content");
  await page.close();
});
