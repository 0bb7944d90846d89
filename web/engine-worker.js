// engine-worker.js: one tab's engine. A dedicated Web Worker that instantiates web/engine.wasm with our
// WASI shim (wasi.js) and answers engine protocol requests, so no engine work ever runs on the page's
// thread.
//
// Messages in:  {type: "init", module: WebAssembly.Module}
//               {type: "req", id, text}            text: one engine request (JSON text)
//               {type: "trap", id}                 a test hook: fail as a trapped instance does
// Messages out: {type: "ready", ms}                 the instance is initialised (ms: instantiate + init)
//               {type: "res", id, text, ms}         the engine's response (JSON text), ms spent
//               {type: "crash", id, message, log}   the instance trapped or exited; this worker is done
//               {type: "log", fd, line}             a line the engine wrote to stdout or stderr
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
      return;
    }
    case "req": {
      if (dead !== null) {
        postMessage({ type: "crash", id: msg.id, message: "engine already stopped: " + dead, log: [] });
        return;
      }
      const t0 = performance.now();
      let text;
      try {
        text = engine.handle(msg.text);
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
