// Phone width (issue 10): at 390 px no page scrolls sideways, in every state the suite opens (the
// compare panel, results, the sandbox world, run settings where the page has them); wide tables
// scroll inside their own box. The first page is loaded; the others are reached by the app's own
// navigation, as a link's click reaches them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, visit, engineRequest, fullDialogues, goldPredictions, jsonl, pasteAndScore, session, fits } from "../lib.mjs";

// With a board and classes served (--db): the Board page loads one, as on the Worker, rather than
// asking a server that has none (whose 404 the browser logs as a console error).
const s = session({ db: true });

test("at 390 px no page scrolls sideways, in any state", async () => {
  const page = await s.browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const w = watch(page);
  await open(page, s.server.url, "/");
  await page.evaluate(() => localStorage.clear());
  const navPaths = await page.$$eval("nav.nav a[href]", (as) => as.map((a) => a.getAttribute("href")));
  for (const p of navPaths) {
    await visit(page, p);
    await page.waitForSelector("main h1");
    await fits(page, p);
  }
  // The dataset with its longest names, and a sample with its prompt.
  await visit(page, "/dataset");
  await page.waitForSelector("[data-testid=dialogue-row]");
  await fits(page, "/dataset (list)");
  const all = await engineRequest(page, { op: "dialogues" });
  const longest = all.reduce((a, b) => (b.file.length > a.file.length ? b : a));
  await visit(page, `/sample?level=${encodeURIComponent(longest.level)}&file=${encodeURIComponent(longest.file)}`);
  await page.waitForSelector("[data-testid=prompt-text]");
  await page.getByTestId("reveal-gold").click();
  await fits(page, "/sample (gold shown)");

  // Paste & score with results, a line error and a compare panel open.
  await visit(page, "/score");
  const dls = await fullDialogues(page, all.slice(0, 6));
  const lines = goldPredictions(dls);
  lines[0].pred = lines[0].pred.replace(/\)\]$/, ", extra='a very long value that runs past the width of a phone screen by far')]");
  await pasteAndScore(page, jsonl(lines) + "not json at all, a line that is long enough to run past any phone screen's width\n");
  await fits(page, "/score (verdicts)");
  await page.locator("[data-testid=verdict-row] >> nth=0 >> text=compare").click();
  await page.waitForSelector(".compare dl");
  await fits(page, "/score (compare open)");
  const h = await page.evaluate(() => document.querySelector("[data-testid=verdicts]").getBoundingClientRect().height);
  assert.ok(h < 40 * lines.length * 5, `the verdicts are ${h} px tall for ${lines.length} lines: the compare must not be a ribbon`);

  await visit(page, "/results");
  await page.waitForSelector("[data-testid=level-row]");
  await fits(page, "/results");

  // The sandbox after a call, with a database open.
  await visit(page, "/sandbox");
  await page.locator("[data-testid=sandbox-example] >> nth=0").click();
  await page.getByTestId("sandbox-run").click();
  await page.waitForSelector("[data-testid=sandbox-history]");
  const db = page.locator("[data-testid^=db-] >> nth=0");
  if (await db.count()) await db.click();
  await fits(page, "/sandbox (world)");

  // Run settings, where the page exists.
  if (navPaths.includes("/run")) {
    await visit(page, "/run");
    for (const d of await page.locator("details:not([open]) > summary").all()) await d.click();
    await fits(page, "/run (settings)");
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("on a touch screen a button does not offer a keyboard shortcut; with a mouse it does", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  const cdp = await s.browser.context.newCDPSession(page);
  await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
  await cdp.send("Emulation.setEmitTouchEventsForMouse", { enabled: true, configuration: "mobile" });
  await open(page, s.server.url, "/sandbox");
  assert.ok(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), "the page is on a touch screen");
  assert.equal(await page.getByTestId("sandbox-run").innerText(), "Run");
  await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: false });
  await page.waitForFunction(() => !matchMedia("(pointer: coarse)").matches);
  assert.equal(await page.getByTestId("sandbox-run").innerText(), "Run (Ctrl+Enter)");
  assert.deepEqual(w.errors, []);
  await page.close();
});
