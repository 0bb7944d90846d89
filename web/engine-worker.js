// engine-worker.js: one tab's engine. A dedicated Web Worker that instantiates web/engine.wasm with our
// WASI shim (wasi.js) and answers engine protocol requests, so no engine work ever runs on the page's
// thread.
//
// Messages in:  {type: "init", module: WebAssembly.Module}
//               {type: "req", id, text}            text: one engine request (JSON text)
//               {type: "trap", id}                 a test hook: fail as a trapped instance does
//               {type: "ping", id}                 the page's heartbeat: answered with pong
//               {type: "hang"}                     a test hook: stop answering, as a worker closed silently
// Messages out: {type: "ready", ms}                 the instance is initialised (ms: instantiate + init)
//               {type: "res", id, text, ms}         the engine's response (JSON text), ms spent
//               {type: "crash", id, message, log}   the instance trapped or exited; this worker is done
//               {type: "log", fd, line}             a line the engine wrote to stdout or stderr
//               {type: "pong", id}                  the worker is alive
//               {type: "warm", ms}                  the idle warm-up is done (ms spent in it)
"use strict";
// The page passes the shim's hashed URL (?wasi=...) so it is cached with the worker.
importScripts(new URL(self.location.href).searchParams.get("wasi") || "wasi.js");

let engine = null;
let dead = null;
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
      const t0 = performance.now();
      try {
        engine = await ApibankWASI.Engine.start(msg.module, { output });
      } catch (err) {
        crash(null, err);
        return;
      }
      postMessage({ type: "ready", ms: performance.now() - t0 });
      setTimeout(warmUp, 0);
      return;
    }
    case "ping":
      postMessage({ type: "pong", id: msg.id });
      return;
    case "hang":
      self.close(); // no goodbye: the page must notice on its own
      return;
    case "req": {
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

// warmUp scores the builtin data's samples a few times in small steps while the tab is idle, so the
// page's first real score finds the engine's code compiled by the optimising tier and its heap grown
// (a fresh instance judges several times slower than a warm one). Each step is short and a message
// from the page is handled between two steps; the warm-up changes no state a page can see (scoring
// leaves the sandbox alone).
async function warmUp() {
  const t0 = performance.now();
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
    for (let i = 0; i < preds.length && dead === null; i += 200) {
      await new Promise((r) => setTimeout(r, 0));
      try {
        handle(JSON.stringify({ v: 1, op: "score_lines", stream: start.result.stream, lines: preds.slice(i, i + 200).join("\n"), line: i + 1 }));
      } catch (err) {
        crash(null, err);
        return;
      }
    }
    try {
      handle(JSON.stringify({ v: 1, op: "score_finish", stream: start.result.stream }));
    } catch (err) {
      crash(null, err);
      return;
    }
  }
  postMessage({ type: "warm", ms: performance.now() - t0 });
}
