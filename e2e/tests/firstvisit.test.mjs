// What a new user meets on a first visit (issue 10): the "All levels" / "any" choices, filters in the
// URL, the special cases one at a time, and a bad sample id in a URL. Expected counts come from the
// engine's own answers in the tab, never from constants.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, ready, watch, open, offlineReady, engineRequest, fullDialogues, goldPredictions, jsonl, pasteAndScore, verdicts, session } from "../lib.mjs";

const s = session();

async function newPage(p = "/") {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/");
  await page.evaluate(() => localStorage.clear());
  if (p !== "/") await open(page, s.server.url, p);
  return { page, w };
}

const count = async (page) => (await page.getByTestId("dataset-count").textContent()).trim();

test("re-choosing All levels / any on the Dataset page shows every dialogue again, and the filters live in the URL", async () => {
  const { page, w } = await newPage("/dataset");
  const all = await engineRequest(page, { op: "dialogues" });
  const total = `${all.length} of ${all.length} dialogues`;
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, total);
  const lv1 = all.filter((d) => d.level === "level-1-given-desc").length;

  await page.getByTestId("level-select").selectOption("level-1-given-desc");
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, `${lv1} of ${all.length} dialogues`);
  assert.match(page.url(), /[?&]level=level-1-given-desc/, "the level is in the URL");
  await page.getByTestId("level-select").selectOption({ label: "All levels" });
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, total);

  const tool = all[0].tools[0];
  const withTool = all.filter((d) => d.tools.includes(tool)).length;
  await page.getByTestId("tool-select").selectOption(tool);
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, `${withTool} of ${all.length} dialogues`);
  await page.getByTestId("tool-select").selectOption({ label: "any" });
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, total);

  const special = all.find((d) => d.special).special;
  const withSpecial = all.filter((d) => d.special === special).length;
  await page.getByTestId("special-select").selectOption(special);
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, `${withSpecial} of ${all.length} dialogues`);
  const shared = page.url();
  assert.match(shared, /[?&]special=/);
  await page.getByTestId("special-select").selectOption({ label: "any" });
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, total);

  // Back returns to the filtered list; the address opens it in a fresh tab too.
  await page.goBack();
  await page.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, `${withSpecial} of ${all.length} dialogues`);
  assert.equal(await page.getByTestId("special-select").inputValue(), special, "the select shows the filter Back restored");
  const other = await s.browser.context.newPage();
  await open(other, "", shared);
  await other.waitForFunction((t) => document.querySelector("[data-testid=dataset-count]").textContent.trim() === t, `${withSpecial} of ${all.length} dialogues`);
  assert.equal(await count(other), `${withSpecial} of ${all.length} dialogues`);
  await other.close();
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("Paste & score after re-choosing All levels and the default world scores every line", async () => {
  const { page, w } = await newPage("/score");
  const list = (await engineRequest(page, { op: "dialogues", level: "level-1-given-desc" })).slice(0, 2);
  const dls = await fullDialogues(page, list);
  const lines = goldPredictions(dls);
  await page.getByTestId("level-select").selectOption("level-2-toolsearcher");
  await page.getByTestId("level-select").selectOption({ label: "All levels" });
  await page.getByTestId("state-select").selectOption("fresh");
  await page.getByTestId("state-select").selectOption({ index: 0 });
  await pasteAndScore(page, jsonl(lines));
  assert.equal(await page.locator("[data-testid=line-error]").count(), 0, "no line is refused");
  assert.equal((await verdicts(page)).length, lines.length);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a special case opens on the Sample page and scores in the one-sample box, and a bad id says which ids exist", async () => {
  const { page, w } = await newPage("/sample");
  const all = await engineRequest(page, { op: "dialogues" });
  const d = all.find((x) => x.special);
  const samples = await engineRequest(page, { op: "samples", level: d.level, file: d.file });
  const sp = samples.find((x) => x.kind === "special");
  assert.ok(sp, d.file + " has a special sample");

  const q = (id) => `/sample?level=${encodeURIComponent(d.level)}&file=${encodeURIComponent(d.file)}&id=${id}`;
  await open(page, s.server.url, q(sp.id));
  await page.waitForSelector("[data-testid=prompt-text]");
  const active = await page.locator(".samples .chip.active").textContent();
  assert.match(active, new RegExp(`#${sp.id} special`), "the special sample is the one shown");
  assert.match(active, /reply, do not call/);
  assert.match(await page.getByTestId("id-rule").textContent(), /2k\+1.*special case/s, "the numbering rule explains special cases");
  assert.match(await page.locator("main").textContent(), /Expected: a reply — a special case/);

  await open(page, s.server.url, q(9999));
  await page.waitForSelector("[role=alert]");
  const err = await page.locator("[role=alert]").textContent();
  assert.match(err, /no sample "9999"/);
  for (const x of samples.filter((x) => ["call", "reply", "special"].includes(x.kind))) assert.ok(err.includes(`${x.id} (${x.kind})`), err);

  await open(page, s.server.url, "/score");
  await page.getByTestId("one-dialogue").selectOption(`${d.level}/${d.file}`);
  await page.waitForSelector(`[data-testid=one-sample] option[value="${sp.id}"]`, { state: "attached" });
  await page.getByTestId("one-sample").selectOption(String(sp.id));
  const reply = await engineRequest(page, { op: "dialogue", level: d.level, file: d.file });
  const gold = reply.turns.find((t) => t.line === sp.gold_line);
  await page.getByTestId("one-prediction").fill(gold.text);
  await page.getByTestId("one-score").click();
  await page.waitForSelector("[data-testid=verdict-row]");
  assert.equal(await page.locator("[data-testid=verdict-row]").getAttribute("data-id"), String(sp.id));
  assert.equal(await page.locator("[data-testid=verdict-row]").getAttribute("data-category"), "CORRECT", "a reply is right for a special case");
  const tool = all.find((x) => x.tools.length).tools[0];
  await page.getByTestId("one-prediction").fill(`[${tool}(x='1')]`);
  await page.getByTestId("one-score").click();
  await page.waitForSelector("[data-testid=verdict-row][data-category=PREMATURE_CALL]");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a first visit downloads each module once: the downloads the head's boot script starts are what go-app and the engine use", async () => {
  const b = await launch({ warmUps: true }); // a fresh profile: nothing cached, no service worker yet
  try {
    const page = await b.context.newPage();
    const w = watch(page);
    const fetched = { "app.wasm": 0, "engine.wasm": 0 };
    page.on("request", (r) => {
      const m = new URL(r.url()).pathname.match(/^\/web\/(app|engine)\.wasm$/);
      if (m) fetched[m[1] + ".wasm"]++;
    });
    const warnings = [];
    page.on("console", (m) => {
      if (/preload/i.test(m.text())) warnings.push(m.type() + ": " + m.text());
    });
    await open(page, s.server.url, "/");
    await ready(page);
    await page.waitForTimeout(3500); // Chrome warns of a preload left unused a few seconds after load
    assert.deepEqual(fetched, { "app.wasm": 1, "engine.wasm": 1 }, "each module is fetched by the page once");
    assert.deepEqual(warnings, [], "the browser says nothing of the preloads");
    assert.deepEqual(w.errors, []);
  } finally {
    await b.close();
  }
});

test("a first visit's service worker starts once the engine is ready, and the server sends each module once to the page and the worker together", async () => {
  const b = await launch({ warmUps: true }); // a fresh profile: nothing cached, no service worker yet
  try {
    // The first engine worker hangs and is replaced after 3 s (startup.test.mjs's hook): the engine
    // is then ready well after the app is on screen, when go-app's loader would register the worker.
    await b.context.addInitScript(() => {
      window.apibankTestHooks = { stallStarts: 1, startMs: 3000 };
      const c = navigator.serviceWorker;
      if (!c) return;
      const register = c.register.bind(c);
      c.register = (...args) => {
        window.swRegisteredAt = performance.now();
        return register(...args);
      };
    });
    const page = await b.context.newPage();
    const w = watch(page);
    const logFrom = s.server.log().length;
    await open(page, s.server.url, "/");
    await ready(page);
    await offlineReady(page, [], 120000);
    const t = await page.evaluate(() => ({ registered: window.swRegisteredAt, engine: performance.getEntriesByName("apibank-engine-ready")[0]?.startTime }));
    assert.ok(t.registered !== undefined && t.engine !== undefined, `the service worker was registered (${t.registered}) and the engine marked ready (${t.engine})`);
    assert.ok(t.registered >= t.engine, `the service worker was registered at ${t.registered.toFixed(0)} ms, before the engine was ready (${t.engine.toFixed(0)} ms)`);
    const sent = { "app.wasm": 0, "engine.wasm": 0 };
    for (const m of s.server.log().slice(logFrom).matchAll(/msg=request method=GET path=\/web\/(app|engine)\.wasm status=200 /g)) sent[m[1] + ".wasm"]++;
    assert.deepEqual(sent, { "app.wasm": 1, "engine.wasm": 1 }, "the server sent each module once (its access log), its service worker's copies included");
    assert.equal(await page.evaluate(() => window.apibankAssets.kept.length), 2, "the first visit wrote its two modules into the service worker's cache");
    // A later visit, which the worker serves, writes nothing again.
    await page.reload();
    await ready(page);
    const later = await page.evaluate(() => ({ controlled: !!navigator.serviceWorker.controller, kept: window.apibankAssets.kept.length }));
    assert.deepEqual(later, { controlled: true, kept: 0 }, "a visit the service worker controls takes the modules from it and writes no copy");
    assert.deepEqual(w.errors, []);
  } finally {
    await b.close();
  }
});
