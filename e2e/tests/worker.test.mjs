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
  startWorker, launch, watch, open, engineRequest, fullDialogues, goldPredictions, jsonl, cli, pasteAndScore, verdicts,
  workerDir, wranglerBin, wranglerEnv, shared, root, startServer, pagesLoad, workerdPids, cpuMillis,
} from "../lib.mjs";

const s = { worker: null, browser: null };
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-worker-"));

before(async () => {
  s.worker = await startWorker();
  // The first request of a fresh runtime: the module compiled, a Go instance started, an answer.
  const t0 = performance.now();
  await (await call("/healthz")).text();
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

/**
 * call fetches p from the Worker (or from base); a failed fetch says why (undici hides it in the
 * cause) and what wrangler logged last. Each call has a connection of its own (Connection: close):
 * undici otherwise reuses an idle keep-alive socket, and when wrangler's dev proxy has just closed
 * it the request is written into a closed socket and fails with "other side closed" before the
 * Worker sees it (a CI run's failure: no request in wrangler's log). That is a race of the test's
 * client, not an answer of the Worker's, so it is avoided rather than retried.
 */
async function call(p, init = {}, base = s.worker.url) {
  try {
    return await fetch(base + p, { ...init, headers: { Connection: "close", ...(init.headers || {}) } });
  } catch (err) {
    throw new Error(`${init.method || "GET"} ${base}${p}: ${err.message}: ${err.cause && (err.cause.stack || err.cause)}\nwrangler:\n${s.worker.output.text.slice(-3000)}`);
  }
}

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
    const r = await call(c.path);
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
  // The API's health answer: the engine compiled into the Worker said hello.
  const health = await (await call("/healthz")).json();
  assert.equal(health.status, "ok");
  assert.equal(health.data, "builtin");
  assert.ok(health.engine && health.protocol >= 1, JSON.stringify(health));
  // The files are the build's own bytes.
  const wasm = Buffer.from(await (await call("/web/engine.wasm")).arrayBuffer());
  assert.ok(wasm.equals(readFileSync(path.join(workerDir, "build", "assets", "web", "engine.wasm"))), "engine.wasm is served as built");
  // What no file and no route answers is the API's 404 (with the headers), another method a 405.
  const missing = await call("/no-such-page");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, "not_found");
  for (const h of securityHeaders) assert.ok(missing.headers.get(h), `the 404 has ${h}`);
  // _headers configures the assets; it is not one of them.
  const headersFile = await call("/_headers");
  assert.equal(headersFile.status, 404);
  await headersFile.text();
  const post = await call("/healthz", { method: "POST" });
  assert.equal(post.status, 405);
  await post.text();
});

test("every page loads from the Worker in Chromium with no console errors", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await pagesLoad(page, s.worker.url, pagePaths());
  assert.deepEqual(w.errors, [], "console errors:\n" + w.errors.join("\n"));
  await page.close();
});

test("scoring in the Worker's page gives the CLI's verdicts and numbers", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.worker.url, "/score");
  const list = await engineRequest(page, { op: "dialogues", level: "level-1-given-desc" });
  const dls = await fullDialogues(page, list.slice(0, 40));
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
  const get = (p, status) => async () => {
    const r = await call(p);
    await r.text();
    assert.equal(r.status, status, p);
  };
  const bare = await measured(10, get("/no-such-page", 404));
  t.diagnostic(`GET of a missing page (a Go instance started, no engine): ${bare.wall.toFixed(1)} ms wall, ${bare.cpu.toFixed(1)} ms workerd CPU a request`);
  const health = await measured(10, get("/healthz", 200));
  t.diagnostic(`GET /healthz (a Go instance, an engine session with the builtin data, hello): ${health.wall.toFixed(1)} ms wall, ${health.cpu.toFixed(1)} ms workerd CPU a request`);
});

/**
 * post sends body to the Worker. A connection that wrangler's dev proxy breaks before any answer
 * (EPIPE or a reset while a multi-megabyte body is uploading, seen once on a loaded 2-core machine)
 * is tried once more, and the retry is reported; any answer, or a second break, is final.
 */
async function post(p, body, headers) {
  try {
    return await call(p, { method: "POST", body, headers });
  } catch (err) {
    if (!/EPIPE|ECONNRESET|other side closed|socket hang up/.test(err.message)) throw err;
    process.stderr.write(`# POST ${p}: the connection broke before an answer (${err.message.split("\n")[0]}); trying once more\n`);
    return call(p, { method: "POST", body, headers });
  }
}

/** originalData reads ../shared/apibank's files in the original layout, as the API's "data" takes them. */
function originalData() {
  const files = {};
  const walk = (dir) => {
    for (const f of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, f.name);
      if (f.isDirectory()) walk(p);
      else files[path.relative(shared, p).split(path.sep).join("/")] = readFileSync(p, "utf8");
    }
  };
  for (const d of ["lv1-lv2-samples", "lv3-samples", "init_database"]) walk(path.join(shared, d));
  return { name: path.basename(shared), files };
}

/** memoryLines are the Worker's access log lines since mark: each says the Go runtime's memory (sys_bytes) after its request. */
function memoryLines(mark) {
  return s.worker.output.text.slice(mark).split("\n").filter((l) => l.includes('"msg":"request"') && l.includes('"sys_bytes"')).map((l) => JSON.parse(l.slice(l.indexOf("{"))));
}

test("/api/v1/score on the oracle predictions equals `apibank score --out` byte for byte", async (t) => {
  const oracle = path.join(shared, "oracle", "verdicts.jsonl");
  if (!existsSync(oracle) || !existsSync(path.join(shared, "lv1-lv2-samples"))) {
    t.skip("../shared/apibank is absent: the original's data and oracle are needed for this test");
    return;
  }
  const out = path.join(tmp, "oracle.out");
  const cliReport = JSON.parse(cli(["score", "--data", shared, "--preds", oracle, "--state", "fresh", "--out", out, "--json"]));
  const want = readFileSync(out, "utf8");
  // The prediction lines go in as they are (no parse and re-encode that could change a number).
  const lines = readFileSync(oracle, "utf8").split("\n").filter((l) => l.trim());
  const body = `{"data":${JSON.stringify(originalData())},"state":"fresh","predictions":[${lines.join(",")}]}`;
  const mark = s.worker.output.text.length;
  const pids = workerdPids(s.worker.pid);
  const cpu0 = cpuMillis(pids);
  const t0 = performance.now();
  const r = await post("/api/v1/score", body, { "Content-Type": "application/json", Accept: "application/x-ndjson" });
  const text = await r.text();
  const wall = performance.now() - t0;
  const cpu = cpuMillis(pids) - cpu0;
  assert.equal(r.status, 200, text.slice(0, 500));
  assert.match(r.headers.get("content-type"), /^application\/x-ndjson/);
  const last = text.lastIndexOf("\n", text.length - 2);
  assert.equal(text.slice(0, last + 1), want, "the verdict lines are the CLI's --out bytes");
  assert.equal(want.split("\n").filter(Boolean).length, lines.length, "one verdict line per prediction");
  const tail = JSON.parse(text.slice(last + 1));
  assert.deepEqual(tail.report, cliReport, "the report is the CLI's --json report");
  // The log line follows the response: wait for it (at most 5 s).
  for (let i = 0; i < 50 && !memoryLines(mark).some((m) => m.path === "/api/v1/score"); i++) await new Promise((r) => setTimeout(r, 100));
  const mem = memoryLines(mark).filter((m) => m.path === "/api/v1/score");
  assert.ok(mem.length > 0, "the Worker logged its memory");
  const mib = mem.at(-1).sys_bytes / (1 << 20);
  t.diagnostic(`score, ${lines.length} oracle predictions with the original data (${(body.length / 1e6).toFixed(1)} MB body): ${wall.toFixed(0)} ms wall, ${cpu} ms workerd CPU, ${mib.toFixed(0)} MiB of Go memory (limit 128 MB)`);
  assert.ok(mib < 128, `the instance holds ${mib.toFixed(0)} MiB, under the isolate's 128 MB`);
  // The JSON form carries the same lines in {"lines": [...], "report", ...}.
  const j = await call("/api/v1/score", { method: "POST", body, headers: { "Content-Type": "application/json" } });
  const jtext = await j.text();
  assert.equal(j.status, 200);
  assert.ok(jtext.startsWith(`{"lines":[${want.trimEnd().split("\n").join(",\n")}],`), "the JSON form's lines are the same bytes");
  assert.deepEqual(JSON.parse(jtext).report, cliReport);
});

test("/api/v1/score on builtin predictions (JSONL body) equals the CLI's, and each request is a fresh session", async (t) => {
  const page = await s.browser.context.newPage();
  await open(page, s.worker.url, "/");
  const list = await engineRequest(page, { op: "dialogues", level: "level-2-toolsearcher" });
  const dls = await fullDialogues(page, list.slice(0, 30));
  await page.close();
  const file = path.join(tmp, "l2.jsonl");
  writeFileSync(file, jsonl(goldPredictions(dls)) + "not JSON\n");
  const out = path.join(tmp, "l2.out");
  const report = JSON.parse(cli(["score", "--preds", file, "--out", out, "--json", "--state", "replay"]));
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const r = await call("/api/v1/score?state=replay", { method: "POST", body: readFileSync(file), headers: { Accept: "application/x-ndjson" } });
    assert.equal(r.status, 200);
    answers.push(await r.text());
  }
  const text = answers[0];
  const last = text.lastIndexOf("\n", text.length - 2);
  assert.equal(text.slice(0, last + 1), readFileSync(out, "utf8"), "the verdict lines are the CLI's --out bytes (the bad line's error included)");
  assert.deepEqual(JSON.parse(text.slice(last + 1)).report, report);
  // Replay state advances a world inside the request: the same request must answer the same bytes.
  assert.equal(answers[1], text, "a second request sees no state of the first");
  assert.equal(answers[2], text);
});

test("the API's errors on the Worker: wrong method, unknown path, bad body, too large", async () => {
  const cases = [
    { method: "GET", path: "/api/v1/score", status: 405, code: "method_not_allowed" },
    { method: "GET", path: "/api/v1/nope", status: 404, code: "not_found" },
    { method: "POST", path: "/api/v1/score", body: "{", type: "application/json", status: 400, code: "bad_request" },
    { method: "POST", path: "/api/v1/score", body: "x".repeat(9 << 20), status: 413, code: "too_large" },
  ];
  for (const c of cases) {
    const r = await call(c.path, { method: c.method, body: c.body, headers: c.type ? { "Content-Type": c.type } : {} });
    const text = await r.text();
    assert.equal(r.status, c.status, `${c.method} ${c.path}: ${text.slice(0, 300)}`);
    const e = JSON.parse(text).error;
    assert.ok(e && e.message, `${c.method} ${c.path} says why: ${text.slice(0, 300)}`);
    if (c.code) assert.equal(e.code, c.code, `${c.method} ${c.path}`);
    for (const h of securityHeaders) assert.ok(r.headers.get(h), `${c.path} has ${h}`);
  }
  // The rest of the body the 413 left unread does not hold the Worker's next request: left unread,
  // it kept wrangler dev from answering for minutes.
  const next = await call("/healthz", { signal: AbortSignal.timeout(30000) }).catch((err) => ({ status: "no answer in 30 s: " + err.message }));
  assert.equal(next.status, 200, "the request after the 413");
});

/** builtinDialogues reads the builtin dialogues of a level from dataset/builtin, as goldPredictions takes them. */
function builtinDialogues(level) {
  const dir = path.join(root, "dataset", "builtin", "lv1-lv2-samples", level);
  return readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((file) => ({
    level, file, turns: readFileSync(path.join(dir, file), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)),
  }));
}

test("the Worker's API answers as cmd/server's (engine under wazero), byte for byte", async (t) => {
  // Each step's time, reported (with what wrangler logged meanwhile) when the test is slow: a full
  // run of this file has at times taken minutes here, and the report says where.
  const steps = [];
  let t0 = performance.now();
  let logFrom = s.worker.output.text.length;
  const earlier = s.worker.output.text.slice(-3000); // what the file's earlier tests left in wrangler's log
  const step = (what) => {
    const now = performance.now();
    steps.push({ what, ms: now - t0, log: s.worker.output.text.slice(logFrom) });
    t0 = now;
    logFrom = s.worker.output.text.length;
  };
  // timed resolves a request's response with its body read, and the time both took.
  const timed = async (p) => {
    const t1 = performance.now();
    const r = await p;
    const text = await r.text();
    return { r, text, ms: performance.now() - t1 };
  };
  const server = await startServer();
  step("cmd/server started");
  try {
    // The server compiles its engine in the background and answers 503 until then: wait (at most 60 s).
    for (let i = 0; i < 600; i++) {
      const r = await call("/healthz", {}, server.url);
      await r.text();
      if (r.status === 200) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    step("cmd/server's engine compiled");
    const gold = goldPredictions(builtinDialogues("level-1-given-desc").slice(0, 60));
    const preds = jsonl(gold.map((l, i) => (i % 4 === 1 ? { ...l, pred: l.pred.slice(0, Math.max(1, l.pred.length >> 1)) } : l))) + "{\"id\": 1}\n";
    const pairs = existsSync(path.join(shared, "oracle", "rouge-l.jsonl"))
      ? readFileSync(path.join(shared, "oracle", "rouge-l.jsonl"), "utf8")
      : gold.filter((l) => l.id % 2 === 1).map((l) => JSON.stringify({ ref: l.pred, hyp: l.pred.split(" ").reverse().join(" ") })).join("\n") + "\n";
    const requests = [
      ["GET", "/healthz"],
      ["GET", "/api/v1/openapi.json"],
      ["GET", "/api/v1/catalog?name=apis"],
      ["GET", "/api/v1/catalog?name=lv3_apis"],
      ["GET", "/api/v1/catalog?name=nope"],
      ["GET", "/api/v1/dataset"],
      ["GET", "/api/v1/prompts?level=level-1-given-desc&form=text"],
      ["GET", "/api/v1/prompts?level=level-2-toolsearcher&form=native"],
      ["POST", "/api/v1/score", preds, {}],
      ["POST", "/api/v1/score?state=fresh", preds, { Accept: "application/x-ndjson" }],
      ["POST", "/api/v1/score", "{\"predictions\": 3}", { "Content-Type": "application/json" }],
      ["POST", "/api/v1/rouge", pairs, { Accept: "application/x-ndjson" }],
      ["DELETE", "/api/v1/rouge"],
    ];
    for (const [method, p, body, headers] of requests) {
      const [wa, wb] = await Promise.all([s.worker.url, server.url].map((base) => timed(call(p, { method, body, headers }, base))));
      const [a, b, ta, tb] = [wa.r, wb.r, wa.text, wb.text];
      step(`${method} ${p}: the Worker ${wa.ms.toFixed(0)} ms, cmd/server ${wb.ms.toFixed(0)} ms`);
      assert.equal(a.status, b.status, `${method} ${p}: the Worker answered ${a.status}, the server ${b.status}: ${ta.slice(0, 200)} | ${tb.slice(0, 200)}`);
      assert.equal(a.headers.get("content-type"), b.headers.get("content-type"), `${method} ${p}`);
      assert.ok(ta.length > 0, `${method} ${p} answers something`);
      assert.equal(ta, tb, `${method} ${p}: the same bytes`);
    }
  } finally {
    await server.stop();
    const total = steps.reduce((a, x) => a + x.ms, 0);
    if (total > 30000) {
      t.diagnostic("wrangler's log before this test:\n" + earlier);
      for (const x of steps) t.diagnostic(`${(x.ms / 1000).toFixed(1)} s: ${x.what}` + (x.ms > 10000 && x.log ? `; wrangler meanwhile:\n${x.log.slice(-2000)}` : ""));
    }
  }
});
