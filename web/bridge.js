// bridge.js: the page's side of this tab's engine. It starts web/engine-worker.js (one dedicated worker
// per tab, so two tabs never share a world), sends it engine protocol requests, and keeps what is
// needed to rebuild the engine should it trap: the last load of an imported folder and the sandbox
// calls made since. After a trap it restarts the worker, replays that state, answers the failed request
// with an error, and sends on the requests that were waiting.
//
// The Go UI (web/app.wasm) calls window.apibankEngine.request(text) through syscall/js; the promise
// always resolves, with {ok: true, text, ms} or {ok: false, error, restarted}.
(function () {
  "use strict";

  const assets = window.apibankAssets || {};
  const engineURL = assets.engine || "/web/engine.wasm";
  const workerURL = assets.worker || "/web/engine-worker.js";

  let module = null; // the compiled engine, compiled once per tab and reused by restarts
  let worker = null;
  let ready = false;
  let nextID = 1;
  const inflight = new Map(); // id -> {text, resolve, internal}
  const waiting = []; // requests queued until the worker is ready
  const listeners = [];

  // The tab's engine state to restore after a restart.
  let loadText = null; // the last load of an imported folder (null: builtin)
  let sandbox = []; // sandbox call requests since the last load or reset
  let restoring = false;

  const status = { state: "starting", restarts: 0, readyMs: 0, lastError: "", engineMs: 0 };

  function setStatus(patch) {
    Object.assign(status, patch);
    for (const cb of listeners) {
      try {
        cb(Object.assign({}, status));
      } catch (err) {
        console.error("engine status listener:", err);
      }
    }
  }

  async function compile() {
    try {
      return await WebAssembly.compileStreaming(fetch(engineURL));
    } catch (err) {
      // A host that does not send application/wasm: compile from the bytes instead.
      const resp = await fetch(engineURL);
      if (!resp.ok) throw new Error("fetching " + engineURL + ": HTTP " + resp.status);
      return await WebAssembly.compile(await resp.arrayBuffer());
    }
  }

  function spawn() {
    ready = false;
    const w = new Worker(workerURL);
    worker = w;
    w.onmessage = (ev) => onMessage(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault();
      onCrash(w, null, "worker error: " + (ev.message || "unknown"));
    };
    w.postMessage({ type: "init", module });
  }

  function onMessage(w, msg) {
    if (w !== worker) return; // a message from a worker already replaced
    switch (msg.type) {
      case "ready":
        ready = true;
        restore(w).then((ok) => {
          if (!ok) return;
          setStatus({ state: "ready", engineMs: msg.ms, readyMs: performance.now() });
          if (status.restarts === 0) performance.mark("apibank-engine-ready");
          while (waiting.length > 0) send(waiting.shift());
        });
        return;
      case "res": {
        const r = inflight.get(msg.id);
        if (!r) return;
        inflight.delete(msg.id);
        track(r.text, msg.text);
        r.resolve({ ok: true, text: msg.text, ms: msg.ms });
        return;
      }
      case "crash":
        onCrash(w, msg.id, msg.message, msg.log);
        return;
      case "log":
        (msg.fd === 2 ? console.warn : console.log)("engine:", msg.line);
        return;
    }
  }

  // track keeps the state a restart must rebuild, from each request that succeeded.
  function track(reqText, respText) {
    let req, resp;
    try {
      req = JSON.parse(reqText);
      resp = JSON.parse(respText);
    } catch (err) {
      return;
    }
    if (!resp.ok) return;
    switch (req.op) {
      case "load":
        loadText = req.builtin ? null : reqText;
        sandbox = [];
        break;
      case "reset":
        sandbox = [];
        break;
      case "call":
        sandbox.push(reqText);
        break;
    }
  }

  function send(r) {
    const id = nextID++;
    inflight.set(id, r);
    worker.postMessage({ type: "req", id, text: r.text });
  }

  function onCrash(w, id, message, log) {
    if (w !== worker) return;
    w.terminate();
    worker = null;
    ready = false;
    let why = "the engine stopped (" + message + ")";
    if (restoring) {
      // The saved state itself brings the engine down: start clean rather than loop.
      restoring = false;
      loadText = null;
      sandbox = [];
      why += "; restoring this tab's data failed too, so the engine starts over with the builtin data";
    }
    console.warn("apibank:", why, (log || []).join("\n"));
    const again = [];
    for (const [rid, r] of inflight) {
      if (rid === id || r.internal) {
        r.resolve({ ok: false, error: why + "; it was restarted with this tab's data and sandbox history", restarted: true });
      } else {
        again.push(r);
      }
    }
    inflight.clear();
    waiting.unshift(...again);
    setStatus({ state: "restarting", restarts: status.restarts + 1, lastError: why });
    spawn();
  }

  // restore replays the saved state into a fresh worker, before any waiting request.
  async function restore(w) {
    const steps = [];
    if (loadText) steps.push(loadText);
    steps.push(...sandbox);
    sandbox = [];
    restoring = steps.length > 0;
    for (const text of steps) {
      if (worker !== w) return false;
      await new Promise((resolve) => {
        const id = nextID++;
        const r = { text, internal: true, resolve };
        inflight.set(id, r);
        worker.postMessage({ type: "req", id, text });
      });
    }
    restoring = false;
    return worker === w;
  }

  function request(text) {
    return new Promise((resolve) => {
      const r = { text, resolve };
      if (ready && worker) send(r);
      else waiting.push(r);
    });
  }

  async function start() {
    try {
      module = await compile();
    } catch (err) {
      setStatus({ state: "failed", lastError: "could not load the engine: " + err.message });
      for (const r of waiting.splice(0)) r.resolve({ ok: false, error: status.lastError });
      return;
    }
    spawn();
  }

  window.apibankEngine = {
    /** request sends one engine request (JSON text); resolves {ok, text, ms} or {ok: false, error}. */
    request,
    /** status returns {state, restarts, readyMs, lastError, engineMs}. */
    status: () => Object.assign({}, status),
    /** onStatus calls cb with the status at every change. */
    onStatus(cb) {
      listeners.push(cb);
    },
    /** trap makes the worker fail as a trapped instance does (a test hook for the restart path). */
    trap() {
      if (worker && ready) {
        const id = nextID++;
        worker.postMessage({ type: "trap", id });
      }
    },
    /** saved reports what a restart would restore: whether a folder is loaded, how many sandbox calls. */
    saved: () => ({ imported: loadText !== null, sandboxCalls: sandbox.length }),
  };

  start();
})();
