// engine-worker.js: one tab's engine. A dedicated Web Worker that instantiates web/engine.wasm with our
// WASI shim (wasi.js) and answers engine protocol requests, so no engine work ever runs on the page's
// thread.
//
// Messages in:  {type: "init", module: WebAssembly.Module, stall}
//                                                  stall: a test hook (bridge.js apibankTestHooks):
//                                                  do nothing, as a start that hangs
//               {type: "req", id, text}            text: one engine request (JSON text)
//               {type: "trap", id}                 a test hook: fail as a trapped instance does
//               {type: "ping", id}                 the page's heartbeat: answered with pong
//               {type: "warm-up"}                  the page is idle: warm the engine up (once a worker)
//               {type: "warm-code"}                this worker is a helper (bridge/engine.js warmCode):
//                                                  make a variant, so its code is compiled, and say so
//               {type: "hang"}                     a test hook: stop answering, as a worker closed silently
//               {type: "bulk", id, blob | text, level, state, name, scratch, episodes}
//                                                  score a prediction text in chunks (see bulk below);
//                                                  a scratch run keeps no rows (the UI's warm-up)
//               {type: "rows", id, run, from, count} verdict rows [from, from+count) of bulk run `run`
// Messages out: {type: "ready", ms}                 the instance is initialised (ms: instantiate + init)
//               {type: "res", id, text, ms}         the engine's response (JSON text), ms spent
//               {type: "crash", id, message, log}   the instance trapped or exited; this worker is done
//               {type: "log", fd, line}             a line the engine wrote to stdout or stderr
//               {type: "pong", id}                  the worker is alive
//               {type: "warm", ms, memory}          the idle warm-up is done (ms spent in it; the
//                                                  engine's linear memory in bytes)
//               {type: "warm-variant", ms}          the warm-up's variant is made (ms it took)
//               {type: "warm-code", ms}             a helper's variant is made (ms it took)
//               {type: "progress", id, done, total} a bulk run's bytes scored so far
//               {type: "done", id, result}          a bulk or rows request's answer (an object)
"use strict";
// The page passes the shim's hashed URL (?wasi=...) so it is cached with the worker.
importScripts(new URL(self.location.href).searchParams.get("wasi") || "wasi.js");

let engine = null;
let dead = null;
let warming = false; // the warm-up has been asked for
const log = [];

function output(fd, line) {
  log.push(line);
  if (log.length > 50) log.shift();
  postMessage({ type: "log", fd, line });
}

function crash(id, err) {
  dead = String((err && err.message) || err);
  postMessage({ type: "crash", id, message: dead, log: log.slice(-20) });
}

self.onmessage = async (ev) => {
  const msg = ev.data;
  switch (msg.type) {
    case "init": {
      if (msg.stall) return; // never "ready": the page's start-up watchdog must notice
      const t0 = performance.now();
      try {
        engine = await ApibankWASI.Engine.start(msg.module, { output });
      } catch (err) {
        crash(null, err);
        return;
      }
      postMessage({ type: "ready", ms: performance.now() - t0 });
      return;
    }
    case "warm-up":
      // Asked for by the page once its UI is up and idle, not at "ready": a warm-up running while
      // app.wasm starts takes the cores (and the browser's compiler threads) the UI needs, which
      // delayed the UI of a first visit by seconds in WebKit.
      if (engine !== null && !warming) {
        warming = true;
        setTimeout(warmUp, 0);
      }
      return;
    case "warm-code":
      makeWarmVariant("warm-code");
      return;
    case "ping":
      postMessage({ type: "pong", id: msg.id });
      return;
    case "hang":
      self.close(); // no goodbye: the page must notice on its own
      return;
    case "req": {
      lastRequest = performance.now();
      if (dead !== null) {
        postMessage({ type: "crash", id: msg.id, message: "engine already stopped: " + dead, log: [] });
        return;
      }
      const t0 = performance.now();
      let text;
      try {
        text = handle(msg.text);
      } catch (err) {
        crash(msg.id, err);
        return;
      }
      postMessage({ type: "res", id: msg.id, text, ms: performance.now() - t0 });
      return;
    }
    case "bulk":
    case "rows": {
      lastRequest = performance.now();
      if (dead !== null) {
        postMessage({ type: "crash", id: msg.id, message: "engine already stopped: " + dead, log: [] });
        return;
      }
      let result;
      try {
        result = msg.type === "bulk" ? await bulk(msg) : await rows(msg);
      } catch (err) {
        if (err instanceof Refusal) result = { ok: false, error: err.message };
        else {
          crash(msg.id, err);
          return;
        }
      }
      postMessage({ type: "done", id: msg.id, result });
      return;
    }
    case "trap": {
      // What a trap looks like from here: the call into the module throws a RuntimeError.
      crash(msg.id, new WebAssembly.RuntimeError("unreachable (trap requested by the page's test hook)"));
      return;
    }
  }
};

// handle sends one request to the engine (the page's, or a warm-up step).
function handle(text) {
  return engine.handle(text);
}

// warmSeed is the variant the warm-up makes (any seed would do; the engine keeps it made).
const warmSeed = 1;

// warmUp scores the builtin data's samples a few times in small steps while the tab is idle, replays
// the gold calls, and collects the garbage all that left, so the page's first real score finds the
// engine's code compiled by the optimising tier, its heap grown and no collection due (a fresh
// instance judges several times slower than a warm one), and then, once the page pauses,
// makes a variant (warmVariant). Each step is short (the longest, a replay, a few hundred ms cold)
// and a message from the page is handled between two steps; the warm-up changes no state a page can
// see (scoring leaves the sandbox alone, the variant is not loaded).
async function warmUp() {
  const t0 = performance.now();
  let step = firstStep;
  let samples;
  try {
    const r = JSON.parse(handle(JSON.stringify({ v: 1, op: "samples" })));
    samples = r.ok ? r.result : [];
  } catch (err) {
    return;
  }
  const preds = samples.map((s, i) =>
    JSON.stringify({ level: s.level, file: s.file, id: s.id, pred: s.kind === "reply" ? "Sure, it is done now." : i % 2 ? "[" + (s.tool || "GetToday") + "(x='1')]" : "no call" })
  );
  for (let round = 0; round < 3 && dead === null; round++) {
    let start;
    try {
      start = JSON.parse(handle(JSON.stringify({ v: 1, op: "score_start" })));
    } catch (err) {
      return;
    }
    if (!start.ok) return;
    for (let i = 0; i < preds.length && dead === null; i += step) {
      await new Promise((r) => setTimeout(r, 0));
      const t = performance.now();
      try {
        handle(JSON.stringify({ v: 1, op: "score_lines", stream: start.result.stream, lines: preds.slice(i, i + step).join("\n"), line: i + 1 }));
      } catch (err) {
        crash(null, err);
        return;
      }
      step = nextStep(step, performance.now() - t);
    }
    try {
      handle(JSON.stringify({ v: 1, op: "score_finish", stream: start.result.stream }));
    } catch (err) {
      crash(null, err);
      return;
    }
  }
  // Every gold call once, in each form (the replay op): a right call runs its tool and is compared
  // with the gold's result, a path the made-up predictions above never take, and the gold results
  // the engine keeps are then ready. Without it, a tab's first five scores of the gold took twice
  // the time of a later one.
  for (const form of ["text", "native"]) {
    await new Promise((r) => setTimeout(r, 0));
    if (dead !== null) return;
    try {
      handle(JSON.stringify({ v: 1, op: "replay", form }));
    } catch (err) {
      crash(null, err);
      return;
    }
  }
  // The page's bulk path (Blob reading, chunking, keeping rows) once too, keeping nothing.
  try {
    if (dead === null) await bulk({ id: 0, text: preds.join("\n") + "\n", scratch: true });
  } catch (err) {
    if (!(err instanceof Refusal)) {
      crash(null, err);
      return;
    }
  }

  // The warm-up's garbage is collected now, not in the page's first score.
  if (!collectIdle()) return;
  postMessage({ type: "warm", ms: performance.now() - t0, memory: engine.instance.exports.memory.buffer.byteLength });
  warmVariant();
}

// A warm-up step scores a few samples; a page's request that arrives meanwhile waits for the step
// to end. The first step is small, as the engine's code is then at its slowest (a cold engine took
// several milliseconds for some samples); each next one is sized from the last one's time to take
// about stepMs, rather than a fixed count that a cold engine took a few hundred ms to score.
const firstStep = 10;
const stepMs = 15;

// nextStep is the size of the warm-up's next step after one of size samples took ms.
function nextStep(size, ms) {
  return Math.max(5, Math.min(400, Math.round((size * stepMs) / Math.max(ms, 1))));
}

// lastRequest is when the page last asked something of the engine (performance.now()).
let lastRequest = 0;

// warmVariant makes a variant of the builtin data once, kept but not loaded (the variant op), once
// the page has asked nothing for idleBeforeVariant ms: a fresh browser runs a variant's code in its
// baseline tier, and a first variant took several times the time of a later one. It is one step of
// up to a second, so it waits for a pause in the page's work (a run, a score) rather than delay it;
// it gives up after a few minutes without one.
async function warmVariant() {
  for (let i = 0; i < 600 && dead === null; i++) {
    if (performance.now() - lastRequest >= idleBeforeVariant) {
      makeWarmVariant("warm-variant");
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

// makeWarmVariant makes the variant of warmSeed, kept but not loaded (the variant op), and tells
// the page in a message of type with the ms it took; a trap ends this worker, as a request's does.
// The idle warm-up (warmVariant) and a helper's one job (warm-code) both make it.
function makeWarmVariant(type) {
  const t0 = performance.now();
  try {
    handle(JSON.stringify({ v: 1, op: "variant", seed: warmSeed }));
  } catch (err) {
    crash(null, err);
    return;
  }
  const ms = performance.now() - t0;
  // A helper is dropped once it has said so; a tab's own engine goes on, without the garbage.
  if (type === "warm-variant" && !collectIdle()) return;
  postMessage({ type, ms });
}

// collectIdle has the engine collect its garbage in idle time (the end of a warm-up step the page did
// not ask for), so the page's next request does not pay for a collection the warm-up made due; it
// tells whether the engine is still alive (a trap ends this worker, as a request's does).
function collectIdle() {
  try {
    engine.idle();
  } catch (err) {
    crash(null, err);
    return false;
  }
  return true;
}

// idleBeforeVariant is how long the page must have asked nothing before warmVariant runs (ms).
const idleBeforeVariant = 2000;

// Bulk scoring. The page hands the worker the whole prediction text at once (a Blob: a handle, no
// copy on the page's thread) and this worker reads it in chunks of whole lines, feeds them to the
// engine's score_start / score_lines / score_finish stream, reports progress, and keeps the verdict
// rows here. The page's thread then never splits, encodes or decodes the text or the verdicts: it
// gets the tallies and, on demand, the few rows in view (rows).
//
// CHUNK is the size of a chunk of input bytes (whole lines): one chunk takes the engine well under a
// second, so progress moves and a stuck worker is told from a busy one.
const CHUNK = 512 << 10;
const MAX_ERRORS = 1000; // line errors handed to the page (the count is always exact)

/** Refusal is an engine answer that refuses a bulk step (not a crash of the instance). */
class Refusal extends Error {}

// lastRun holds the last bulk run's compact rows: the input Blob, and per chunk its first input line,
// byte range, its verdict lines as one string with their start offsets, and its first row number.
// The input is read a chunk at a time and never held whole in this worker: a Blob's bytes live
// in the browser's blob storage.
let lastRun = null;
let runSeq = 0;

function call(req) {
  const text = handle(JSON.stringify(req));
  const i = text.indexOf("\n");
  const env = JSON.parse(i < 0 ? text : text.slice(0, i));
  if (!env.ok) throw new Refusal(env.error ? env.error.message : "the engine refused " + req.op);
  return { env, text, body: i < 0 ? "" : text.slice(i + 1) };
}

// cutAfterLine returns the index just after the first line end at or after from in bytes (bytes.length if none).
function cutAfterLine(bytes, from) {
  for (let i = from; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 10) return i + 1;
    if (c === 13) return bytes[i + 1] === 10 ? i + 2 : i + 1;
  }
  return bytes.length;
}

// lastCut returns the index just after the last line end of bytes whose kind is certain (a "\r" as
// the last byte may be the first half of "\r\n"), or -1 when there is none.
function lastCut(bytes) {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const c = bytes[i];
    if (c === 10) return i + 1;
    if (c === 13 && i < bytes.length - 1) return i + 1;
  }
  return -1;
}

// lineEnds counts the line ends of bytes[from, to) as the engine's LineReader does ("\r\n", "\r", "\n").
function lineEnds(bytes, from, to) {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c === 10) n++;
    else if (c === 13) {
      n++;
      if (bytes[i + 1] === 10) i++;
    }
  }
  return n;
}

async function readBytes(blob, from, to) {
  return new Uint8Array(await blob.slice(from, to).arrayBuffer());
}

// nextChunk reads the chunk of whole lines of blob from pos: CHUNK bytes cut after their last line
// end, more when one line is longer, the rest at the end.
async function nextChunk(blob, pos) {
  for (let want = CHUNK; ; want *= 2) {
    const to = Math.min(blob.size, pos + want);
    const bytes = await readBytes(blob, pos, to);
    if (to === blob.size) return bytes;
    const cut = lastCut(bytes);
    if (cut > 0) return bytes.subarray(0, cut);
  }
}

async function bulk(msg) {
  const t0 = performance.now();
  const blob = msg.blob || new Blob([msg.text || ""]);
  if (!msg.scratch) lastRun = null; // the previous run's rows go now, not after this one
  const decoder = new TextDecoder();
  const start = call({ v: 1, op: "score_start", level: msg.level || "", state: msg.state || "", name: msg.name || "predictions", episodes: !!msg.episodes });
  const stream = start.env.result.stream;
  const run = { id: ++runSeq, blob, chunks: [], rows: 0, cache: null };
  const errors = [];
  const episodes = []; // the level-3 episode lines set aside (msg.episodes), for the page to replay
  let errorCount = 0;
  let engineMs = 0;
  let pos = 0;
  let line = 1;
  postMessage({ type: "progress", id: msg.id, done: 0, total: blob.size });
  try {
    while (pos < blob.size) {
      const bytes = await nextChunk(blob, pos);
      const end = pos + bytes.length;
      const t1 = performance.now();
      const a = call({ v: 1, op: "score_lines", stream, lines: decoder.decode(bytes, { stream: true }), line });
      engineMs += performance.now() - t1;
      for (const e of a.env.result.errors) if (errors.length < MAX_ERRORS) errors.push(e);
      errorCount += a.env.result.errors.length;
      if (a.env.result.episodes) for (const ep of a.env.result.episodes) episodes.push(ep);
      // The verdict lines stay as one string per chunk with the offsets of its rows.
      const keep = [];
      for (const l of a.body.split("\n")) if (l !== "" && !l.startsWith('{"error":')) keep.push(l);
      const starts = new Uint32Array(keep.length + 1);
      for (let k = 0, at = 0; k < keep.length; k++) {
        starts[k] = at;
        at += keep[k].length + 1;
        starts[k + 1] = at;
      }
      run.chunks.push({ first: line, start: pos, end, rows: keep.join("\n") + "\n", starts, row0: run.rows });
      run.rows += keep.length;
      line += lineEnds(bytes, 0, bytes.length);
      pos = end;
      postMessage({ type: "progress", id: msg.id, done: pos, total: blob.size });
      // Let the page's heartbeat (and any other request) in between two chunks.
      await new Promise((r) => setTimeout(r, 0));
    }
  } finally {
    // A refused chunk ends the run: its stream is closed (the engine keeps only a few open).
    if (pos < blob.size && dead === null) {
      try {
        call({ v: 1, op: "score_finish", stream });
      } catch (err) {}
    }
  }
  const fin = call({ v: 1, op: "score_finish", stream });
  if (!msg.scratch) lastRun = run;
  const engineMemory = engine.instance.exports.memory.buffer.byteLength;
  return { ok: true, run: run.id, report: fin.text, errors: JSON.stringify(errors), errorCount, episodes: JSON.stringify(episodes), verdicts: run.rows, ms: performance.now() - t0, engineMs, engineMemory };
}

// predOf returns the "pred" of input line n of a run ("" when it has none), reading its chunk of
// the input (the last chunk read is kept for the next rows).
async function predOf(run, n) {
  const cs = run.chunks;
  let lo = 0;
  let hi = cs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cs[mid].first <= n) lo = mid;
    else hi = mid - 1;
  }
  const c = cs[lo];
  if (!c || c.first > n) return "";
  if (!run.cache || run.cache.chunk !== c) run.cache = { chunk: c, bytes: await readBytes(run.blob, c.start, c.end) };
  const bytes = run.cache.bytes;
  let at = 0;
  for (let k = c.first; k < n && at < bytes.length; k++) at = cutAfterLine(bytes, at);
  const stop = cutAfterLine(bytes, at);
  const text = new TextDecoder().decode(bytes.subarray(at, stop)).replace(/[\r\n]+$/, "");
  try {
    const p = JSON.parse(text).pred;
    return typeof p === "string" ? p : p === undefined ? "" : JSON.stringify(p);
  } catch (err) {
    return "";
  }
}

// rows answers verdict rows [from, from+count) of the last bulk run, each with its prediction text:
// {ok, rows: JSON array text of the verdicts, preds: the prediction of each}. A run this worker
// does not hold (it was restarted since) is refused with gone: true, so the page can score again.
async function rows(msg) {
  const run = lastRun;
  if (!run || (msg.run && msg.run !== run.id)) return { ok: false, gone: true, error: "the rows of this batch are gone (the engine was restarted): score it again" };
  const out = [];
  const preds = [];
  const from = Math.max(0, msg.from | 0);
  const to = Math.min(run.rows, from + Math.max(0, msg.count | 0));
  let ci = 0;
  for (let r = from; r < to; r++) {
    while (ci + 1 < run.chunks.length && run.chunks[ci + 1].row0 <= r) ci++;
    const c = run.chunks[ci];
    const k = r - c.row0;
    const text = c.rows.slice(c.starts[k], c.starts[k + 1] - 1);
    out.push(text);
    const m = /"line":(\d+)/.exec(text);
    preds.push(m ? await predOf(run, Number(m[1])) : "");
  }
  return { ok: true, rows: "[" + out.join(",") + "]", preds };
}
