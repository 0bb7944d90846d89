// How we judge (/judging): reached from every page's footer (the navigation fills its line at
// 1280 px, frontdoor.test.mjs), a section per kind of sample with right and
// wrong answers, the verdict categories, no serious or critical axe-core violation, no sideways
// scroll at 390 px; an example's link opens its sample. A special case's Sample page shows its audit
// badge, the kind's rule and every need of the case (whichever special case of the data has needs),
// and links to the kind's section.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, visit, engineRequest, session, axe, fits } from "../lib.mjs";

const s = session();

const sections = ["date", "call", "set", "reply", "special", "missing_value", "ambiguous", "wrong_value", "no_tool", "step", "episode", "verdicts", "original"];

async function clean(page, where) {
  const v = await axe(page);
  assert.deepEqual(v, [], `${where}: axe reports\n${v.join("\n")}`);
}

test("How we judge is reached from the footer, explains every kind of sample, passes axe-core and fits 390 px", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/");
  await page.getByTestId("footer-judging").click();
  await page.waitForURL(/\/judging$/);
  assert.equal((await page.locator("main h1").textContent()).trim(), "How we judge");
  for (const id of sections) assert.equal(await page.locator(`main section#${id}`).count(), 1, `the section ${id}`);
  for (const id of ["call", "set", "reply", "missing_value", "ambiguous", "wrong_value", "no_tool", "step", "episode"]) {
    const sec = page.locator(`main section#${id}`);
    assert.ok(await sec.locator("[data-answer=right]").count() > 0, `${id}: a right answer`);
    assert.ok(await sec.locator("[data-answer=wrong]").count() > 0, `${id}: a wrong answer`);
  }
  const main = await page.locator("main").textContent();
  assert.ok(main.includes("Today is Friday, 31 March 2023 (2023-03-31)."), "the stated date");
  assert.ok(main.includes("keeps the original evaluator's verdicts"), "the note on the original's data");
  for (const c of ["CORRECT", "PREMATURE_CALL", "MISSED_NEED", "MISSING_CALL", "EXTRA_CALL"]) {
    assert.equal(await page.locator(`#verdicts dt[data-category=${c}]`).count(), 1, `the verdict ${c}`);
  }
  assert.equal(await page.locator("main img, main script").count(), 0, "the page is text");
  await clean(page, "/judging");

  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, "/judging at 390 px");
  await page.setViewportSize({ width: 1200, height: 900 });

  // A section link keeps the page and names the section; an example's link opens its sample.
  await page.locator("main nav a", { hasText: "Special cases" }).click();
  await page.waitForURL(/\/judging#special$/);
  const example = page.locator("#missing_value [data-testid=judging-example] a").first();
  const href = await example.getAttribute("href");
  await example.click();
  await page.waitForURL((u) => u.pathname === "/sample" && href.includes(u.search.slice(1)));
  await page.waitForSelector("[data-testid=sample-judging]");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a special case's Sample page shows its audit badge, the kind's rule and the case's needs", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/dataset");
  const all = await engineRequest(page, { op: "dialogues" });
  let d = null;
  for (const x of all.filter((x) => x.special)) {
    const dl = await engineRequest(page, { op: "dialogue", level: x.level, file: x.file });
    if (dl.meta?.needs?.length && dl.meta.audit) {
      d = dl;
      break;
    }
  }
  assert.ok(d, "the data has a special case with needs and an audit");
  const samples = await engineRequest(page, { op: "samples", level: d.level, file: d.file });
  const sp = samples.find((x) => x.kind === "special");
  await visit(page, `/sample?level=${encodeURIComponent(d.level)}&file=${encodeURIComponent(d.file)}&id=${sp.id}`);
  await page.waitForSelector("[data-testid=needs]");

  const badge = page.getByTestId("audit-badge");
  assert.equal(await badge.getAttribute("data-status"), d.meta.audit.status);
  assert.equal((await badge.textContent()).trim(), d.meta.audit.status);
  if (d.meta.audit.note) assert.ok((await page.getByTestId("audit").textContent()).includes(d.meta.audit.note), "the audit's note");

  assert.equal(await page.getByTestId("kind-need").count(), 1, "the kind's rule");
  const needs = await page.$$eval("[data-testid=needs] [data-testid=need]", (ls) => ls.map((l) => l.textContent));
  assert.equal(needs.length, d.meta.needs.length, "one item per need");
  for (const [i, n] of d.meta.needs.entries()) {
    assert.ok(needs[i].startsWith(n.what), `need ${i}: ${needs[i]}`);
    for (const a of n.any) assert.ok(needs[i].includes(a), `need ${i} names the phrase ${a}`);
  }
  assert.match(await page.getByTestId("sample-judging").textContent(), /MISSED_NEED/);
  assert.match(await page.getByTestId("id-rule").textContent(), /MISSED_NEED/);
  await clean(page, "/sample (a special case with needs)");

  // Its link opens the kind's section of How we judge.
  await page.getByTestId("sample-judging").locator("a", { hasText: "How we judge" }).click();
  await page.waitForURL((u) => u.pathname === "/judging" && u.hash === "#" + d.meta.special);
  await page.waitForSelector(`main section#${d.meta.special}`);
  assert.deepEqual(w.errors, []);
  await page.close();
});
