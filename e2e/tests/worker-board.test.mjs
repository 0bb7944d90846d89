// The board on the Worker: cmd/worker on workerd (`wrangler dev`, 127.0.0.1, no network) keeps its
// entries in the local D1, through the same SQL store and handlers cmd/server uses over SQLite, and
// judges every submission again with its own engine. The runs submitted are made here, by
// `apibank run` against the fake endpoint's perfect model; every score checked is the hosts' own.
//
// The Worker runs with a small submission limit (a Worker variable) and on a state folder of this
// file's own, so that it can be stopped and started again on the same local D1. A second Worker ranks
// season 7 (BOARD_SEASON): a run made with apibank run --seed 7 is ranked, the original-data run
// listed apart, and the season's "ranked since" is kept in its D1 across a restart.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { goBinary, startFakeModel, startServer, startWorker } from "../lib.mjs";

const limit = 6;
const s = { worker: null, server: null, dir: mkdtempSync(path.join(tmpdir(), "apibank-worker-board-")), run: null, keys: [] };

/** levelRun runs `apibank run` of level 1 (on the variant of seed, when given) against the perfect model and returns the submission the record and file make. */
async function levelRun(seed = 0) {
  const fake = await startFakeModel({}, ["--gold", "builtin", ...(seed ? ["--seed", String(seed)] : [])]);
  try {
    const name = seed ? `run-${seed}` : "run";
    const out = path.join(s.dir, name + ".jsonl");
    execFileSync(goBinary("apibank"), ["run", "--native", "--base-url", fake.url, "--model", "perfect", "--level", "level-1-given-desc", "--out", out, ...(seed ? ["--seed", String(seed)] : [])], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const rec = JSON.parse(readFileSync(path.join(s.dir, name + ".run.json"), "utf8"));
    return { format: "apibank-playground/submission@1", run: rec.run, trials: rec.trials.map((t) => ({ predictions: readFileSync(path.join(s.dir, t.file), "utf8"), failures: t.failures })) };
  } finally {
    await fake.stop();
  }
}

before(async () => {
  s.run = await levelRun();
  s.persist = path.join(s.dir, "wrangler");
  s.worker = await startWorker({ persist: s.persist, vars: { BOARD_SUBMISSIONS_PER_ADDRESS: String(limit) } });
  s.server = await startServer(["--db", path.join(s.dir, "board.db")]);
  // The server answers 503 until its engine pool is up (/healthz says when).
  for (const until = Date.now() + 120000; ; await new Promise((r) => setTimeout(r, 200))) {
    const h = await fetch(s.server.url + "/healthz", { headers: { Connection: "close" } });
    await h.text();
    if (h.status === 200) break;
    if (Date.now() > until) throw new Error(`the server's /healthz answered ${h.status} for 2 minutes`);
  }
});

after(async () => {
  if (s.seasonWorker) await s.seasonWorker.stop();
  if (s.worker) await s.worker.stop();
  if (s.server) await s.server.stop();
  rmSync(s.dir, { recursive: true, force: true });
});

/** send sends a request on a connection of its own and resolves {status, headers, body} (parsed when JSON). */
async function send(base, method, p, body, key) {
  const headers = { Connection: "close", "Content-Type": "application/json" };
  if (key) headers.Authorization = "Bearer " + key;
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed, text };
}

const worker = (...a) => send(s.worker.url, ...a);

/** withLines is the run with its trial's lines changed by f. */
function withLines(sub, f) {
  const lines = sub.trials[0].predictions.trimEnd().split("\n");
  return { ...sub, trials: [{ ...sub.trials[0], predictions: f(lines).join("\n") + "\n" }] };
}

test("the Worker judges a submission as the server does, believes nothing it claims, and ranks it", async () => {
  const honest = await worker("POST", "/api/v1/board", s.run);
  assert.equal(honest.status, 201, honest.text.slice(0, 500));
  s.keys.push(honest.body.owner_key);
  const onServer = await send(s.server.url, "POST", "/api/v1/board", s.run);
  assert.equal(onServer.status, 201, onServer.text.slice(0, 500));
  assert.deepEqual(honest.body.entry.score, onServer.body.entry.score, "the Worker's score and the server's differ");
  assert.equal(honest.body.entry.engine, onServer.body.entry.engine, "the Worker is stamped with the server's engine build");
  assert.equal(honest.body.entry.score.overall.accuracy, 1);

  // Every third call answered wrong, with a forged report and forged verdicts on the lines.
  const forged = withLines(s.run, (ls) =>
    ls.map((l, i) => {
      const m = JSON.parse(l);
      if (i % 3 === 0) m.pred = "Sorry, I cannot help.";
      m.correct = true;
      m.category = "CORRECT";
      return JSON.stringify(m);
    }),
  );
  forged.report = { overall: { accuracy: 1, calls: 534, correct: 534 } };
  forged.run = { ...forged.run, model: "forger" };
  const f = await worker("POST", "/api/v1/board", forged);
  assert.equal(f.status, 201, f.text.slice(0, 500));
  s.keys.push(f.body.owner_key);
  assert.ok(f.body.entry.score.overall.accuracy < 0.9, `the forged claims were believed: ${JSON.stringify(f.body.entry.score.overall)}`);

  const partial = withLines(s.run, (ls) => ls.slice(0, 100));
  partial.run = { ...partial.run, model: "partial" };
  const p = await worker("POST", "/api/v1/board", partial);
  assert.equal(p.status, 201, p.text.slice(0, 500));
  assert.equal(p.body.entry.score.complete, false);

  const other = { ...s.run, run: { ...s.run.run, model: "other-data", data_hash: "0000000000000000" } };
  const o = await worker("POST", "/api/v1/board", other);
  assert.equal(o.status, 201, o.text.slice(0, 500));

  const view = await worker("GET", "/api/v1/board?level=level-1-given-desc");
  assert.equal(view.status, 200);
  const row = (model) => view.body.rows.find((r) => r.entry.run.model === model);
  assert.equal(row("perfect").section, "ranked");
  assert.equal(row("perfect").rank, 1);
  assert.equal(row("forger").section, "ranked");
  assert.equal(row("forger").rank, 2, "a model far worse is not tied with the perfect one");
  assert.equal(row("partial").section, "unranked");
  assert.match(row("partial").why, /partial/);
  assert.equal(row("other-data").section, "legacy");
  assert.match(row("other-data").why, /other data/);
  for (const k of s.keys) assert.ok(!s.worker.output.text.includes(k), "an owner key is in the Worker's log");
});

test("the Worker refuses bad input with its line (400), a body over its limit (413), and too many submissions (429)", async () => {
  const garbled = withLines(s.run, (ls) => [ls[0], "{oops", ...ls.slice(2)]);
  const g = await worker("POST", "/api/v1/board", garbled);
  assert.equal(g.status, 400, g.text);
  assert.equal(g.body.error.line, 2);
  const big = await fetch(s.worker.url + "/api/v1/board", { method: "POST", headers: { Connection: "close" }, body: "x".repeat(9 << 20) });
  assert.equal(big.status, 413, await big.text());
  // The limit counts every submission of a shape the board reads, judged or refused.
  let last;
  for (let i = 0; i < limit; i++) {
    last = await worker("POST", "/api/v1/board", { ...s.run, run: { ...s.run.run, model: `again-${i}` } });
    if (last.status === 429) break;
    assert.equal(last.status, 201, last.text.slice(0, 300));
  }
  assert.equal(last.status, 429, "the daily limit was never reached");
  assert.ok(Number(last.headers.get("retry-after")) >= 1, "429 without Retry-After");
  const health = await worker("GET", "/healthz");
  assert.equal(health.status, 200, "the Worker stopped answering after the refusals");
});

test("a restarted Worker keeps its board in D1, and a retracted entry stays listed as retracted", async () => {
  const before = await worker("GET", "/api/v1/board");
  const perfect = before.body.rows.find((r) => r.entry.run.model === "perfect");
  const wrong = await worker("DELETE", `/api/v1/board/${perfect.entry.id}`, undefined, "not-the-key");
  assert.equal(wrong.status, 401);
  const gone = await worker("DELETE", `/api/v1/board/${perfect.entry.id}`, undefined, s.keys[0]);
  assert.equal(gone.status, 200, gone.text);
  await s.worker.stop();
  s.worker = await startWorker({ persist: s.persist, vars: { BOARD_SUBMISSIONS_PER_ADDRESS: String(limit) } });
  const after = await worker("GET", "/api/v1/board");
  assert.equal(after.status, 200);
  assert.equal(after.body.entries.length, before.body.entries.length, "entries were lost in the restart");
  const row = after.body.rows.find((r) => r.entry.id === perfect.entry.id);
  assert.equal(row.section, "retracted");
  const verdicts = await worker("GET", `/api/v1/board/${perfect.entry.id}`);
  assert.equal(verdicts.status, 200);
  assert.equal(verdicts.body.verdicts.length, perfect.entry.score.expected);
  const file = await fetch(`${s.worker.url}/api/v1/board/${perfect.entry.id}/predictions`, { headers: { Connection: "close" } });
  assert.equal(await file.text(), s.run.trials[0].predictions, "the predictions download is not the file submitted");
});

test("a Worker of a season (BOARD_SEASON) ranks the season's run, lists the original-data run apart, and keeps since when in D1", async () => {
  const seasonRun = await levelRun(7);
  assert.equal(seasonRun.run.seed, 7, "apibank run --seed records its seed");
  const persist = path.join(s.dir, "wrangler-season");
  const start = () => startWorker({ persist, vars: { BOARD_SEASON: "7" } });
  s.seasonWorker = await start();
  const at = (...a) => send(s.seasonWorker.url, ...a);
  const on = await at("POST", "/api/v1/board", { ...seasonRun, run: { ...seasonRun.run, model: "on-season" } });
  assert.equal(on.status, 201, on.text.slice(0, 500));
  assert.equal(on.body.season, 7);
  assert.equal(on.body.entry.seed, 7);
  assert.equal(on.body.entry.score.overall.accuracy, 1, "judged on the season's variant, the perfect run is right everywhere");
  const original = await at("POST", "/api/v1/board", { ...s.run, run: { ...s.run.run, model: "on-original" } });
  assert.equal(original.status, 201, original.text.slice(0, 500));
  assert.equal(original.body.entry.seed, undefined, "the original-data run is judged on the original data");
  assert.equal(original.body.entry.score.overall.accuracy, 1, "judged on the data it was made on, the perfect run is right everywhere");
  assert.notEqual(original.body.entry.data, on.body.entry.data, "the variant's data hash is its own");

  const view = await at("GET", "/api/v1/board?level=level-1-given-desc");
  assert.equal(view.status, 200);
  assert.equal(view.body.current.season, 7);
  assert.equal(view.body.current.data, on.body.entry.data, "the board ranks the season's data");
  assert.match(view.body.current.since, /^\d{4}-\d\d-\d\dT/);
  // The season was first ranked by the submission, before this first read: no ranked entry predates since.
  assert.ok(Date.parse(view.body.current.since) <= Date.parse(on.body.entry.created),
    `ranked since ${view.body.current.since}, after the season's entry came at ${on.body.entry.created}`);
  const row = (rows, model) => rows.find((r) => r.entry.run.model === model);
  assert.equal(row(view.body.rows, "on-season").section, "ranked");
  assert.equal(row(view.body.rows, "on-season").rank, 1);
  assert.equal(row(view.body.rows, "on-original").section, "legacy");
  assert.equal(row(view.body.rows, "on-original").why, "made on the original data");

  // A restart on the same D1: the season is ranked since the same time.
  await s.seasonWorker.stop();
  s.seasonWorker = await start();
  const again = await send(s.seasonWorker.url, "GET", "/api/v1/board");
  assert.equal(again.status, 200);
  assert.equal(again.body.current.since, view.body.current.since, "since when the season is ranked changed in a restart");
  assert.equal(again.body.entries.length, 2);
});
