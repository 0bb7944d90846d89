// The tab's engine never stays "starting": a UI that runs before web/bridge.js waits for it; a
// download of engine.wasm that stops arriving (no answer, or a body that stops halfway), a worker
// whose script does not arrive in time and a worker that never says "ready" are each given up
// after their time and tried again with the tab's state, requests made meanwhile are answered; a
// first worker whose script failed early is replaced at the start; a download that is slow but
// keeps arriving is not given up; a start that keeps failing shows its error in words and a
// Retry button that works; and a paste scored while the engine arrives is kept. The start-up times are shortened through bridge.js's
// documented test hook (window.apibankTestHooks, set before the page's scripts run); the service
// worker is kept out so page.route sees every request. The half-sent engine.wasm comes from a proxy
// in front of cmd/server (stallingProxy): page.route can only answer with a whole body.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, cpSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import path from "node:path";
import { startServer, launch, watch, ready, engineRequest, pasteAndScore, root } from "../lib.mjs";

const s = { server: null, browser: null, proxy: null };

before(async () => {
  s.server = await startServer();
  s.proxy = await stallingProxy(s.server.url);
  s.browser = await launch({ serviceWorkers: "block", warmUps: true });
});

after(async () => {
  if (s.browser) await s.browser.close();
  if (s.proxy) await s.proxy.stop();
  if (s.server) await s.server.stop();
});

/**
 * stallingProxy forwards every request to target, but for a path with a plan (plans[path], a list)
 * it follows that plan, one entry a request ("pass" once the list is used up): "pass" forwards the
 * answer; "fail" answers 503 at once; "late" answers 503 once release() is called; "stall" sends the
 * headers and the first 64 KiB of the body, then nothing more (the connection stays open until the
 * browser gives up); "trickle" sends the body in 40 pieces over about 4 s. No answer is cacheable,
 * so every page load asks again. requests[path] counts the requests of each planned path. Resolves
 * {url, plan(plans), requests, release, stop}.
 */
async function stallingProxy(target) {
  const p = { plans: {}, requests: {}, open: new Set(), late: [] };
  const refuse = (res) => res.writeHead(503, { "cache-control": "no-store" }).end();
  p.release = () => p.late.splice(0).forEach(refuse);
  p.plan = (plans) => {
    p.plans = plans;
    p.requests = Object.fromEntries(Object.keys(plans).map((k) => [k, 0]));
  };
  const server = http.createServer((req, res) => {
    const where = new URL(req.url, target).pathname;
    const planned = where in p.plans;
    const mode = planned ? (p.requests[where]++, p.plans[where].shift() || "pass") : "pass";
    if (mode === "late") return void p.late.push(res);
    if (mode === "fail") return refuse(res);
    const up = http.request(target + req.url, { method: req.method, headers: Object.assign({}, req.headers, { host: new URL(target).host }) }, (ur) => {
      // Nothing is cached: a later test's plan must see its path asked for.
      const headers = Object.assign({}, ur.headers, { "cache-control": "no-store" });
      delete headers.etag;
      if (mode === "pass") {
        res.writeHead(ur.statusCode, headers);
        ur.pipe(res);
        return;
      }
      // A body sent in pieces has no length known up front.
      delete headers["content-length"];
      res.writeHead(ur.statusCode, headers);
      const chunks = [];
      ur.on("data", (c) => chunks.push(c));
      ur.on("end", async () => {
        const body = Buffer.concat(chunks);
        if (mode === "stall") {
          res.write(body.subarray(0, 64 << 10));
          return; // and never more
        }
        const step = Math.ceil(body.length / 40);
        for (let at = 0; at < body.length && !res.destroyed; at += step) {
          res.write(body.subarray(at, at + step));
          await new Promise((r) => setTimeout(r, 100));
        }
        res.end();
      });
    });
    up.on("error", (err) => res.destroy(err));
    req.pipe(up);
  });
  server.on("connection", (c) => {
    p.open.add(c);
    c.on("close", () => p.open.delete(c));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  p.url = `http://127.0.0.1:${server.address().port}`;
  p.stop = () => {
    for (const c of p.open) c.destroy();
    return new Promise((resolve) => server.close(resolve));
  };
  return p;
}

const WASM = "/web/engine.wasm";

/** stoppedAfter is the MB of engine.wasm the error says arrived before it stopped (NaN: no such words). */
function stoppedAfter(text) {
  const m = /engine\.wasm\S* stopped arriving after (\d+\.\d\d) MB: no byte in/.exec(text);
  return m ? Number(m[1]) : NaN;
}

/** newPage opens a page with bridge.js's test hooks set (hooks: null sets none). */
async function newPage(hooks) {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  if (hooks) await page.addInitScript((h) => (window.apibankTestHooks = h), hooks);
  return { page, w };
}

/** duringStart sends a request as soon as the bridge exists and resolves {state (at the time), answer}. */
async function duringStart(page, req) {
  await page.waitForFunction(() => window.apibankEngine);
  return page.evaluate(async (text) => {
    const state = window.apibankEngine.status().state;
    const answer = await window.apibankEngine.request(text);
    return { state, answer };
  }, JSON.stringify(Object.assign({ v: 1 }, req)));
}

/** firstAccount is a user of the builtin world with its token. */
async function firstAccount(page) {
  const acc = await engineRequest(page, { op: "world", databases: ["Account"] });
  const [user, a] = Object.entries(acc.databases.Account)[0];
  return { user, token: a.token };
}

/** unexpected is a page's console errors but go-app's own about the service worker this file blocks. */
const unexpected = (w) => w.errors.filter((e) => !e.includes("goapp service worker registration failed"));

/**
 * status is the bridge's view of the engine, once bridge.js has run: under load, go-app can mount
 * the UI before the page's module script is evaluated (the UI waits for it before it looks for the
 * engine), and window.apibankEngine is not there yet.
 */
const status = async (page) => {
  await page.waitForFunction(() => window.apibankEngine, null, { timeout: 60000 });
  return page.evaluate(() => window.apibankEngine.status());
};
/** helped waits until the helper that warms the engine's code up beside it has made its variant. */
const helped = (page) => page.waitForFunction(() => window.apibankEngine.status().codeWarm, null, { timeout: 120000 });

test("the UI waits for bridge.js when app.wasm is running first", async () => {
  const { page, w } = await newPage(null);
  // bridge.js is held until app.wasm (listed before it, deferred too) runs: its UI is on the page.
  // A fixed delay could let bridge.js through first under load, and test nothing.
  let uiBefore = false;
  await page.route("**/web/bridge.js*", async (route) => {
    uiBefore = await page
      .waitForSelector("[data-testid=engine-status]", { state: "attached", timeout: 60000 })
      .then(() => true, () => false);
    await route.continue();
  });
  await page.goto(s.server.url + "/sandbox");
  await ready(page);
  assert.ok(uiBefore, "app.wasm's UI was on the page before bridge.js was served");
  assert.ok((await engineRequest(page, { op: "catalog", catalog: "apis" })).tools.length > 0);
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});

test("a worker that never says ready is restarted with the tab's state, and a request made meanwhile is answered", async () => {
  const { page, w } = await newPage(null);
  await page.goto(s.server.url + "/sandbox");
  await ready(page);
  const acct = await firstAccount(page);
  const when = "2035-06-07 08:09:10";
  await engineRequest(page, { op: "call", call: JSON.stringify(`[AddAlarm(token='${acct.token}', time='${when}')]`) });
  // Reload with the first worker told to hang, and 1.5 s for a start.
  await page.addInitScript(() => (window.apibankTestHooks = { stallStarts: 1, startMs: 1500 }));
  const t0 = Date.now();
  await page.reload({ waitUntil: "commit" });
  const r = await duringStart(page, { op: "world", databases: ["Alarm"] });
  assert.equal(r.state, "starting", "the request was made while the first worker hung");
  assert.ok(r.answer.ok, "the request made during the hang is answered: " + r.answer.error);
  const world = JSON.parse(r.answer.text);
  assert.ok(JSON.stringify(world.result.databases.Alarm).includes(when), "the sandbox history was replayed into the new worker");
  assert.equal(world.result.history.length, 1);
  await ready(page);
  const st = await status(page);
  assert.equal(st.restarts, 1);
  assert.match(st.lastError, /did not say ready within 1\.5 s/);
  assert.ok(Date.now() - t0 < 30000, "recovered in well under the normal start limit");
  // The engine works on: a call in the sandbox page.
  await page.getByTestId("sandbox-input").fill(`[DeleteAlarm(token='${acct.token}', time='${when}')]`);
  await page.getByTestId("sandbox-run").click();
  await page.waitForSelector("[data-testid=diff-row][data-kind=removed]");
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});

test("a fetch of engine.wasm that is never answered is given up and made again", async () => {
  const { page, w } = await newPage({ stallMs: 2000 });
  let fetches = 0;
  await page.route("**/web/engine.wasm*", async (route) => {
    if (++fetches === 1) return; // never answered: the page must not wait for it
    await route.continue();
  });
  await page.goto(s.server.url + "/", { waitUntil: "commit" });
  const r = await duringStart(page, { op: "catalog", catalog: "apis" });
  assert.ok(r.answer.ok, "the request made during the stall is answered: " + r.answer.error);
  await ready(page);
  assert.equal(fetches, 2, "engine.wasm was fetched once more");
  const st = await status(page);
  assert.match(st.lastError, /engine\.wasm.* did not start arriving in 2 s/);
  assert.equal(st.restarts, 0, "the worker itself started at once");
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});

test("an engine.wasm whose body stops halfway is given up and fetched again", async () => {
  const { page, w } = await newPage({ stallMs: 2000 });
  s.proxy.plan({ [WASM]: ["stall"] });
  await page.goto(s.proxy.url + "/", { waitUntil: "commit" });
  const r = await duringStart(page, { op: "catalog", catalog: "apis" });
  assert.ok(r.answer.ok, "the request made during the stall is answered: " + r.answer.error);
  await ready(page);
  assert.equal(s.proxy.requests[WASM], 2, "engine.wasm was fetched once more");
  const st = await status(page);
  assert.match(st.lastError, /no byte in 2 s$/);
  const got = stoppedAfter(st.lastError);
  assert.ok(got > 0 && got < 5, "the error says how much arrived (the first 64 KiB sent, decoded): " + st.lastError);
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});

test("a slow download of engine.wasm that keeps arriving is not given up", async () => {
  // 4 s of download in pieces 0.1 s apart, with 1.5 s allowed between two bytes.
  const { page, w } = await newPage({ stallMs: 1500 });
  s.proxy.plan({ [WASM]: ["trickle"] });
  const t0 = Date.now();
  await page.goto(s.proxy.url + "/", { waitUntil: "commit" });
  await ready(page);
  assert.ok(Date.now() - t0 > 4000, "the download took its 4 s");
  assert.equal(s.proxy.requests[WASM], 1, "engine.wasm was fetched once");
  const st = await status(page);
  assert.equal(st.lastError, "");
  assert.equal(st.attempt, 1);
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});

test("a download that always stops halfway ends in the error in words and a Retry that works", async () => {
  const { page } = await newPage({ stallMs: 1000, maxStarts: 2 });
  s.proxy.plan({ [WASM]: ["stall", "stall"] });
  await page.goto(s.proxy.url + "/sandbox", { waitUntil: "commit" });
  await page.waitForSelector("[data-testid=engine-status][data-state=failed]", { timeout: 20000 });
  const shown = await page.getByTestId("engine-error").textContent();
  assert.match(shown, /^could not load the engine: .*engine\.wasm.* stopped arriving after .* MB: no byte in 2 s \(2 attempts\)$/);
  assert.ok(stoppedAfter(shown) > 0, shown);
  assert.equal(s.proxy.requests[WASM], 2);
  await page.getByTestId("engine-retry").click();
  await ready(page);
  assert.equal(s.proxy.requests[WASM], 3, "Retry fetched engine.wasm again");
  assert.ok((await engineRequest(page, { op: "catalog", catalog: "apis" })).tools.length > 0);
  await page.close();
});

test("a first worker whose script failed to load while engine.wasm downloaded is replaced at its start, not waited for", async () => {
  // The bridge makes the first worker before the module is compiled; its 503 comes while
  // engine.wasm still trickles in (about 4 s).
  const { page, w } = await newPage({ startMs: 20000 });
  s.proxy.plan({ "/web/engine-worker.js": ["fail"], [WASM]: ["trickle"] });
  await page.goto(s.proxy.url + "/", { waitUntil: "commit" });
  await ready(page);
  await helped(page);
  assert.equal(s.proxy.requests["/web/engine-worker.js"], 3, "the worker's script was asked for once more, and once by the helper that warms the code up");
  const st = await status(page);
  assert.equal(st.restarts, 0, "the engine started in the worker made at its start: " + st.lastError);
  assert.equal(st.lastError, "");
  assert.ok((await engineRequest(page, { op: "catalog", catalog: "apis" })).tools.length > 0);
  const others = unexpected(w).filter((e) => !/status of 503/.test(e));
  assert.deepEqual(others, [], "console errors:\n" + others.join("\n"));
  await page.close();
});

test("a worker whose script does not arrive in time is ended and started again", async () => {
  // page.route does not see a dedicated worker's script: the proxy holds the first one back, and
  // fails it once the watchdog has given up on it (Chromium sends the next request of the same
  // script only once the first has ended, or after 20 s).
  const { page, w } = await newPage({ startMs: 1500 });
  s.proxy.plan({ "/web/engine-worker.js": ["late"] });
  await page.goto(s.proxy.url + "/", { waitUntil: "commit" });
  await page.waitForFunction(() => window.apibankEngine && window.apibankEngine.status().restarts > 0, null, { timeout: 120000 });
  s.proxy.release();
  await ready(page);
  await helped(page);
  assert.equal(s.proxy.requests["/web/engine-worker.js"], 3, "the worker's script was asked for once more, and once by the helper that warms the code up");
  const st = await status(page);
  assert.equal(st.restarts, 1);
  assert.match(st.lastError, /did not say ready within 1\.5 s/);
  assert.ok((await engineRequest(page, { op: "catalog", catalog: "apis" })).tools.length > 0);
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});

test("a start that keeps failing shows its error and a Retry button, refuses requests at once, and Retry recovers", async () => {
  // Both workers of the two attempts hang; the one Retry starts does not.
  const { page } = await newPage({ stallStarts: 2, startMs: 700, restartMs: 700, maxStarts: 2 });
  const t0 = Date.now();
  await page.goto(s.server.url + "/sandbox", { waitUntil: "commit" });
  const during = await duringStart(page, { op: "catalog", catalog: "apis" });
  assert.equal(during.answer.ok, false, "a request made while the start kept failing gets an error");
  assert.match(during.answer.error, /did not start.*press Retry/);
  await page.waitForSelector("[data-testid=engine-status][data-state=failed]", { timeout: 20000 });
  assert.ok(Date.now() - t0 < 20000, "the failure is shown within seconds, not after the test's 120 s");
  assert.match(await page.getByTestId("engine-error").textContent(), /did not say ready within 1\.4 s.*2 attempts/);
  const after = await page.evaluate(async () => {
    const t = performance.now();
    const a = await window.apibankEngine.request(JSON.stringify({ v: 1, op: "catalog", catalog: "apis" }));
    return { a, ms: performance.now() - t };
  });
  assert.equal(after.a.ok, false);
  assert.ok(after.ms < 1000, `a request while failed is refused at once (${after.ms} ms)`);
  // Retry's worker gets the normal time (a loaded machine may take over 0.7 s to start one).
  await page.evaluate(() => window.apibankEngine.configure({ startMs: 30000, restartMs: 20000 }));
  await page.getByTestId("engine-retry").click();
  await ready(page);
  assert.equal(await page.locator("[data-testid=engine-retry]").count(), 0, "the Retry button is gone");
  assert.ok((await engineRequest(page, { op: "catalog", catalog: "apis" })).tools.length > 0);
  // The page fetched again what was refused: the world and the example chips are there.
  await page.waitForSelector("[data-testid^=db-]");
  await page.waitForSelector("[data-testid=sandbox-example]");
  await page.close();
});

test("an engine.wasm that cannot be fetched shows the error; Retry fetches it again", async () => {
  const { page } = await newPage({ maxStarts: 2 });
  await page.route("**/web/engine.wasm*", (route) => route.abort("connectionrefused"));
  await page.goto(s.server.url + "/");
  await page.waitForSelector("[data-testid=engine-status][data-state=failed]", { timeout: 20000 });
  assert.match(await page.getByTestId("engine-error").textContent(), /could not load the engine/);
  await page.unroute("**/web/engine.wasm*");
  await page.getByTestId("engine-retry").click();
  await ready(page);
  assert.ok((await engineRequest(page, { op: "catalog", catalog: "apis" })).tools.length > 0);
  await page.close();
});

test("an IndexedDB that never answers does not keep the engine from starting after a reload", async () => {
  // A small folder to import: one dialogue and the databases.
  const dir = mkdtempSync(path.join(tmpdir(), "apibank-e2e-startup-"));
  const builtin = path.join(root, "dataset", "builtin");
  const level = path.join("lv1-lv2-samples", "level-1-given-desc");
  mkdirSync(path.join(dir, level), { recursive: true });
  const first = readdirSync(path.join(builtin, level)).filter((f) => f.endsWith(".jsonl")).sort()[0];
  cpSync(path.join(builtin, level, first), path.join(dir, level, first));
  cpSync(path.join(builtin, "init_database"), path.join(dir, "init_database"), { recursive: true });
  const { page, w } = await newPage(null);
  await page.goto(s.server.url + "/import");
  await ready(page);
  await page.getByTestId("import-folder").setInputFiles(dir);
  await page.waitForSelector("[data-testid=import-result]");
  assert.equal((await page.evaluate(() => window.apibankEngine.saved())).imported, true);
  const acct = await firstAccount(page);
  await engineRequest(page, { op: "call", call: JSON.stringify(`[AddAlarm(token='${acct.token}', time='2036-01-02 03:04:05')]`) });
  // Reload with the bridge's IndexedDB database never answering (the runs' store is left alone).
  await page.addInitScript(() => {
    const open = indexedDB.open.bind(indexedDB);
    indexedDB.open = (name, version) => (name === "apibank" ? {} : open(name, version));
  });
  const t0 = Date.now();
  await page.reload();
  await ready(page);
  const ms = Date.now() - t0;
  assert.ok(ms < 30000, `ready ${ms} ms after the reload`);
  const saved = await page.evaluate(() => window.apibankEngine.saved());
  assert.equal(saved.imported, false, "the folder that could not be read back is not restored");
  assert.equal(saved.sandboxCalls, 0, "nor the sandbox calls made on it");
  const world = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.equal((world.history || []).length, 0, "the builtin world is untouched by those calls");
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a paste scored while the engine still arrives keeps its text and verdicts: the saved ones are not brought back over them", async () => {
  const { page, w } = await newPage(null);
  const rows = () => page.locator("[data-testid=verdict-row]").count();
  const box = () => page.$eval("[data-testid=bulk-predictions]", (el) => el.value);
  // A first visit scores 3 lines, which the page keeps.
  await page.goto(s.proxy.url + "/score");
  await ready(page);
  const samples = (await engineRequest(page, { op: "samples" })).filter((x) => x.kind !== "reply");
  const text = (n) => samples.slice(0, n).map((x) => JSON.stringify({ level: x.level, file: x.file, id: x.id, pred: "no call" })).join("\n") + "\n";
  await pasteAndScore(page, text(3));
  assert.equal(await rows(), 3);

  // The next visit's engine takes 4 s to arrive; meanwhile 5 other lines are pasted and Score pressed.
  s.proxy.plan({ [WASM]: ["trickle"] });
  await page.goto(s.proxy.url + "/score", { waitUntil: "commit" });
  await page.waitForFunction(() => !document.getElementById("app-wasm-loader") && document.querySelector("[data-testid=bulk-predictions]"), null, { timeout: 60000 });
  assert.notEqual((await status(page)).state, "ready", "the engine is still arriving");
  await pasteAndScore(page, text(5));
  await ready(page);
  await page.waitForTimeout(1000); // what the page's own start asked of the engine has come back by now
  assert.equal(await rows(), 5, "the verdicts are the paste's");
  assert.equal(await box(), text(5), "the box holds the paste");

  // And they are what the page kept.
  await page.goto(s.proxy.url + "/score");
  await ready(page);
  await page.waitForSelector("[data-testid=verdict-row]");
  assert.equal(await rows(), 5);
  assert.equal(await box(), text(5));
  assert.deepEqual(unexpected(w), [], "console errors:\n" + unexpected(w).join("\n"));
  await page.close();
});
