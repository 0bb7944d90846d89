// The board's submissions re-scored by the host: a whole run of every level (the perfect model's,
// native form, made by `apibank run` against the fake endpoint) submitted to cmd/server (SQLite,
// the engine under wazero) and to the Worker (workerd through `wrangler dev`, the local D1), by the
// same client in the same run, submissions interleaved: each submission's time from its first
// byte sent to its answer read, and the board's view. A submission answered other than 201, or an
// entry not complete and right everywhere, fails the run. `make bench` and `make bench-board` run
// it; SUBMISSIONS changes how many each host takes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { goBinary, startFakeModel, startServer, startWorker } from "./lib.mjs";

const SUBMISSIONS = Number(process.env.SUBMISSIONS || 5);
const lifted = "1000000";

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** fullRun runs `apibank run` of every level against the perfect model and returns its submission body. */
async function fullRun(dir) {
  const fake = await startFakeModel({}, ["--gold", "builtin"]);
  try {
    const out = path.join(dir, "run.jsonl");
    execFileSync(goBinary("apibank"), ["run", "--native", "--base-url", fake.url, "--model", "perfect", "--form", "native", "--concurrency", "8", "--out", out], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const rec = JSON.parse(readFileSync(path.join(dir, "run.run.json"), "utf8"));
    const trials = rec.trials.map((t) => ({ predictions: readFileSync(path.join(dir, t.file), "utf8"), failures: t.failures }));
    const preds = trials[0].predictions.split("\n").filter((l) => l && !l.includes('"transcript"')).length;
    const episodes = trials[0].predictions.split("\n").filter((l) => l.includes('"transcript"')).length;
    return { body: JSON.stringify({ format: "apibank-playground/submission@1", run: rec.run, trials }), preds, episodes };
  } finally {
    await fake.stop();
  }
}

async function submit(base, body) {
  const t0 = performance.now();
  const res = await fetch(base + "/api/v1/board", { method: "POST", headers: { "Content-Type": "application/json", Connection: "close" }, body });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 201) throw new Error(`${base}: submission answered ${res.status}: ${text.slice(0, 300)}`);
  const { entry } = JSON.parse(text);
  if (!entry.score.complete || entry.score.overall.accuracy !== 1) throw new Error(`${base}: the perfect run's entry is not complete and right: ${JSON.stringify(entry.score.overall)}`);
  return ms;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "apibank-bench-board-"));
  const targets = [];
  try {
    const run = await fullRun(dir);
    const server = await startServer(["--db", path.join(dir, "board.db"), "--board-submissions-per-address", lifted]);
    targets.push({ name: "server (SQLite, wazero)", base: server.url, stop: server.stop, ms: [] });
    const worker = await startWorker({ vars: { BOARD_SUBMISSIONS_PER_ADDRESS: lifted } });
    targets.push({ name: "Worker (workerd, local D1)", base: worker.url, stop: worker.stop, ms: [] });
    for (const t of targets) {
      for (const until = Date.now() + 120000; ; await new Promise((r) => setTimeout(r, 200))) {
        const h = await fetch(t.base + "/healthz", { headers: { Connection: "close" } });
        await h.text();
        if (h.status === 200) break;
        if (Date.now() > until) throw new Error(`${t.name}: /healthz answered ${h.status} for 2 minutes`);
      }
      t.first = await submit(t.base, run.body); // the first: an instance's data parsed on first use
    }
    for (let i = 0; i < SUBMISSIONS; i++) for (const t of targets) t.ms.push(await submit(t.base, run.body));
    for (const t of targets) {
      const t0 = performance.now();
      const res = await fetch(t.base + "/api/v1/board", { headers: { Connection: "close" } });
      const view = await res.json();
      t.view = performance.now() - t0;
      if (view.rows.length !== SUBMISSIONS + 1) throw new Error(`${t.name}: the board lists ${view.rows.length} rows`);
    }
    console.log(
      `board submissions: a whole run (${run.preds} predictions, ${run.episodes} episodes, ${(run.body.length / 1e6).toFixed(2)} MB) judged again, ${SUBMISSIONS} a host, interleaved (load average ${loadavg().map((x) => x.toFixed(2)).join(" ")})`,
    );
    for (const t of targets) {
      console.log(`  ${t.name}: p50 ${pct(t.ms, 0.5).toFixed(0)} ms, max ${Math.max(...t.ms).toFixed(0)} ms, first ${t.first.toFixed(0)} ms; the board of ${SUBMISSIONS + 1} entries in ${t.view.toFixed(0)} ms`);
    }
    console.log(`  the Worker takes ${(pct(targets[1].ms, 0.5) / pct(targets[0].ms, 0.5)).toFixed(2)}× the server's time (p50)`);
  } finally {
    for (const t of targets) await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
