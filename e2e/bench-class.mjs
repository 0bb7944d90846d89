// The class answers endpoint under a class of 30 students answering at once (each sends its next
// answer as soon as the last is judged), on cmd/server (SQLite, the engine under wazero) and on the
// Worker (workerd through `wrangler dev`, the local D1), and the same workerd at its own socket
// (without wrangler dev's proxy), measured by the same client in the same run, rounds interleaved: answers judged a second, latency percentiles,
// the requests that failed, by status (on workerd a 503 "Your worker restarted mid-request": a
// student's tab queues such an answer and sends it again), and the Worker's rate as a fraction of
// the server's; and, in the same rounds, how often workerd serves a static asset, and refuses an
// answer to no task (Go and the engine without D1), to the same clients: ceilings that say where an
// answer's time goes under load. An answer judged other than correct, or refused as bad, fails the run. The class
// limits are lifted (cmd/server's flags, the Worker's variables): this measures what the endpoint
// holds, not the limits. Every answer is the gold call of one level-1 exercise, a dictionary
// lookup: right on every student's variant. Before the rounds, one student answers alone (ALONE answers one after the other) on each,
// for the latency of one answer, and VARIANTS new students answer five times each, for the time a
// host takes to make a variant. `make bench` and `make bench-class` run it; STUDENTS, ROUND_SECONDS
// (a round's length), ROUNDS, ALONE and VARIANTS change it.
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { root, startServer, startWorker, workerdDirect, workerdPids, cpuMillis } from "./lib.mjs";

const STUDENTS = Number(process.env.STUDENTS || 30);
const SECONDS = Number(process.env.ROUND_SECONDS || 15);
const ROUNDS = Number(process.env.ROUNDS || 2);
const ALONE = Number(process.env.ALONE || 40);
const VARIANTS = Number(process.env.VARIANTS || 10);
// KEPT is how many answers a variant's student sends after the first (see the variants' loop).
const KEPT = 4;
const lifted = "1000000000";
// noTask is a sample id the builtin data does not hold: the API refuses an answer to it (400) once
// the engine has looked, before the store is asked.
const noTask = 99999;

/**
 * factExercise is the first call sample (id 0) of the builtin data's first level-1 dialogue that
 * starts with one Dictionary call, and that call in the native form. Each student answers on a
 * variant of their own (class/wire's ExerciseSeed), and a word's meaning is a fact of the world that
 * no variant moves: the same gold is every student's right answer (a wrong verdict fails the run).
 */
function factExercise() {
  const level = "level-1-given-desc";
  const dir = path.join(root, "dataset", "builtin", "lv1-lv2-samples", level);
  for (const file of readdirSync(dir).sort()) {
    const turns = readFileSync(path.join(dir, file), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    const first = turns.findIndex((t) => t.role === "API");
    if (first < 0 || turns[first].api_name !== "Dictionary" || turns[first + 1]?.role === "API") continue;
    return { level, file, id: 0, gold: JSON.stringify({ name: "Dictionary", arguments: turns[first].param_dict }) };
  }
  throw new Error(`no dialogue of ${level} starts with one Dictionary call`);
}

/** post sends a JSON body on a connection of its own (see e2e/tests/worker.test.mjs) and resolves {status, body}. */
async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Connection: "close" }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text, timing: res.headers.get("server-timing") || "" };
}

/** round runs STUDENTS students answering for SECONDS and resolves the latencies, the answers judged, and the failures by status (with the first message of each). */
async function round(base, code, ex) {
  return load(async (i) => {
    const r = await post(`${base}/api/v1/classes/${code}/answers`, studentAnswer(i, ex, ex.id));
    if (r.status === 200 && JSON.parse(r.body).correct === true) return ["", ""];
    return [r.status === 200 ? "200 not correct" : String(r.status), r.body.slice(0, 160)];
  });
}

/** studentAnswer is student i's answer to sample id of ex's dialogue: ex's gold call. */
function studentAnswer(i, ex, id) {
  return { student: `student ${String(i).padStart(2, "0")}`, level: ex.level, file: ex.file, id, answer: ex.gold };
}

/** staticRound has STUDENTS clients ask for the home page (a static asset, which never reaches Go) for SECONDS, each its next as soon as the last has come: what the host serves a second with no Go, no engine and no D1 in the way. */
async function staticRound(base) {
  return load(async () => {
    const r = await fetch(base + "/", { headers: { Connection: "close" } });
    const text = await r.text();
    return r.status === 200 ? ["", ""] : [String(r.status), text.slice(0, 160)];
  });
}

/** refusedRound has STUDENTS students send an answer to a task the data does not hold for SECONDS: the Go handler and the engine answer 400 before the store is asked, so this is what the host does a second with Go and the engine and no D1. */
async function refusedRound(base, code, ex) {
  return load(async (i) => {
    const r = await post(`${base}/api/v1/classes/${code}/answers`, studentAnswer(i, ex, noTask));
    return r.status === 400 ? ["", ""] : [String(r.status), r.body.slice(0, 160)];
  });
}

/** load runs STUDENTS clients for SECONDS, each sending its next request (send(i) resolves ["", ""] for a good answer, or [kind, why]) as soon as the last has come, and resolves the latencies, the good answers and the failures by kind (with the first message of each). */
async function load(send) {
  const lat = [];
  let judged = 0;
  const errors = {};
  const end = Date.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: STUDENTS }, async (_, i) => {
      while (Date.now() < end) {
        const t0 = performance.now();
        let kind = "";
        let why = "";
        try {
          [kind, why] = await send(i);
          if (!kind) judged++;
        } catch (err) {
          [kind, why] = ["no answer", String(err.cause || err)];
        }
        lat.push(performance.now() - t0);
        if (kind) {
          errors[kind] ||= { n: 0, first: why };
          errors[kind].n++;
        }
      }
    }),
  );
  return { lat, judged, errors, seconds: (performance.now() - start) / 1000 };
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function main() {
  const ex = factExercise();
  const dbDir = mkdtempSync(path.join(tmpdir(), "apibank-bench-class-"));
  const targets = [];
  try {
    const server = await startServer(["--db", path.join(dbDir, "classes.db"), "--class-answers-per-class", lifted, "--class-answers-per-student", lifted]);
    targets.push({ name: "server (SQLite, wazero)", base: server.url, stop: server.stop, rates: [], lat: [], errors: {} });
    const worker = await startWorker({ vars: { CLASS_ANSWERS_PER_CLASS: lifted, CLASS_ANSWERS_PER_STUDENT: lifted } });
    targets.push({ name: "Worker (wrangler dev: its proxy, then workerd; local D1)", base: worker.url, stop: worker.stop, rates: [], lat: [], errors: {} });
    // The same workerd at its own socket, as a deployed Worker is reached: without the proxy that
    // wrangler dev puts in front of it (a second workerd, for reloads).
    const direct = await workerdDirect(worker);
    if (direct) targets.push({ name: "Worker (workerd alone, the same instance; local D1)", base: direct, stop: async () => {}, rates: [], lat: [], errors: {} });
    else console.log("  (workerd's own socket was not found: the Worker is measured through wrangler dev's proxy only)");
    for (const t of targets) {
      // The server answers 503 until its engine pool is up (/healthz says when).
      for (const until = Date.now() + 120000; ; await new Promise((r) => setTimeout(r, 200))) {
        const h = await fetch(t.base + "/healthz", { headers: { Connection: "close" } });
        await h.text();
        if (h.status === 200) break;
        if (Date.now() > until) throw new Error(`${t.name}: /healthz answered ${h.status} for 2 minutes`);
      }
      const made = await post(t.base + "/api/v1/classes", { name: "bench" });
      if (made.status !== 201) throw new Error(`${t.name}: making a class: ${made.status} ${made.body}`);
      t.code = JSON.parse(made.body).class;
      const warm = await post(`${t.base}/api/v1/classes/${t.code}/answers`, { student: "warm-up", level: ex.level, file: ex.file, id: ex.id, answer: ex.gold });
      if (warm.status !== 200) throw new Error(`${t.name}: the first answer: ${warm.status} ${warm.body}`);
    }
    // One answer alone: a student's answers one after the other, nothing else in flight.
    for (let i = 0; i < ALONE; i++) {
      for (const t of targets) {
        const t0 = performance.now();
        const r = await post(`${t.base}/api/v1/classes/${t.code}/answers`, { student: "alone", level: ex.level, file: ex.file, id: ex.id, answer: ex.gold });
        (t.alone ||= []).push(performance.now() - t0);
        if (r.status !== 200) throw new Error(`${t.name}: an answer alone: ${r.status} ${r.body}`);
        const handler = /handler;dur=([\d.]+)/.exec(r.timing); // the Worker's own time in Go
        if (handler) (t.handler ||= []).push(Number(handler[1]));
      }
    }
    // A variant per host: a new student's first answer makes their exercise's variant (its seed is
    // the class's, the student's and the exercise's, see class/wire); their next answers are judged
    // on the variant the host kept. The server's instances take turns and each makes its own, so
    // the best of the next KEPT answers is the one judged on a variant kept. All are timed by the
    // client, one after the other with nothing else in flight (on workerd, Date.now stands still
    // while the CPU works, so its own timing cannot say).
    for (let i = 0; i < VARIANTS; i++) {
      for (const t of targets) {
        const v = (t.variant ||= { made: [], kept: [] });
        let best = Infinity;
        for (let k = 0; k <= KEPT; k++) {
          const t0 = performance.now();
          const r = await post(`${t.base}/api/v1/classes/${t.code}/answers`, { student: `variant ${i}`, level: ex.level, file: ex.file, id: ex.id, answer: ex.gold });
          const ms = performance.now() - t0;
          if (r.status !== 200 || JSON.parse(r.body).correct !== true) throw new Error(`${t.name}: a variant's answer: ${r.status} ${r.body}`);
          if (k === 0) v.made.push(ms);
          else best = Math.min(best, ms);
        }
        v.kept.push(best);
      }
    }
    // Where an answer's time goes on workerd: the CPU the Worker's runtime spends (all its threads,
    // from /proc) on a request of each kind, one after the other, at its own socket.
    const costs = [];
    if (direct) {
      const t = targets.at(-1);
      const pids = workerdPids(worker.pid);
      const answers = `${t.base}/api/v1/classes/${t.code}/answers`;
      const kinds = [
        ["a static asset (no Go)", () => fetch(t.base + "/", { headers: { Connection: "close" } })],
        ["/api/v1/openapi.json (Go, no engine, no D1)", () => fetch(t.base + "/api/v1/openapi.json", { headers: { Connection: "close" } })],
        ["an answer the engine refuses (400: Go and the engine, no D1)", () => post(answers, { student: "cost", level: ex.level, file: ex.file, id: noTask, answer: ex.gold })],
        ["an answer judged and kept (Go, the engine, one D1 statement)", () => post(answers, { student: "cost", level: ex.level, file: ex.file, id: ex.id, answer: ex.gold })],
      ];
      for (const [what, send] of kinds) {
        const c0 = cpuMillis(pids);
        const t0 = performance.now();
        for (let i = 0; i < ALONE; i++) {
          const r = await send();
          if (r.text) await r.text();
        }
        costs.push(`    ${what}: ${((cpuMillis(pids) - c0) / ALONE).toFixed(1)} ms of workerd CPU, ${((performance.now() - t0) / ALONE).toFixed(1)} ms wall`);
      }
    }
    // Beside the answers, in the same rounds, on workerd (at its own socket when found): ceilings
    // for an answer, with no Go at all, and with Go and the engine but no D1.
    const bare = targets.at(-1);
    const ceilings = [
      { what: "serves the home page (a static asset, no Go)", round: () => staticRound(bare.base), rates: [] },
      { what: "refuses an answer to no task (Go and the engine, no D1)", round: () => refusedRound(bare.base, bare.code, ex), rates: [] },
    ];
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of targets) {
        const got = await round(t.base, t.code, ex);
        t.rates.push(got.judged / got.seconds);
        t.lat.push(...got.lat);
        for (const [k, e] of Object.entries(got.errors)) {
          t.errors[k] ||= { n: 0, first: e.first };
          t.errors[k].n += e.n;
        }
      }
      for (const c of ceilings) {
        const got = await c.round();
        if (Object.keys(got.errors).length) throw new Error(`${bare.name} ${c.what}: failed ${JSON.stringify(got.errors)}`);
        c.rates.push(got.judged / got.seconds);
      }
    }
    console.log(`class answers, ${STUDENTS} students at once, ${ROUNDS} interleaved rounds of ${SECONDS} s each (load average ${loadavg().map((x) => x.toFixed(2)).join(" ")})`);
    for (const t of targets) {
      t.lat.sort((a, b) => a - b);
      t.rate = t.rates.reduce((a, b) => a + b, 0) / t.rates.length;
      const failed = Object.entries(t.errors).map(([k, e]) => `${e.n} × ${k} (${e.first})`);
      console.log(
        `  ${t.name}: ${t.rate.toFixed(1)} answers judged a second (rounds ${t.rates.map((x) => x.toFixed(1)).join(", ")}), ${t.lat.length} requests, latency p50 ${pct(t.lat, 0.5).toFixed(0)} ms, p99 ${pct(t.lat, 0.99).toFixed(0)} ms; failed: ${failed.length ? failed.join("; ") : "none"}; one answer alone: p50 ${pct(t.alone.sort((a, b) => a - b), 0.5).toFixed(1)} ms${t.handler ? ` (of which in the Go handler, p50 ${pct(t.handler.sort((a, b) => a - b), 0.5).toFixed(1)} ms)` : ""}`,
      );
    }
    console.log(`a variant of the builtin data per host: a new student's first answer (their variant made) and the best of their next ${KEPT} (the variant kept), ${VARIANTS} students one after the other`);
    for (const t of targets) {
      const made = t.variant.made.sort((a, b) => a - b);
      const kept = t.variant.kept.sort((a, b) => a - b);
      console.log(`  ${t.name}: first answer p50 ${pct(made, 0.5).toFixed(0)} ms (min ${made[0].toFixed(0)}), kept p50 ${pct(kept, 0.5).toFixed(0)} ms: a variant costs about ${(pct(made, 0.5) - pct(kept, 0.5)).toFixed(0)} ms`);
    }
    if (costs.length) console.log(`  a request's cost on workerd alone, ${ALONE} of each one after the other:\n${costs.join("\n")}`);
    for (const t of targets.slice(1)) console.log(`  ${t.name}: ${((100 * t.rate) / targets[0].rate).toFixed(1)}% of the server's answers a second`);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const { what, rates } of ceilings) {
      console.log(
        `  ceiling: ${bare.name} ${what} ${mean(rates).toFixed(1)} times a second to the same ${STUDENTS} clients (rounds ${rates.map((x) => x.toFixed(1)).join(", ")}), ${((100 * mean(rates)) / targets[0].rate).toFixed(1)}% of the server's answers a second`,
      );
    }
    // A refusal is reported, not fatal: a student's tab queues a 5xx-refused answer and sends it again.
    if (targets.some((t) => t.errors["200 not correct"] || t.errors["400"])) process.exitCode = 1;
  } finally {
    for (const t of targets) await t.stop();
    rmSync(dbDir, { recursive: true, force: true });
  }
}

await main();
