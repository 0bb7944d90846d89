// Offline for real (issue 10): the site is visited once, then the SERVER IS STOPPED, and every page
// is loaded in full (a reload, a bookmark, a shared link) — the pages of the navigation and addresses
// with queries: a sample, a dataset filter, a tool — and a paste is scored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, ready, offlineReady, engineRequest, fullDialogues, goldPredictions, jsonl, pasteAndScore, verdicts, session } from "../lib.mjs";

const s = session();

test("after one visit, with the server stopped, every page and every address with a query loads in full and scores a paste", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/");
  const navPaths = await page.$$eval("nav.nav a[href]", (as) => as.map((a) => a.getAttribute("href")));
  assert.ok(navPaths.length >= 8, "the navigation lists the pages");
  // The server stops only once the service worker controls the page and has cached all it precaches.
  await offlineReady(page, navPaths);
  const all = await engineRequest(page, { op: "dialogues" });
  const d = all.find((x) => x.special) || all[0];
  const samples = await engineRequest(page, { op: "samples", level: d.level, file: d.file });
  const last = samples[samples.length - 1].id;
  const lv1 = all.filter((x) => x.level === "level-1-given-desc");
  const dls = await fullDialogues(page, lv1.slice(0, 2));
  const preds = goldPredictions(dls);
  const base = s.server.url;

  await s.server.stop();
  const down = await page.evaluate(async (u) => fetch(u + "/web/no-such-file?" + Math.random()).then(() => "up", () => "down"), base);
  assert.equal(down, "down", "the server is stopped");

  const withQuery = [
    [`/sample?level=${encodeURIComponent(d.level)}&file=${encodeURIComponent(d.file)}&id=${last}`, "[data-testid=prompt-text]"],
    [`/dataset?level=level-1-given-desc&q=${encodeURIComponent(lv1[0].tools[0])}`, "[data-testid=dialogue-row]"],
    ["/tools?name=AddAlarm", "[data-testid=tool-AddAlarm]"],
  ];
  for (const p of [...navPaths.map((p) => [p, "main h1"]), ...withQuery]) {
    await page.goto(base + p[0]);
    await ready(page);
    await page.waitForSelector(p[1], { timeout: 20000 });
    assert.ok((await page.textContent("main h1")).trim().length > 0, p[0] + " has a heading offline");
  }
  await page.goto(base + "/dataset?level=level-1-given-desc");
  await ready(page);
  await page.waitForFunction((n) => document.querySelector("[data-testid=dataset-count]")?.textContent.startsWith(n + " of"), lv1.length);

  await page.goto(base + "/score?from=bookmark");
  await ready(page);
  await pasteAndScore(page, jsonl(preds));
  const rows = await verdicts(page);
  assert.equal(rows.length, preds.length, "a paste is scored offline");
  assert.equal(await page.getByTestId("accuracy").textContent(), "100.0%");
  assert.deepEqual(w.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to fetch|ERR_FAILED/.test(e)), []);
  await page.close();
});
