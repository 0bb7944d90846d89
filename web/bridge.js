// bridge.js: the page's side of this tab's engine. It starts web/engine-worker.js (one dedicated worker
// per tab, so two tabs never share a world), sends it engine protocol requests, and keeps what is
// needed to rebuild the engine should it trap: the last load of an imported folder and the sandbox
// calls made since. After a trap it restarts the worker, replays that state, answers the failed request
// with an error, and sends on the requests that were waiting.
//
// The Go UI (web/app.wasm) calls window.apibankEngine.request(text) through syscall/js; the promise
// always resolves, with {ok: true, text, ms} or {ok: false, error, restarted}.
//
// A worker that stops answering (closed silently, or stuck) is treated as a trapped one: a heartbeat
// while idle and a timeout on every request detect it, and it is restarted with the tab's state.
// Start-up is watched too (see "The engine's life" below): a download of engine.wasm that stops
// arriving, a compile that does not end, a worker that does not say "ready" in time are each ended
// and tried again; after maxStarts failed attempts in a row the status is "failed" (the UI shows the
// error and a Retry button: retry()) and every request is answered with the error instead of waiting.
// Test hook: window.apibankTestHooks, read once when this script runs, may set the start-up times
// and counts (liveness) and stallStarts (the first n workers are told never to say "ready"); no page
// sets it.
// Bulk scoring (bulk) hands a prediction text to the worker as a Blob; the worker scores it in chunks
// of lines (score_start, score_lines, score_finish) and keeps the verdict rows, the page moves a
// <progress> element as chunks are done, and the Go UI fetches only the rows it shows (rows). A text
// box marked data-hold-large keeps a large paste out of the DOM (apibankHeld).
(function () {
  "use strict";

  const assets = window.apibankAssets || {};
  const engineURL = assets.engine || "/web/engine.wasm";
  const workerURL = assets.worker || "/web/engine-worker.js";

  let module = null; // the compiled engine, compiled once per tab and reused by restarts
  let worker = null;
  let marked = false; // the first "ready" of the tab is marked for the benchmark
  let starts = 0; // failed start attempts in a row (of the compile, or of workers that never got ready)
  let everReady = false; // a worker of this tab has said "ready" (later starts are restarts)
  let spawned = 0; // workers started in this tab (the first gets startMs, the others restartMs)
  let sessionRead = Promise.resolve(); // fromSession's promise: restore waits for it
  let nextID = 1;
  const inflight = new Map(); // id -> {text, resolve, internal}
  const waiting = []; // requests queued until the worker is ready
  const listeners = [];

  // The tab's engine state to restore after a restart.
  let loadText = null; // the last load of an imported folder (null: builtin)
  let sandbox = []; // sandbox call requests since the last load or reset
  let restoring = false;

  const status = { state: "starting", restarts: 0, readyMs: 0, lastError: "", engineMs: 0, warm: false, warmMs: 0, engineMemory: 0, bulkWarm: false, attempt: 1, phase: "compile" };

  // The engine's life in this tab is one state machine; phase is its state, and every change goes
  // through enter():
  //   compile  engine.wasm is fetched and compiled (the first start, or again after a failed compile)
  //   pause    a moment between a failed attempt and the next one
  //   spawn    a worker is started and has not said "ready"
  //   restore  it said "ready"; the tab's state (folder, sandbox calls) is replayed into it
  //   serve    requests go to the worker
  //   failed   maxStarts attempts in a row failed: requests are refused until retry()
  // compile -> spawn (module compiled) | pause (failed, attempts left) | failed;
  // pause -> compile (no module yet) | spawn; spawn -> restore ("ready") | pause | failed;
  // restore -> serve; restore, serve -> spawn (the worker trapped, closed or stopped answering);
  // failed -> compile | spawn (retry).
  let phase = "compile";
  let phaseAt = performance.now(); // when phase was entered
  let download = null; // while compiling: {ctl, got (bytes so far), lastByte (when), done (all in)}

  // Liveness: every message from the worker counts as a sign of life. While requests are in flight,
  // one with no sign of life for timeoutMs means the worker is gone; while idle, a ping every
  // heartbeatMs must be answered within heartbeatMs.
  // Start-up: a download of engine.wasm may take its time as long as bytes keep arriving, but none
  // for stallMs (or no answer at all in stallMs) is a hang; once all bytes are in, the compile has
  // compileMs to end. A first worker gets startMs from its creation to "ready" (a slow phone compiles
  // much of the 5.8 MB module lazily while the engine initialises), a later one restartMs (the page's
  // compiled module, and the code compiled by the first, are reused). Each bound is multiplied by the
  // attempt's number (a slow network or phone is not a hang). See RATIONALE.md "Start-up watchdog".
  const liveness = { heartbeatMs: 3000, timeoutMs: 60000, stallMs: 20000, compileMs: 30000, startMs: 30000, restartMs: 20000, maxStarts: 3 };
  const hooks = window.apibankTestHooks || {};
  for (const k of ["stallMs", "compileMs", "startMs", "restartMs", "maxStarts"]) if (typeof hooks[k] === "number") liveness[k] = hooks[k];
  let stallStarts = typeof hooks.stallStarts === "number" ? hooks.stallStarts : 0;
  let lastHeard = 0;
  let pingSent = 0; // when the unanswered ping was sent (0: none)
  let pingID = 0;
  setInterval(watchdog, 250);

  // enter moves the state machine to next and shows the change in the status.
  function enter(next, patch) {
    phase = next;
    phaseAt = performance.now();
    const state = next === "serve" ? "ready" : next === "failed" ? "failed" : everReady ? "restarting" : "starting";
    setStatus(Object.assign({ state, phase: next }, patch || {}));
  }

  // watchdog runs every 250 ms and ends whatever has overrun its phase's bound. A tick that comes late
  // (the page's thread was busy) judges nothing: the bytes and messages that came meanwhile are
  // handled before the next tick, and a busy page must not read as a stalled download or worker.
  let lastTick = performance.now();
  function watchdog() {
    const now = performance.now();
    const late = now - lastTick > 1000;
    lastTick = now;
    if (late) return;
    const n = starts + 1; // this attempt's number: bounds grow with it
    switch (phase) {
      case "compile": {
        const d = download;
        if (!d) return;
        if (d.done) {
          if (now - d.lastByte > liveness.compileMs * n) d.ctl.abort(new Error("compiling " + engineURL + " took over " + secs(liveness.compileMs * n) + " after its last byte"));
        } else if (now - d.lastByte > liveness.stallMs * n) {
          const what = d.got > 0 ? "stopped arriving after " + mb(d.got) + ": no byte in " : "did not start arriving in ";
          d.ctl.abort(new Error(engineURL + " " + what + secs(liveness.stallMs * n)));
        }
        return;
      }
      case "spawn": {
        const limit = (spawned > 1 ? liveness.restartMs : liveness.startMs) * n;
        if (now - phaseAt > limit) onCrash(worker, null, "it did not say ready within " + secs(limit));
        return;
      }
      case "restore":
      case "serve":
        checkAlive(now);
        return;
    }
  }

  const secs = (ms) => Math.round(ms / 100) / 10 + " s";
  const mb = (bytes) => (bytes / 1e6).toFixed(2) + " MB";

  // checkAlive watches a worker that said "ready" (see Liveness above).
  function checkAlive(now) {
    const w = worker;
    if (inflight.size > 0) {
      pingSent = 0;
      if (now - lastHeard > liveness.timeoutMs) {
        const oldest = inflight.keys().next().value;
        onCrash(w, oldest, "the engine stopped answering: no answer in " + secs(liveness.timeoutMs));
      }
      return;
    }
    if (pingSent > 0) {
      if (now - pingSent > liveness.heartbeatMs) onCrash(w, null, "the engine stopped answering its heartbeat");
      return;
    }
    if (now - lastHeard > liveness.heartbeatMs) {
      pingSent = now;
      w.postMessage({ type: "ping", id: ++pingID });
    }
  }

  // What survives a reload of this tab: the sandbox calls and which data is active live in
  // sessionStorage (per tab: another tab has its own); an imported folder, too big for it, lives in
  // IndexedDB under a key kept in sessionStorage.
  const SESSION_KEY = "apibank.engine";
  const KEEP_MS = 5000; // how long a load's answer waits for its folder to be kept (see track)
  let importedText = null; // the last imported folder's load request (kept while builtin is active)
  let importedName = "";

  function sessionSave() {
    try {
      sessionStorage.setItem(SESSION_KEY, JSON.stringify({ sandbox, imported: importedName, active: loadText ? "imported" : "builtin", key: tabKey }));
    } catch (err) {
      console.warn("apibank: could not save the sandbox history:", err.message);
    }
  }

  let tabKey = "";
  function sessionLoad() {
    try {
      return JSON.parse(sessionStorage.getItem(SESSION_KEY) || "null");
    } catch (err) {
      return null;
    }
  }

  function idb() {
    return new Promise((resolve, reject) => {
      const open = indexedDB.open("apibank", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("imports");
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
  }

  async function idbPut(key, value) {
    const db = await idb();
    await new Promise((resolve, reject) => {
      const tx = db.transaction("imports", "readwrite");
      const store = tx.objectStore("imports");
      store.put(value, key);
      // Keep only the three most recent imports.
      const all = store.getAll();
      const keys = store.getAllKeys();
      keys.onsuccess = () => {
        all.onsuccess = () => {
          const items = keys.result.map((k, i) => ({ k, at: (all.result[i] || {}).at || 0 })).sort((a, b) => b.at - a.at);
          for (const old of items.slice(3)) store.delete(old.k);
        };
      };
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }

  async function idbGet(key) {
    const db = await idb();
    const v = await new Promise((resolve, reject) => {
      const req = db.transaction("imports").objectStore("imports").get(key);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return v;
  }

  // within rejects when p has not settled after ms (an IndexedDB that never answers, say).
  function within(p, ms, what) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(what + " did not answer within " + ms / 1000 + " s")), ms);
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  async function idbClear() {
    const db = await idb();
    await new Promise((resolve) => {
      const tx = db.transaction("imports", "readwrite");
      tx.objectStore("imports").clear();
      tx.oncomplete = resolve;
      tx.onerror = resolve;
    });
    db.close();
  }

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

  // fetchAndCompile fetches engine.wasm and compiles it as its bytes arrive, counting them in d (the
  // watchdog tells a slow download, whose bytes keep coming, from a stalled one).
  async function fetchAndCompile(d) {
    const resp = await fetch(engineURL, { signal: d.ctl.signal });
    if (!resp.ok) throw new Error("fetching " + engineURL + ": HTTP " + resp.status);
    d.lastByte = performance.now();
    const reader = resp.body.getReader();
    const counted = new ReadableStream({
      async pull(c) {
        const { done, value } = await reader.read();
        d.lastByte = performance.now();
        if (done) {
          d.done = true;
          c.close();
          return;
        }
        d.got += value.byteLength;
        c.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const type = (resp.headers.get("content-type") || "").split(";")[0].trim();
    const body = new Response(counted, { headers: { "content-type": "application/wasm" } });
    // A host that does not send application/wasm (or a browser without compileStreaming): compile
    // from the whole bytes instead.
    if (type === "application/wasm" && WebAssembly.compileStreaming) return WebAssembly.compileStreaming(body);
    return WebAssembly.compile(await body.arrayBuffer());
  }

  // compile fetches and compiles engine.wasm (phase compile); the watchdog aborts it through
  // download.ctl when it overruns (see Liveness). It ends in spawn with the module, or in a failed
  // attempt.
  function compile() {
    const d = { ctl: new AbortController(), got: 0, lastByte: performance.now(), done: false };
    download = d;
    enter("compile");
    // The race also covers a compile that never settles once the bytes are in.
    const aborted = new Promise((_, reject) => d.ctl.signal.addEventListener("abort", () => reject(d.ctl.signal.reason)));
    Promise.race([fetchAndCompile(d), aborted]).then(
      (m) => {
        if (download !== d) return;
        download = null;
        module = m;
        starts = 0; // the worker gets its own attempts
        spawn();
      },
      (err) => {
        if (download !== d) return;
        download = null;
        const why = "could not load the engine: " + ((d.ctl.signal.aborted && d.ctl.signal.reason && d.ctl.signal.reason.message) || err.message);
        d.ctl.abort(); // whatever is left of the fetch
        console.warn("apibank:", why);
        failedStart(why);
      }
    );
  }

  // failedStart counts a start attempt that failed (of the compile, or of a worker that did not get
  // ready): while attempts are left the next one comes after a short pause, else the state is failed
  // and every waiting request is answered with the error.
  function failedStart(why, patch) {
    starts++;
    if (starts < liveness.maxStarts) {
      enter("pause", Object.assign({ attempt: starts + 1, lastError: why }, patch || {}));
      setTimeout(() => {
        if (phase === "pause") next();
      }, 500 * starts);
      return;
    }
    enter("failed", Object.assign({ lastError: why + " (" + starts + " attempts)" }, patch || {}));
    for (const r of waiting.splice(0)) r.resolve(notRunning());
  }

  // next starts the next attempt: a worker when the module is compiled, else the compile.
  function next(patch) {
    if (module) spawn(patch);
    else compile();
  }

  // notRunning is the answer to a request while the engine could not start.
  function notRunning() {
    return { ok: false, error: "the engine is not running: " + status.lastError + "; press Retry beside the engine's status" };
  }

  // spawn starts a worker with the compiled module (phase spawn).
  function spawn(patch) {
    lastHeard = performance.now();
    pingSent = 0;
    let w;
    try {
      w = new Worker(workerURL);
    } catch (err) {
      worker = null;
      failedStart("the engine did not start (could not create its worker: " + err.message + ")");
      return;
    }
    spawned++;
    worker = w;
    enter("spawn", patch);
    w.onmessage = (ev) => onMessage(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault();
      onCrash(w, null, "worker error: " + (ev.message || "unknown"));
    };
    const stall = stallStarts > 0; // the test hook (see the top of this file)
    if (stall) stallStarts--;
    w.postMessage({ type: "init", module, stall });
  }

  function onMessage(w, msg) {
    if (w !== worker) return; // a message from a worker already replaced
    lastHeard = performance.now();
    pingSent = 0;
    switch (msg.type) {
      case "pong":
        return;
      case "warm":
        setStatus({ warm: true, warmMs: msg.ms, engineMemory: msg.memory || 0 });
        return;
      case "ready":
        if (phase !== "spawn") return;
        starts = 0;
        enter("restore");
        restore(w).then((ok) => {
          if (!ok) return;
          lastHeard = performance.now();
          everReady = true;
          enter("serve", { engineMs: msg.ms, readyMs: performance.now(), attempt: 1 });
          if (!marked) performance.mark("apibank-engine-ready");
          marked = true;
          while (waiting.length > 0 && phase === "serve") send(waiting.shift());
        });
        return;
      case "res": {
        const r = inflight.get(msg.id);
        if (!r) return;
        inflight.delete(msg.id);
        const answer = { ok: true, text: msg.text, ms: msg.ms };
        // A load of a new folder is answered once the folder is kept: a reload right after the page
        // hears "loaded" must find it.
        track(r.text, msg.text).then(() => r.resolve(answer));
        return;
      }
      case "progress": {
        const r = inflight.get(msg.id);
        if (r && r.onProgress) r.onProgress(msg.done, msg.total);
        return;
      }
      case "done": {
        const r = inflight.get(msg.id);
        if (!r) return;
        inflight.delete(msg.id);
        r.resolve(msg.result);
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

  // track keeps the state a restart or a reload must rebuild, from each request that succeeded; it
  // resolves when that state is kept (at once, but for a newly imported folder, which is written to
  // IndexedDB first: sessionStorage names it only once it is there).
  function track(reqText, respText) {
    // Only load, reset and call change what a restart must rebuild; skip parsing anything else
    // (a score answer can be megabytes).
    if (!/"op"\s*:\s*"(load|reset|call)"/.test(reqText)) return Promise.resolve();
    let req, resp;
    try {
      req = JSON.parse(reqText);
      resp = JSON.parse(respText);
    } catch (err) {
      return Promise.resolve();
    }
    if (!resp.ok) return Promise.resolve();
    switch (req.op) {
      case "load":
        loadText = req.builtin ? null : reqText;
        sandbox = [];
        if (!req.builtin && reqText !== importedText) {
          importedText = reqText;
          importedName = resp.result.name;
          const key = "import-" + Date.now() + "-" + Math.random().toString(36).slice(2);
          tabKey = ""; // until the folder is written, a save must not name the previous import
          // An IndexedDB that never answers (blocked, or a browser's private mode) must not hold the
          // load's answer back: after KEEP_MS it is answered, and not kept for a reload.
          return within(idbPut(key, { text: reqText, name: importedName, at: Date.now() }), KEEP_MS, "IndexedDB")
            .then(() => {
              tabKey = key;
            })
            .catch((err) => console.warn("apibank: the imported folder is not kept for a reload:", err.message))
            .then(() => {
              if (!restoring) sessionSave();
            });
        }
        break;
      case "reset":
        sandbox = [];
        break;
      case "call":
        sandbox.push(reqText);
        break;
      default:
        return Promise.resolve();
    }
    if (!restoring) sessionSave();
    return Promise.resolve();
  }

  function send(r) {
    const id = nextID++;
    inflight.set(id, r);
    if (r.msg) worker.postMessage(Object.assign({ id }, r.msg));
    else worker.postMessage({ type: "req", id, text: r.text });
  }

  function onCrash(w, id, message, log) {
    if (!w || w !== worker) return;
    w.terminate();
    worker = null;
    if (phase === "spawn") {
      // A worker that never said "ready": nothing was in flight and no state was replayed yet.
      const why = "the engine did not start (" + message + ")";
      console.warn("apibank:", why, (log || []).join("\n"));
      failedStart(why, { restarts: status.restarts + 1 });
      return;
    }
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
    spawn({ restarts: status.restarts + 1, lastError: why, warm: false });
  }

  // restore replays the saved state into a fresh worker, before any waiting request.
  async function restore(w) {
    await sessionRead;
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
      if (phase === "serve") send(r);
      else if (phase === "failed") resolve(notRunning());
      else waiting.push(r);
    });
  }

  // Bulk scoring happens in the worker (engine-worker.js bulk): the page posts the prediction text
  // as a Blob (a handle: no copy, no splitting, no encoding on this thread), gets progress messages
  // and the tallies back, and asks for the few verdict rows in view (rows). The worker keeps the rows
  // compactly; after a restart it no longer has them and rows scores the kept Blob again.
  let lastBulk = null; // {blob, opts, run}: the last bulk run, to fetch its rows or score it again

  // post sends a worker message that is answered with {type: "done", id, result}; it resolves the
  // result, or {ok: false, error, restarted} when the worker died meanwhile.
  function post(msg, onProgress) {
    return new Promise((resolve) => {
      const r = { msg, resolve, onProgress };
      if (phase === "serve") send(r);
      else if (phase === "failed") resolve(notRunning());
      else waiting.push(r);
    });
  }

  // bulkOnce scores blob once in the worker, moving the progress bar as chunks are scored.
  async function bulkOnce(blob, opts, progress) {
    const t0 = performance.now();
    progress(0, blob.size);
    const scratch = !!opts.scratch;
    const r = await post({ type: "bulk", blob, level: opts.level || "", state: opts.state || "", name: opts.name || "predictions", scratch }, progress);
    if (!r.ok) return { ok: false, error: r.error || "the engine refused", restarted: !!r.restarted };
    if (!scratch) lastBulk = { blob, opts, run: r.run };
    else setStatus({ bulkWarm: true });
    setStatus({ engineMemory: r.engineMemory || 0 });
    return Object.assign({}, r, { ms: performance.now() - t0 });
  }

  // bulk scores the prediction text held for opts.element (see hold), else the text of that
  // textarea, else opts.text; a run cut short by a worker restart is run once more from the start
  // (the stream died with the worker).
  async function bulk(opts) {
    const el = opts.element ? document.getElementById(opts.element) : null;
    const kept = opts.element ? held.get(opts.element) : null;
    const blob = kept ? kept.blob : new Blob([el ? el.value : opts.text || ""]);
    // The <progress> element is looked up at each step: the UI may render it after the run starts.
    let shown = -1;
    const progress = (done, total) => {
      const p = opts.progress ? document.getElementById(opts.progress) : null;
      if (!p) return;
      // One step a percent at most: each change of the bar is a paint.
      const pct = Math.floor((100 * done) / Math.max(1, total));
      if (pct === shown) return;
      shown = pct;
      p.max = Math.max(1, total);
      p.value = done;
    };
    if (!opts.scratch) lastBulk = null;
    let r = await bulkOnce(blob, opts, progress);
    if (!r.ok && r.restarted) r = await bulkOnce(blob, opts, progress);
    return r;
  }

  // rows resolves verdict rows [from, from+count) of the last bulk run with their predictions:
  // {ok, rows (JSON array text), preds} or {ok: false, error}. When the worker was restarted since
  // the run, the run is scored again from the kept text first.
  async function rows(from, count) {
    if (!lastBulk) return { ok: false, error: "no batch has been scored in this tab yet" };
    let r = await post({ type: "rows", run: lastBulk.run, from, count });
    if (!r.ok && (r.gone || r.restarted) && lastBulk) {
      const again = await bulkOnce(lastBulk.blob, lastBulk.opts, () => {});
      if (!again.ok) return again;
      r = await post({ type: "rows", run: lastBulk.run, from, count });
    }
    return r;
  }

  // Large texts in a text box: a textarea holding megabytes costs the page long tasks at every
  // layout, paint and hit test (and hundreds of MB of line boxes and shaped text), so a paste or an
  // input of data-hold-large characters or more into a textarea marked with that attribute is taken
  // out of the box into a Blob kept here; the box then stays empty and the element gets an
  // "apibank-held" event. bulk scores the held text; heldInfo tells the UI what is held.
  const held = new Map(); // element id -> {blob, size (characters), name}

  function holdText(el, text, name) {
    held.set(el.id, { blob: new Blob([text]), size: text.length, name });
    el.value = "";
    el.dispatchEvent(new CustomEvent("apibank-held", { bubbles: true }));
  }

  function holdLimit(el) {
    const n = Number(el && el.dataset && el.dataset.holdLarge);
    return n > 0 ? n : 0;
  }

  document.addEventListener(
    "paste",
    (ev) => {
      const el = ev.target;
      const limit = holdLimit(el);
      if (!limit || !ev.clipboardData) return;
      const text = ev.clipboardData.getData("text/plain");
      if (text.length < limit) return;
      ev.preventDefault(); // the box never lays out the text
      holdText(el, text, "pasted text");
    },
    true
  );
  document.addEventListener(
    "input",
    (ev) => {
      const el = ev.target;
      const limit = holdLimit(el);
      if (!limit || !el.id) return;
      if (el.value.length >= limit) holdText(el, el.value, "pasted text");
      else if (el.value !== "" && held.delete(el.id)) el.dispatchEvent(new CustomEvent("apibank-held", { bubbles: true }));
    },
    true
  );

  window.apibankHeld = {
    /** info returns {size, name} of the text held for element id, or null. */
    info(id) {
      const h = held.get(id);
      return h ? { size: h.size, name: h.name } : null;
    },
    /** hold keeps text for element id (a file read by the UI, say) as a paste would be kept. */
    hold(id, text, name) {
      const el = document.getElementById(id);
      if (el) holdText(el, text, name || "file");
    },
    /** drop forgets the text held for element id. */
    drop(id) {
      held.delete(id);
    },
  };

  // fromSession restores, after a reload, the state this tab saved. An IndexedDB that does not
  // answer within KEEP_MS must not keep the engine from starting: the folder is then not restored.
  async function fromSession() {
    const saved = sessionLoad();
    if (!saved) return;
    const calls = Array.isArray(saved.sandbox) ? saved.sandbox : [];
    tabKey = saved.key || "";
    if (tabKey) {
      try {
        const rec = await within(idbGet(tabKey), KEEP_MS, "IndexedDB");
        if (rec && rec.text) {
          importedText = rec.text;
          importedName = rec.name || "";
          if (saved.active === "imported") loadText = rec.text;
        }
      } catch (err) {
        console.warn("apibank: the imported folder could not be read back:", err.message);
      }
    }
    // Sandbox calls made on an imported folder that could not be read back are not replayed on the
    // builtin data (they would change another world).
    if (saved.active === "imported" && !loadText) {
      if (calls.length > 0) console.warn("apibank: " + calls.length + " sandbox calls on the imported folder are not restored");
      return;
    }
    sandbox = calls;
  }

  // retry starts again an engine whose start failed; false when it had not failed.
  function retry() {
    if (phase !== "failed") return false;
    starts = 0;
    setStatus({ lastError: "", attempt: 1 });
    next();
    return true;
  }

  window.apibankEngine = {
    /** request sends one engine request (JSON text); resolves {ok, text, ms} or {ok: false, error}. */
    request,
    /** bulk scores a prediction text in chunks in the worker: opts {element | text, level, state,
     *  progress, scratch (keep no rows: a warm-up)}; resolves {ok, report (the score_finish answer), errors (JSON, the first 1000),
     *  errorCount, verdicts, ms, engineMs} or {ok: false, error}. */
    bulk,
    /** rows resolves verdict rows [from, from+count) of the last bulk run: {ok, rows (a JSON array),
     *  preds (the prediction text of each)} or {ok: false, error}. */
    rows,
    /** configure sets the liveness timings {heartbeatMs, timeoutMs, stallMs, compileMs, startMs,
     *  restartMs, maxStarts} (tests shorten or lengthen them; the watchdog reads them at every tick). */
    configure(opts) {
      Object.assign(liveness, opts || {});
    },
    /** hang makes the worker stop answering without a word (a test hook for the liveness checks). */
    hang() {
      if (worker) worker.postMessage({ type: "hang" });
    },
    /** status returns {state, restarts, readyMs, lastError, engineMs, warm, warmMs, engineMemory
     *  (the engine's linear memory in bytes, as of the warm-up or the last bulk run), bulkWarm (the
     *  UI's warm-up run of the bulk path is done), attempt (the start attempt under way, from 1),
     *  phase (the start-up state machine's state: compile, pause, spawn, restore, serve, failed),
     *  phaseMs (how long it has been in it), received (bytes of engine.wasm received while compiling)}.
     *  state is "starting", "ready", "restarting" or "failed" (no start left: see retry). */
    status: () => Object.assign({}, status, { phaseMs: Math.round(performance.now() - phaseAt), received: download ? download.got : 0 }),
    /** retry starts the engine again after its start failed (status "failed"); returns whether it did. */
    retry,
    /** onStatus calls cb with the status at every change. */
    onStatus(cb) {
      listeners.push(cb);
    },
    /** trap makes the worker fail as a trapped instance does (a test hook for the restart path). */
    trap() {
      if (worker && (phase === "restore" || phase === "serve")) {
        const id = nextID++;
        worker.postMessage({ type: "trap", id });
      }
    },
    /** saved reports what a restart would restore and the name of the folder imported in this tab. */
    saved: () => ({ imported: loadText !== null, sandboxCalls: sandbox.length, importedName }),
    /** loadImported loads again the folder imported in this tab; resolves like request. */
    loadImported() {
      if (!importedText) return Promise.resolve({ ok: false, error: "no folder was imported in this tab: import one first" });
      return request(importedText);
    },
    /** clearSaved forgets this tab's saved sandbox history and every imported folder kept for reloads. */
    clearSaved() {
      try {
        sessionStorage.removeItem(SESSION_KEY);
      } catch (err) {}
      sandbox = [];
      idbClear().catch(() => {});
    },
  };

  // Files: what the Import and Score pages read from a file input or a drop. Text files come as
  // text, zips as bytes. A drop is read here, in the event itself (the browser forbids reading it
  // later), then the element gets an "apibank-drop" event and the page takes the files.
  const TEXT = /\.(jsonl|json|txt)$/i;
  const ZIP = /\.zip$/i;

  async function readFile(file, path) {
    if (ZIP.test(path)) return { path, bytes: new Uint8Array(await file.arrayBuffer()) };
    if (TEXT.test(path)) return { path, text: await file.text() };
    return null;
  }

  async function fromList(list) {
    const out = [];
    for (const f of Array.from(list || [])) {
      const r = await readFile(f, f.webkitRelativePath || f.name);
      if (r) out.push(r);
    }
    return out;
  }

  function entryFile(entry) {
    return new Promise((resolve, reject) => entry.file(resolve, reject));
  }

  function readDir(reader) {
    return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
  }

  async function walk(entry, out) {
    if (entry.isFile) {
      const path = entry.fullPath.replace(/^\//, "");
      const r = await readFile(await entryFile(entry), path);
      if (r) out.push(r);
      return;
    }
    const reader = entry.createReader();
    for (;;) {
      const batch = await readDir(reader);
      if (batch.length === 0) break;
      for (const e of batch) await walk(e, out);
    }
  }

  let lastDrop = Promise.resolve([]);
  document.addEventListener("dragover", (ev) => {
    if (ev.target.closest && ev.target.closest("[data-drop]")) ev.preventDefault();
  });
  document.addEventListener("drop", (ev) => {
    const target = ev.target.closest && ev.target.closest("[data-drop]");
    if (!target) return;
    ev.preventDefault();
    const items = Array.from(ev.dataTransfer.items || []);
    const entries = items.map((it) => (it.webkitGetAsEntry ? it.webkitGetAsEntry() : null)).filter(Boolean);
    const files = Array.from(ev.dataTransfer.files || []);
    lastDrop = (async () => {
      const out = [];
      if (entries.length > 0) {
        for (const e of entries) await walk(e, out);
        return out;
      }
      return fromList(files);
    })();
    target.dispatchEvent(new CustomEvent("apibank-drop"));
  });

  window.apibankFiles = {
    /** fromInput reads the files of an <input type=file> (a folder's with webkitdirectory). */
    fromInput: (input) => fromList(input.files),
    /** takeDrop returns the files of the last drop on a [data-drop] element. */
    takeDrop: () => lastDrop,
  };

  // Sizes computed by the UI (a virtual table's canvas and offset): the page's CSP allows no inline
  // style attribute, which is what go-app's Style writes, so the UI sets data-px-height and
  // data-px-top and this observer applies them through the CSSOM, which the CSP allows.
  function applyHeight(el) {
    const h = el.getAttribute("data-px-height");
    if (h !== null) el.style.height = h + "px";
    const t = el.getAttribute("data-px-top");
    if (t !== null) el.style.top = t + "px";
  }
  new MutationObserver((records) => {
    for (const m of records) {
      if (m.type === "attributes") applyHeight(m.target);
      for (const n of m.addedNodes || []) {
        if (n.nodeType !== 1) continue;
        applyHeight(n);
        for (const el of n.querySelectorAll("[data-px-height], [data-px-top]")) applyHeight(el);
      }
    }
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-px-height", "data-px-top"] });

  /** apibankCopy puts text on the clipboard, falling back to a selection copy; it never throws. */
  window.apibankCopy = (text) => {
    const fallback = () => {
      const ta = document.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      document.body.appendChild(ta);
      ta.select();
      try {
        document.execCommand("copy");
      } catch (err) {}
      ta.remove();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(fallback);
    else fallback();
  };

  /** apibankDownload saves text as a file. */
  window.apibankDownload = (name, mime, text) => {
    const url = URL.createObjectURL(new Blob([text], { type: mime }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };

  sessionRead = fromSession().catch((err) => console.warn("apibank: the saved state could not be read:", err.message));
  compile();
  // The UI (web/app.wasm) may be running already and waiting for window.apibankEngine.
  window.dispatchEvent(new Event("apibank-engine"));
})();
