// The front door: the navigation is grouped by what a visitor comes to do and fits one line at
// 1280 px; the home page leads with running a model; the footer's "Saved here" follows what the tab
// saves without a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, session, engineRequest, goldPredictions, jsonl, pasteAndScore } from "../lib.mjs";

const s = session();

test("the navigation is grouped (Evaluate, Learn, Data) and fits one line at 1280 px; the home page leads with Run a model", async () => {
  const page = await s.browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const w = watch(page);
  await open(page, s.server.url, "/");
  const groups = await page.$$eval("nav.nav .nav-group", (gs) => gs.map((g) => ({
    label: g.querySelector(".nav-label").textContent,
    links: [...g.querySelectorAll("a")].map((a) => a.textContent),
  })));
  assert.deepEqual(groups.map((g) => g.label), ["Evaluate", "Learn", "Data"]);
  assert.deepEqual(groups[0].links.slice(0, 4), ["Run a model", "Paste & score", "Runs", "Results"]);
  const rows = await page.$$eval("nav.nav a", (as) => new Set(as.map((a) => Math.round(a.getBoundingClientRect().top))).size);
  assert.equal(rows, 1, "the navigation wraps at 1280 px");
  const first = await page.$eval("[data-testid=home-start] li a", (a) => a.getAttribute("href"));
  assert.equal(first, "/run", "the home page's first suggestion is running a model");
  // Every page the navigation names still answers, and the pages it no longer lists too.
  for (const p of ["/sample", "/results", "/synth"]) {
    await open(page, s.server.url, p);
    await page.waitForSelector("main h1");
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("the footer's Saved here follows a scoring without a reload", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/score");
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector("[data-testid=saved-size]");
  const before = await page.getByTestId("saved-size").textContent();
  assert.match(before, /Saved here: 0 B/);
  const all = await engineRequest(page, { op: "dialogues" });
  const d = await engineRequest(page, { op: "dialogue", level: all[0].level, file: all[0].file });
  await pasteAndScore(page, jsonl(goldPredictions([d])));
  await page.waitForFunction(() => !/Saved here: 0 B/.test(document.querySelector("[data-testid=saved-size]").textContent), null, { timeout: 10000 });
  const after = await page.getByTestId("saved-size").textContent();
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("apibank.")).reduce((n, k) => n + localStorage.getItem(k).length, 0));
  assert.ok(stored > 0, "the scoring saved something");
  assert.match(after, /Saved here: [\d.]+ (B|KB|MB)\./);
  assert.deepEqual(w.errors, []);
  await page.close();
});
