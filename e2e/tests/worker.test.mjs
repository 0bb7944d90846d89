// The public demo on the real runtime: cmd/worker and the static export, run by the pinned wrangler
// on workerd (`wrangler dev`, 127.0.0.1, no network), driven by fetch and by Chromium. Expected
// numbers come from the CLI (the same engine under wazero) or from the build itself, never from
// constants; the platform's limits are the documented ones (Workers: 3 MB compressed free, 10 MB
// paid, 1 s start-up, 128 MB memory).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startWorker, launch, watch, open, engineRequest, goldPredictions, jsonl, cli, pasteAndScore, verdicts,
  workerDir, wranglerBin, wranglerEnv,
} from "../lib.mjs";

const s = { worker: null, browser: null };
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-worker-"));

before(async () => {
  s.worker = await startWorker();
  // The first request of a fresh runtime: the module compiled, a Go instance started, an answer.
  const t0 = performance.now();
  await (await fetch(s.worker.url + "/healthz")).text();
  s.firstRequest = performance.now() - t0;
  s.browser = await launch();
});

after(async () => {
  if (s.browser) await s.browser.close();
  if (s.worker) await s.worker.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** pagePaths are the pages of the static export the Worker serves: index.html is /, x.html is /x. */
function pagePaths() {
  const dir = path.join(workerDir, "build", "assets");
  return readdirSync(dir).filter((f) => f.endsWith(".html")).map((f) => (f === "index.html" ? "/" : "/" + f.slice(0, -5))).sort();
}

const securityHeaders = ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options", "cross-origin-opener-policy"];

test("the Worker answers /healthz, the pages and web/ with their types and the security headers", async () => {
  const cases = [
    { path: "/healthz", type: /^application\/json/ },
    { path: "/web/engine.wasm", type: /^application\/wasm/ },
    { path: "/web/app.wasm", type: /^application\/wasm/ },
    { path: "/web/wasi.js", type: /javascript/ },
    { path: "/web/style.css", type: /^text\/css/ },
    ...pagePaths().map((p) => ({ path: p, type: /^text\/html/ })),
  ];
  assert.ok(cases.length >= 12, "the export has its pages: " + pagePaths().join(" "));
  for (const c of cases) {
    const r = await fetch(s.worker.url + c.path);
    assert.equal(r.status, 200, c.path);
    assert.match(r.headers.get("content-type") || "", c.type, c.path);
    for (const h of securityHeaders) assert.ok(r.headers.get(h), `${c.path} has ${h}`);
    // web/ files are linked by content-hashed URLs: cached for good (so the tab also works offline);
    // a page is revalidated on every visit, so a new deploy is seen at once.
    const cache = r.headers.get("cache-control") || "";
    if (c.path.startsWith("/web/")) assert.match(cache, /immutable/, c.path);
    else if (c.type.source.includes("html")) assert.match(cache, /max-age=0|no-cache/, c.path);
    await r.arrayBuffer();
  }
  const health = await (await fetch(s.worker.url + "/healthz")).json();
  assert.deepEqual(health, { status: "ok", runtime: "cloudflare-workers" });
  // The files are the build's own bytes.
  const wasm = Buffer.from(await (await fetch(s.worker.url + "/web/engine.wasm")).arrayBuffer());
  assert.ok(wasm.equals(readFileSync(path.join(workerDir, "build", "assets", "web", "engine.wasm"))), "engine.wasm is served as built");
  // What no file and no route answers is the API's 404 (with the headers), another method a 405.
  const missing = await fetch(s.worker.url + "/no-such-page");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, "not_found");
  for (const h of securityHeaders) assert.ok(missing.headers.get(h), `the 404 has ${h}`);
  // _headers configures the assets; it is not one of them.
  const headersFile = await fetch(s.worker.url + "/_headers");
  assert.equal(headersFile.status, 404);
  await headersFile.text();
  const post = await fetch(s.worker.url + "/healthz", { method: "POST" });
  assert.equal(post.status, 405);
  await post.text();
});

test("every page loads from the Worker in Chromium with no console errors", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  for (const p of pagePaths()) {
    await open(page, s.worker.url, p);
    await page.waitForSelector("main h1");
    assert.ok((await page.textContent("main h1")).trim().length > 0, p + " has a heading");
  }
  await page.click("nav >> text=Dataset");
  await page.waitForSelector("[data-testid=dialogue-row]");
  await page.click("[data-testid=dialogue-row] a");
  await page.waitForSelector("[data-testid=prompt-text]");
  assert.deepEqual(w.errors, [], "console errors:\n" + w.errors.join("\n"));
  await page.close();
});

test("scoring in the Worker's page gives the CLI's verdicts and numbers", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.worker.url, "/score");
  const list = await engineRequest(page, { op: "dialogues", level: "level-1-given-desc" });
  const dls = [];
  for (const d of list.slice(0, 40)) dls.push(await engineRequest(page, { op: "dialogue", level: d.level, file: d.file }));
  const gold = goldPredictions(dls);
  // Every third call wrong in a known way (the tool's name misspelt), so not every verdict is CORRECT.
  const lines = gold.map((l, i) => (l.id % 2 === 0 && i % 3 === 0 ? { ...l, pred: l.pred.replace(l.tool, l.tool + "X") } : l));
  const file = path.join(tmp, "mixed.jsonl");
  writeFileSync(file, jsonl(lines));
  await pasteAndScore(page, readFileSync(file, "utf8"));
  const got = await verdicts(page);
  const out = path.join(tmp, "mixed.out");
  const report = JSON.parse(cli(["score", "--preds", file, "--out", out, "--json"]));
  const want = readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.kind)
    .map((r) => [r.line, r.kind === "reply" ? "REPLY" : r.category]);
  assert.deepEqual(got, want, "the tab's verdicts are the CLI's, line by line");
  assert.ok(new Set(want.map(([, c]) => c)).size >= 3, "the lines reach several categories");
  assert.equal(await page.getByTestId("accuracy").textContent(), (report.overall.accuracy * 100).toFixed(1) + "%");
  assert.equal(await page.getByTestId("rouge-l").textContent(), report.overall.rouge_l.toFixed(4));
  assert.deepEqual(w.errors, []);
  await page.close();
});

/** workerdPids lists the workerd processes under wrangler's (the runtime that runs the Worker). */
function workerdPids(root) {
  const parent = new Map();
  const name = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      name.set(Number(d), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(d), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const under = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...name].filter(([pid, n]) => n === "workerd" && under(pid)).map(([pid]) => pid);
}

/** cpuMillis is the CPU time (user + system) the processes have used so far, in ms. */
function cpuMillis(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** measured runs fn n times and returns the mean wall and workerd CPU time of one run, in ms. */
async function measured(n, fn) {
  const pids = workerdPids(s.worker.pid);
  assert.ok(pids.length > 0, "workerd runs under wrangler");
  const cpu0 = cpuMillis(pids);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return { wall: (performance.now() - t0) / n, cpu: (cpuMillis(pids) - cpu0) / n };
}

test("the Worker fits the platform: bundle size, start-up and CPU time a request", async (t) => {
  // The upload as `wrangler deploy` would make it, without sending anything.
  const outdir = path.join(tmp, "dry-run");
  const text = execFileSync(process.execPath, [wranglerBin(), "deploy", "--dry-run", "--outdir", outdir], { cwd: workerDir, env: wranglerEnv(), encoding: "utf8" });
  const m = text.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
  assert.ok(m, "wrangler reports the upload's size: " + text);
  const [raw, gz] = [Number(m[1]), Number(m[2])];
  t.diagnostic(`bundle: ${raw} KiB raw, ${gz} KiB gzip (Workers: 3072 KiB free, 10240 KiB paid)`);
  assert.ok(gz < 10 * 1024, `the bundle (${gz} KiB gzip) is under the paid plan's 10 MB`);
  assert.ok(gz < 3 * 1024, `the bundle (${gz} KiB gzip) is under the free plan's 3 MB`);
  // Start-up as wrangler measures it: a CPU profile of the Worker's global scope.
  const profile = path.join(tmp, "startup.cpuprofile");
  execFileSync(process.execPath, [wranglerBin(), "check", "startup", "--outfile", profile], { cwd: workerDir, env: wranglerEnv(), encoding: "utf8" });
  const p = JSON.parse(readFileSync(profile, "utf8"));
  const idle = new Set(p.nodes.filter((n) => ["(idle)", "(program)", "(garbage collector)"].includes(n.callFrame.functionName)).map((n) => n.id));
  // A sample lasts until the next one (DevTools' reading of timeDeltas).
  const busy = p.samples.reduce((sum, id, i) => sum + (idle.has(id) ? 0 : p.timeDeltas[i + 1] || 0), 0) / 1000;
  const span = (p.endTime - p.startTime) / 1000;
  t.diagnostic(`first request of a fresh wrangler dev (compile, Go instance, answer): ${s.firstRequest.toFixed(0)} ms wall`);
  t.diagnostic(`start-up (wrangler check startup): ${busy.toFixed(1)} ms in the Worker's script of a ${span.toFixed(1)} ms profile (limit 1000 ms)`);
  assert.ok(span < 1000, "the start-up profile is under the 1 s limit");
  // Each request starts a Go instance: the cost of one that does no engine work, then of engine work.
  const health = await measured(10, async () => assert.equal((await fetch(s.worker.url + "/healthz")).status, 200));
  t.diagnostic(`GET /healthz (a Go instance started and stopped): ${health.wall.toFixed(1)} ms wall, ${health.cpu.toFixed(1)} ms workerd CPU a request`);
});
