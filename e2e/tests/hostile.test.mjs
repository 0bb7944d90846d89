// A run in the tab against a hostile model (cmd/fakemodel --hostile: garbage, answers of 5 MiB,
// answers cut half-way, dropped connections, JSON nested 5,000 deep, endless and trickling answers):
// one run per behaviour on a few samples of every level, then every behaviour in one larger run
// whose memory (the page's and the engine worker's JS heaps and WebAssembly memories, through the
// DevTools protocol) must stay under 400 MB with the page responsive. Then a model endpoint over
// plain http on another host: refused by the page's security policy, with the reason and what to
// do on the Run page and in Test connection; allowed by a server started with --allow-endpoint.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import { watch, open, session, startServer, startFakeModel, fillRunForm, tabMemory, pageHolds, savedRun, withWarmUps } from "../lib.mjs";

const s = session();
const ALL = ["level-1-given-desc", "level-2-toolsearcher", "level-3"];
const HOSTILE = ["garbage", "huge", "cut", "drop", "deep", "endless", "trickle"];
const fakes = [];
after(async () => {
  for (const f of fakes) await f.stop();
});

/** hostile starts a fake model answering with the behaviours named (a comma list, or "all"). */
async function hostile(behaviours, args = []) {
  const f = await startFakeModel(null, ["--gold", "builtin", "--hostile", behaviours, ...args]);
  fakes.push(f);
  return f;
}

/** runToEnd starts the run the form holds, calls during() while it goes (if given), and returns its progress once it ended. */
async function runToEnd(page, during) {
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  const ended = page.waitForFunction((b) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && el.dataset.id !== b;
  }, before, { timeout: 300000, polling: 250 });
  if (during) await during(ended);
  await ended;
  return page.$eval("[data-testid=run-progress]", (el) => ({ state: el.dataset.state, done: Number(el.dataset.done), total: Number(el.dataset.total), id: el.dataset.id }));
}

/** checkRun: every sample judged or listed as failed, every scene played, cut answers marked and empty, nothing right. */
function checkRun(run, p, what) {
  assert.equal(p.state, "done", what);
  assert.equal(p.done, p.total, `${what}: every task finished`);
  const judged = run.batch ? run.batch.results.length + (run.batch.errors || []).length : 0;
  const failed = (run.failures || []).filter((f) => f.level !== "level-3").length;
  // A scene whose request failed is kept as an episode (stopped "failed") and listed as a failure.
  const scenes = new Set([...run.episodes.map((e) => e.file), ...(run.failures || []).filter((f) => f.level === "level-3").map((f) => f.file)]).size;
  assert.equal(judged + failed + scenes, p.total, `${what}: each sample judged or failed, each scene played or failed: ${JSON.stringify({ judged, failed, scenes, errors: run.batch && run.batch.errors, failures: run.failures })}`);
  for (const pr of run.predictions) {
    if (pr.cut) assert.equal(pr.pred, "", `${what}: a cut answer is judged as nothing`);
  }
  for (const r of Object.values(run.responses || {})) {
    if (r.truncated) assert.ok(r.content.length <= 1024, `${what}: a cut answer is kept as its head (${r.content.length} bytes)`);
  }
  if (run.batch) assert.equal(run.batch.report.overall.correct, 0, `${what}: a hostile model is right nowhere`);
  const cuts = run.predictions.filter((pr) => pr.cut).length + run.episodes.filter((e) => e.cut).length;
  assert.equal(run.cut.size + run.cut.timeout, cuts, `${what}: the cut answers are counted`);
}

for (const [i, b] of HOSTILE.entries()) {
  const stream = i % 2 === 1;
  test(`a hostile model that answers ${b}${stream ? " (streamed)" : ""}: the run ends, each sample judged or failed, over-limit answers cut and judged wrong`, async () => {
    const fake = await hostile(b);
    const page = await s.browser.context.newPage();
    const w = watch(page);
    await open(page, s.server.url, "/run");
    await fillRunForm(page, { baseURL: fake.url, key: "sk-hostile", model: "hostile", form: "native", levels: ALL, limit: 1, concurrency: 8, stream, timeout: 2 });
    const p = await runToEnd(page);
    const run = await savedRun(page, p.id);
    checkRun(run, p, b);
    const want = { huge: ["size"], endless: ["size", "timeout"], trickle: ["timeout"] }[b];
    if (want) {
      assert.ok(want.some((k) => run.cut[k] > 0), `${b}: an answer cut by ${want.join(" or ")}: ${JSON.stringify(run.cut)}`);
      const note = await page.getByTestId("run-cut").textContent();
      assert.match(note, want.includes("size") ? /1048576 bytes/ : /2s/, `${b}: the page states the limit: ${note}`);
    }
    if (b === "drop") assert.ok(run.failures.length > 0, "dropped connections are failed requests");
    assert.deepEqual(w.errors.filter((e) => !/status of|Failed to load|net::ERR/.test(e)), []);
    await page.close();
  });
}

test("every hostile behaviour in one run: the tab's memory (page and engine worker) stays under 400 MB and the page stays responsive", async (t) => {
  const fake = await hostile("all");
  const page = await s.browser.context.newPage();
  await withWarmUps(page); // the tab's memory with all its idle work, as a user's tab holds it
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fillRunForm(page, { baseURL: fake.url, key: "sk-hostile", model: "hostile", form: "native", levels: ALL, limit: 8, concurrency: 8, stream: true, timeout: 2 });
  // The first sample walks the heaps (tabMemory), which has crashed a renderer whose engine worker was
  // busy: it is taken once the tab's idle work (the warm-up, its variant) is done.
  await page.waitForFunction(() => {
    const s = window.apibankEngine.status();
    return s.warm && s.variantWarm;
  }, null, { timeout: 30000 });
  const mem = await tabMemory(page);
  const first = await mem.sample();
  let heaps = 0; // the JS heaps' peak, page and workers together
  let slowest = 0;
  const p = await runToEnd(page, async (ended) => {
    let done = false;
    ended.then(() => (done = true), () => (done = true));
    while (!done) {
      heaps = Math.max(heaps, (await mem.sample({ wasm: false })).total);
      // The page answers while the run goes: a round trip through its event loop.
      const t0 = Date.now();
      await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
      slowest = Math.max(slowest, Date.now() - t0);
      await new Promise((r) => setTimeout(r, 500));
    }
  });
  const last = await mem.sample();
  await mem.stop();
  const held = await pageHolds(page); // what the page holds once the run ended
  // The WebAssembly memories at the end are their peaks (they never shrink); the heaps' peak is
  // the largest sampled while the run went, or at its end.
  const wasm = last.parts.reduce((n, x) => n + x.wasm, 0);
  const peak = { total: Math.max(heaps, last.total - wasm) + wasm };
  const mb = (n) => (n / 1e6).toFixed(1);
  t.diagnostic(`tab memory: ${mb(first.total)} MB before the run, peak ${mb(peak.total)} MB (JS heaps at most ${mb(Math.max(heaps, last.total - wasm))}; at the end ${last.parts.map((x) => `${x.type} heap ${mb(x.heap)} + wasm ${mb(x.wasm)}`).join(", ")}); slowest page round trip ${slowest} ms`);
  t.diagnostic(`the page holds after the run: JS heap ${mb(held.heap)} MB after a GC, WebAssembly memory ${mb(held.wasm)} MB`);
  const run = await savedRun(page, p.id);
  checkRun(run, p, "all");
  const served = new Set((await fake.requests()).map((r) => r.generated));
  for (const b of HOSTILE) assert.ok(served.has(b), `behaviour ${b} served`);
  assert.ok(peak.total < 400e6, `the tab's memory peaked at ${mb(peak.total)} MB`);
  // Responsive at the end: the page navigates and the engine answers.
  await open(page, s.server.url, "/sandbox");
  await page.getByTestId("sandbox-input").fill("[GetToday()]");
  await page.getByTestId("sandbox-run").click();
  await page.waitForFunction(() => /\d{4}-\d{2}-\d{2}/.test(document.querySelector("[data-testid=sandbox-output]")?.textContent || ""), null, { timeout: 30000 });
  assert.deepEqual(w.errors.filter((e) => !/status of|Failed to load|net::ERR/.test(e)), []);
  await page.close();
});

test("long answers under the size limit: the page holds none of them once they are kept, and reads them back for the export", async (t) => {
  // 80 answers of 600 kB each (48 MB in all), each under the 1 MiB limit: a page that held its
  // run's answers would hold them all at the end, where one that keeps them as they come holds the
  // answers in flight.
  const N = 80;
  const answer = "[Calculator(formula='1+2')] " + "x".repeat(600000);
  const fake = await startFakeModel({ models: ["fake-model"], rules: [{ reply: { content: answer } }] });
  fakes.push(fake);
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fillRunForm(page, { baseURL: fake.url, key: "sk-long", model: "fake-model", limit: N, concurrency: 2 });
  const before = await pageHolds(page);
  const p = await runToEnd(page);
  assert.equal(p.state, "done");
  assert.equal(p.done, N);
  const after = await pageHolds(page);
  const grew = after.wasm - before.wasm;
  const mb = (n) => (n / 1e6).toFixed(1);
  t.diagnostic(`${N} answers of 600 kB (${mb(N * answer.length)} MB): the page's WebAssembly memory ${mb(before.wasm)} MB before the run, ${mb(after.wasm)} MB after (its peak), JS heap ${mb(after.heap)} MB after a GC`);
  assert.ok(grew < N * answer.length / 2, `the page's memory grew by ${mb(grew)} MB over a run of ${mb(N * answer.length)} MB of answers`);
  const run = await savedRun(page, p.id);
  assert.equal(run.predictions.length, N);
  assert.ok(run.predictions.every((x) => x.pred === answer), "every answer is kept whole in IndexedDB");
  assert.deepEqual(w.errors, []);
  await page.close();
});

/** lanAddress is a non-loopback IPv4 address of this machine, or "" when it has none. */
function lanAddress() {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list || []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return "";
}

test("an endpoint over plain http on another host: refused by the page's policy, said plainly with what to do; allowed by --allow-endpoint", async (t) => {
  const ip = lanAddress();
  if (!ip) {
    t.skip("this machine has no non-loopback IPv4 address to serve a LAN endpoint on");
    return;
  }
  const fake = await startFakeModel({ models: ["fake-model"], rules: [{ reply: { content: "hi" } }] }, ["--addr", `${ip}:0`]);
  fakes.push(fake);
  assert.ok(fake.url.startsWith(`http://${ip}:`), fake.url);
  const origin = new URL(fake.url).origin;

  // The default server: the policy allows https anywhere and http on loopback only.
  const page = await s.browser.context.newPage();
  const blocked = [];
  page.on("console", (m) => {
    if (/Content Security Policy/.test(m.text())) blocked.push(m.text());
  });
  await open(page, s.server.url, "/run");
  await fillRunForm(page, { baseURL: fake.url, key: "", model: "fake-model", limit: 1 });
  await page.getByTestId("run-api-key").click(); // leave the URL field: the page reads it on change
  const note = await page.getByTestId("run-lan-note").textContent();
  assert.match(note, new RegExp(`refuses ${origin.replace(/[.]/g, "\\.")}`));
  assert.match(note, /https/);
  assert.ok(note.includes(`--allow-endpoint ${fake.url}`), note);
  await page.getByTestId("run-test").click();
  const result = page.getByTestId("run-test-result");
  await page.waitForFunction(() => !/Testing/.test(document.querySelector("[data-testid=run-test-result]")?.textContent || "Testing"), null, { timeout: 60000 });
  const said = await result.textContent();
  assert.match(said, /refuses/, `Test connection says why: ${said}`);
  assert.ok(said.includes("--allow-endpoint"), `and what to do: ${said}`);
  assert.ok(blocked.some((m) => m.includes(origin)), "the browser's policy refused the request");
  assert.equal(((await fake.requests()) || []).length, 0, "nothing reached the endpoint");
  await page.close();

  // A server that allows it: the same page reaches it.
  const allowing = await startServer(["--allow-endpoint", fake.url]);
  try {
    const p2 = await s.browser.context.newPage();
    await open(p2, allowing.url, "/run");
    await fillRunForm(p2, { baseURL: fake.url, key: "", model: "fake-model", limit: 1 });
    await p2.getByTestId("run-api-key").click();
    await p2.getByTestId("run-test").click();
    await p2.waitForFunction(() => /CORS allows it/.test(document.querySelector("[data-testid=run-test-result]")?.textContent || ""), null, { timeout: 60000 });
    assert.ok(((await fake.requests()) || []).length > 0, "the endpoint was reached");
    await p2.close();
  } finally {
    await allowing.stop();
  }
});
