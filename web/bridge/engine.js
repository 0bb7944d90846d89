// engine.js: the life of this tab's engine, as one state machine. It compiles web/engine.wasm once,
// starts web/engine-worker.js (one dedicated worker per tab, so two tabs never share a world) with
// the compiled module, replays the tab's kept state into it (storage.js Kept), and sends it engine
// protocol requests. A worker that traps, closes, or stops answering is replaced by a new one with
// the tab's state; a start that hangs (a download of engine.wasm that stops arriving, a compile
// that does not end, a worker that does not say "ready") is ended and tried again; after maxStarts
// failed attempts in a row the engine is "failed", every request is answered with the error, and
// retry() starts it again.
//
// Nothing here touches the page (window, document): what it needs from the browser comes in env
// (createEngine), so a test runs the state machine in Node with a fake worker and a fake clock
// (e2e/tests/bridge.test.mjs).

/**
 * The states and the transitions between them. The engine is in exactly one state at a time
 * (state.name), and every change goes through enter(), which refuses a transition this table does
 * not list (a bug: it is logged as an error, so a browser test sees it).
 *   boot     nothing started yet
 *   compile  engine.wasm is fetched and compiled (the first start, or again after a failed compile)
 *   pause    a moment between a failed attempt and the next one
 *   spawn    a worker is created and has not said "ready"
 *   restore  it said "ready"; the tab's kept state (a folder, sandbox calls) is replayed into it
 *   serve    requests go to the worker
 *   failed   maxStarts attempts in a row failed: requests are refused until retry()
 */
export const transitions = {
  boot: ["compile"],
  compile: ["spawn", "pause", "failed"], // compiled | failed, with attempts left or not
  pause: ["compile", "spawn"], // the next attempt: compile when no module is compiled yet
  spawn: ["restore", "pause", "failed"], // "ready" | the worker failed or did not get ready in time
  restore: ["serve", "spawn"], // replayed | the worker trapped, closed or stopped answering
  serve: ["spawn"], // the worker trapped, closed or stopped answering
  failed: ["compile", "spawn"], // retry()
};

/**
 * Liveness bounds (ms), changed by test hooks (apibankTestHooks) and configure(). Every message from
 * the worker is a sign of life. While requests are in flight, none for timeoutMs means the worker is
 * gone; while idle, a ping every heartbeatMs must be answered within heartbeatMs. A download of
 * engine.wasm may take its time while bytes keep arriving, but none for stallMs (or no answer at all
 * in stallMs) is a hang; once all bytes are in, the compile has compileMs to end. A first worker gets
 * startMs from its creation to "ready" (a slow phone compiles much of the module lazily while the
 * engine initialises), a later one restartMs (the compiled module, and the code the first worker
 * compiled, are reused). Each start-up bound is multiplied by the attempt's number: a slow network
 * or phone is not a hang. See RATIONALE.md "Start-up watchdog".
 */
export const defaultLiveness = { heartbeatMs: 3000, timeoutMs: 60000, stallMs: 20000, compileMs: 30000, startMs: 30000, restartMs: 20000, maxStarts: 3 };

/** Names of the bounds a test hook may set (the others only configure() changes). */
export const hookBounds = ["stallMs", "compileMs", "startMs", "restartMs", "maxStarts"];

/** The watchdog's period; a tick more than lateMs after the last one judges nothing (see tick). */
export const tickMs = 250;
const lateMs = 1000;

/** helperMs is how long the helper that warms the code up (warmCode) may take before it is ended. */
export const helperMs = 60000;

/**
 * quietMs: the idle warm-ups (the engine's own, and the helper) begin once the page has asked the
 * engine nothing for this long, or quietMaxMs after the page was idle, whichever is first: a page
 * that asks at once as it is ready (a test, a user quick to click) finds the engine and the cores
 * free, not busy with the warm-up's first, coldest steps.
 */
export const quietMs = 500;
const quietMaxMs = 5000;

/**
 * holdMs bounds how long the page's requests wait for a helper at work (see holdFor): a browser
 * does not stop a worker in the middle of its call into the module (Chromium lets it run on for up
 * to seconds), so a variant asked of the engine meanwhile competed with the helper's for the cores
 * and took twice as long; it now waits for the helper and then finds the code compiled.
 */
export const holdMs = 3000;

const secs = (ms) => Math.round(ms / 100) / 10 + " s";
const mb = (bytes) => (bytes / 1e6).toFixed(2) + " MB";

/**
 * createEngine returns the tab's engine. env:
 *   compile(download)  fetches and compiles engine.wasm, counting bytes in download {ctl (an
 *                      AbortController: aborting it must end the fetch), got, lastByte, done};
 *                      resolves the WebAssembly.Module
 *   engineURL          what errors name as the module
 *   newWorker()        creates a worker running web/engine-worker.js
 *   kept               the tab's kept state (storage.js Kept) and kept.read, the promise of its
 *                      reading back after a reload
 *   hooks              window.apibankTestHooks or {}: start-up bounds, stallStarts (the first n
 *                      workers are told never to say "ready") and warmUps (false: no idle warm-up
 *                      and no helper, for a test that does not measure them)
 *   now(), later(fn, ms), every(fn, ms)   the clock and timers (performance.now, setTimeout,
 *                      setInterval by default)
 *   mark()             called at the tab's first "ready" (a performance mark for the benchmark)
 *   idle(fn)           calls fn once the page is idle (its UI up, nothing urgent running), when
 *                      each worker is told to warm up; at once by default
 *   newHelper()        creates a worker running web/engine-worker.js that warms the module's code
 *                      up beside the engine (warmCode); none when absent
 *   log                console by default
 */
export function createEngine(env) {
  const now = env.now || (() => performance.now());
  const later = env.later || ((fn, ms) => setTimeout(fn, ms));
  const every = env.every || ((fn, ms) => setInterval(fn, ms));
  const log = env.log || console;
  const idle = env.idle || ((fn) => later(fn, 0));
  const kept = env.kept;
  const hooks = env.hooks || {};

  const liveness = Object.assign({}, defaultLiveness);
  for (const k of hookBounds) if (typeof hooks[k] === "number") liveness[k] = hooks[k];
  let stallStarts = typeof hooks.stallStarts === "number" ? hooks.stallStarts : 0;
  // The idle warm-ups cost a page several seconds of CPU after its first "ready": a browser test
  // that opens hundreds of pages on a small machine, and measures none of them, turns them off.
  const warmUps = hooks.warmUps !== false;

  // The one state: {name, since, ...what that state holds}: compile {download}; pause {}; spawn,
  // restore, serve {worker, heard (its last sign of life), pingAt (the unanswered ping, 0: none)};
  // restore also {replaying: the kept state is being replayed}.
  let state = { name: "boot", since: now() };
  // What the states share across a tab's life: the compiled module (reused by every restart),
  // failed attempts in a row, workers created, and whether any has been ready.
  let module = null;
  let failures = 0;
  let workers = 0;
  let everReady = false;

  let nextID = 1;
  let pingID = 0;
  const inflight = new Map(); // id -> {text | msg, resolve, onProgress, internal}
  const waiting = []; // requests made before "serve", or while held (holdFor), sent in order after
  const listeners = [];
  const status = { state: "starting", restarts: 0, readyMs: 0, lastError: "", engineMs: 0, warm: false, warmMs: 0, variantWarm: false, variantWarmMs: 0, codeWarm: false, codeWarmMs: 0, heldForHelper: false, engineMemory: 0, bulkWarm: false, attempt: 1, phase: "boot" };
  const history = []; // the states entered, for tests (at most the last 100)

  function setStatus(patch) {
    Object.assign(status, patch);
    for (const cb of listeners) {
      try {
        cb(Object.assign({}, status));
      } catch (err) {
        log.error("engine status listener:", err);
      }
    }
  }

  // enter moves the machine to the state next (with its data) and shows the change in the status.
  function enter(next, data, patch) {
    if (!transitions[state.name].includes(next)) log.error("apibank: the engine went from " + state.name + " to " + next + ", which its state machine does not allow");
    state = Object.assign({ name: next, since: now() }, data || {});
    history.push(next);
    if (history.length > 100) history.shift();
    const shown = next === "serve" ? "ready" : next === "failed" ? "failed" : everReady ? "restarting" : "starting";
    setStatus(Object.assign({ state: shown, phase: next }, patch || {}));
  }

  // alive says whether w is the worker of the current state (a message or an answer from a worker
  // already replaced is ignored).
  const alive = (w) => !!w && state.worker === w;

  // tick is the watchdog: it runs every tickMs and ends whatever has overrun its state's bound. A
  // tick that comes late (the page's thread was busy) judges nothing: the bytes and messages that
  // came meanwhile are handled before the next tick, and a busy page must not read as a stalled
  // download or worker. Only one tick in a row is let go so: a page in a background tab gets its
  // timers once a second or less often, so every tick there comes late, and a watchdog that
  // skipped them all would leave a hung start "starting" for as long as the tab stays hidden.
  let lastTick = now();
  let skipped = false;
  function tick() {
    const t = now();
    const late = t - lastTick > lateMs;
    lastTick = t;
    if (late && !skipped) {
      skipped = true;
      return;
    }
    skipped = false;
    const n = failures + 1; // this attempt's number: bounds grow with it
    switch (state.name) {
      case "compile": {
        const d = state.download;
        if (d.done) {
          if (t - d.lastByte > liveness.compileMs * n) d.ctl.abort(new Error("compiling " + env.engineURL + " took over " + secs(liveness.compileMs * n) + " after its last byte"));
        } else if (t - d.lastByte > liveness.stallMs * n) {
          const what = d.got > 0 ? "stopped arriving after " + mb(d.got) + ": no byte in " : "did not start arriving in ";
          d.ctl.abort(new Error(env.engineURL + " " + what + secs(liveness.stallMs * n)));
        }
        return;
      }
      case "spawn": {
        const limit = (workers > 1 ? liveness.restartMs : liveness.startMs) * n;
        if (t - state.since > limit) crashed(state.worker, null, "it did not say ready within " + secs(limit));
        return;
      }
      case "restore":
      case "serve":
        checkAlive(t);
        return;
    }
  }

  // checkAlive watches a worker that said "ready" (see defaultLiveness).
  function checkAlive(t) {
    const s = state;
    if (inflight.size > 0) {
      s.pingAt = 0;
      if (t - s.heard > liveness.timeoutMs) crashed(s.worker, inflight.keys().next().value, "the engine stopped answering: no answer in " + secs(liveness.timeoutMs));
      return;
    }
    if (s.pingAt > 0) {
      if (t - s.pingAt > liveness.heartbeatMs) crashed(s.worker, null, "the engine stopped answering its heartbeat");
      return;
    }
    if (t - s.heard > liveness.heartbeatMs) {
      s.pingAt = t;
      s.worker.postMessage({ type: "ping", id: ++pingID });
    }
  }

  // compile fetches and compiles engine.wasm (state compile); the watchdog aborts it through the
  // download's controller when it overruns. It ends in spawn with the module, or in a failed attempt.
  function compile() {
    const d = { ctl: new AbortController(), got: 0, lastByte: now(), done: false };
    enter("compile", { download: d });
    const current = () => state.name === "compile" && state.download === d;
    // The race also covers a compile that never settles once the bytes are in.
    const aborted = new Promise((_, reject) => d.ctl.signal.addEventListener("abort", () => reject(d.ctl.signal.reason)));
    Promise.race([env.compile(d), aborted]).then(
      (m) => {
        if (!current()) return;
        module = m;
        failures = 0; // the worker gets its own attempts
        spawn();
      },
      (err) => {
        if (!current()) return;
        const why = "could not load the engine: " + ((d.ctl.signal.aborted && d.ctl.signal.reason && d.ctl.signal.reason.message) || err.message);
        d.ctl.abort(); // whatever is left of the fetch
        log.warn("apibank:", why);
        failedStart(why);
      }
    );
  }

  // failedStart counts a start attempt that failed (of the compile, or of a worker that did not get
  // ready): while attempts are left the next one comes after a short pause, else the state is failed
  // and every waiting request is answered with the error.
  function failedStart(why, patch) {
    failures++;
    if (failures < liveness.maxStarts) {
      enter("pause", {}, Object.assign({ attempt: failures + 1, lastError: why }, patch || {}));
      const pause = state;
      later(() => {
        if (state === pause) next();
      }, 500 * failures);
      return;
    }
    enter("failed", {}, Object.assign({ lastError: why + " (" + failures + " attempts)" }, patch || {}));
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

  // warmCode has a helper worker make a variant of the builtin data once, when the page is first idle
  // and quiet (whenQuiet), and then ends it. A browser compiles a module's functions the first time
  // any instance runs them, for every instance of the module in the page, and a variant runs much
  // code that nothing else runs: made by the engine's own worker, a first variant took several times
  // a later one's time, and the engine answered nothing meanwhile. The helper compiles that code
  // beside the engine, whose own warm-up (engine-worker.js warmUp) goes on; only a variant the page
  // asks meanwhile waits for it (holdFor). It costs an instance's memory while it runs; it holds no
  // state of the tab, and a helper that fails or hangs is ended and changes nothing but the time of
  // a first variant.
  let helped = false; // a helper was started, or is not needed: a variant was asked (send, variantAsked)
  let endHelper = null; // ends the helper at work
  function warmCode() {
    if (helped || !env.newHelper || !module) return;
    helped = true;
    let h;
    try {
      h = env.newHelper();
    } catch (err) {
      return;
    }
    let ended = false;
    const end = (patch) => {
      if (ended) return;
      ended = true;
      endHelper = null;
      h.terminate();
      if (patch) setStatus(patch);
      release();
    };
    endHelper = () => end();
    h.onmessage = (ev) => {
      const msg = ev.data;
      if (msg.type === "ready") h.postMessage({ type: "warm-code" });
      else if (msg.type === "warm-code") end({ codeWarm: true, codeWarmMs: msg.ms });
      else if (msg.type === "crash") end();
    };
    h.onerror = (ev) => {
      if (ev.preventDefault) ev.preventDefault();
      end();
    };
    later(() => end(), helperMs);
    h.postMessage({ type: "init", module });
  }

  // asksVariant tells a request that makes a variant (a seed of the builtin data).
  const asksVariant = (text) => text.length < 4096 && /"seed":\s*[1-9]/.test(text);

  // variantAsked notes a request of the kept state's replay that makes a variant: no helper is
  // started after it (the engine compiles that code itself), and one at work is ended.
  function variantAsked(text) {
    if (!asksVariant(text)) return;
    helped = true;
    if (endHelper) endHelper();
  }

  // holdFor says whether request r must wait: the page asks for a variant while the helper is at
  // work (see holdMs). A page that asks for one before the helper began (a student's exercise, a
  // reload on a variant) has the engine compile that code itself, and no helper is started then.
  // The request and every one after it wait, in order, until the helper is done, or holdMs.
  let holding = false;
  function holdFor(r) {
    if (holding) return true;
    if (r.text === undefined || !asksVariant(r.text) || !endHelper) return false;
    holding = true;
    setStatus({ heldForHelper: true });
    const end = endHelper;
    later(() => holding && end(), holdMs);
    return true;
  }

  // release ends a hold (holdFor) and sends what waited.
  function release() {
    if (!holding) return;
    holding = false;
    flush();
  }

  // flush sends the waiting requests in order while the engine serves and nothing holds them.
  function flush() {
    while (waiting.length > 0 && state.name === "serve" && !holding) send(waiting.shift());
  }

  // whenQuiet calls fn once the page has asked the engine nothing for quietMs, or quietMaxMs after
  // since.
  let lastAsked = -Infinity;
  function whenQuiet(since, fn) {
    const wait = Math.min(lastAsked + quietMs, since + quietMaxMs) - now();
    if (wait <= 0) fn();
    else later(() => whenQuiet(since, fn), wait);
  }

  // spawn starts a worker with the compiled module (state spawn).
  function spawn(patch) {
    let w;
    try {
      w = env.newWorker();
    } catch (err) {
      enter("spawn", { worker: null, heard: now(), pingAt: 0 }, patch);
      failedStart("the engine did not start (could not create its worker: " + err.message + ")");
      return;
    }
    workers++;
    enter("spawn", { worker: w, heard: now(), pingAt: 0 }, patch);
    w.onmessage = (ev) => onMessage(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault();
      crashed(w, null, "worker error: " + (ev.message || "unknown"));
    };
    const stall = stallStarts > 0; // the test hook (see createEngine)
    if (stall) stallStarts--;
    w.postMessage({ type: "init", module, stall });
  }

  function onMessage(w, msg) {
    if (!alive(w)) return; // a message from a worker already replaced
    state.heard = now();
    state.pingAt = 0;
    switch (msg.type) {
      case "pong":
        return;
      case "warm":
        setStatus({ warm: true, warmMs: msg.ms, engineMemory: msg.memory || 0 });
        return;
      case "warm-variant":
        setStatus({ variantWarm: true, variantWarmMs: msg.ms });
        return;
      case "ready":
        if (state.name !== "spawn") return;
        failures = 0;
        enter("restore", { worker: w, heard: now(), pingAt: 0, replaying: false });
        restore(w).then((ok) => {
          if (!ok || !alive(w) || state.name !== "restore") return;
          const first = !everReady;
          everReady = true;
          enter("serve", { worker: w, heard: now(), pingAt: 0 }, { engineMs: msg.ms, readyMs: now(), attempt: 1 });
          if (first && env.mark) env.mark();
          // The warm-ups (engine-worker.js's, and the helper) wait for an idle page, then for a
          // quiet engine: run at "ready", they competed with app.wasm's start for the cores, and
          // the page's first requests waited behind their coldest steps.
          if (warmUps)
            idle(() =>
              whenQuiet(now(), () => {
                if (alive(w)) w.postMessage({ type: "warm-up" });
                warmCode();
              })
            );
          flush();
        }, (err) => crashed(w, null, "this tab's data could not be replayed: " + err.message));
        return;
      case "res": {
        const r = inflight.get(msg.id);
        if (!r) return;
        inflight.delete(msg.id);
        const answer = { ok: true, text: msg.text, ms: msg.ms };
        // A load of a new folder is answered once the folder is kept: a reload right after the page
        // hears "loaded" must find it. Whatever keeping does, the request is answered (a request
        // never answered would hold a replay, and so the engine, in "restore" for good).
        let keeping;
        try {
          keeping = kept.track(r.text, msg.text, state.name === "restore" && state.replaying);
        } catch (err) {
          log.warn("apibank: this tab's state could not be kept:", err.message);
          keeping = Promise.resolve();
        }
        keeping.then(
          () => r.resolve(answer),
          () => r.resolve(answer)
        );
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
        crashed(w, msg.id, msg.message, msg.log);
        return;
      case "log":
        (msg.fd === 2 ? log.warn : log.log)("engine:", msg.line);
        return;
    }
  }

  function send(r) {
    const id = nextID++;
    inflight.set(id, r);
    lastAsked = now();
    if (r.text !== undefined && asksVariant(r.text)) helped = true; // asked before "serve": no helper
    if (r.msg) state.worker.postMessage(Object.assign({ id }, r.msg));
    else state.worker.postMessage({ type: "req", id, text: r.text });
  }

  // crashed ends worker w (it trapped, closed, errored or overran a bound) and starts the next one:
  // a worker that never said "ready" is a failed start attempt; one that did is restarted with the
  // tab's state, and the requests it held are answered (the failed one) or sent again (the others).
  function crashed(w, id, message, lines) {
    if (!alive(w)) return;
    w.terminate();
    const was = state;
    if (was.name === "spawn") {
      // A worker that never said "ready": nothing was in flight and no state was replayed yet.
      const why = "the engine did not start (" + message + ")";
      log.warn("apibank:", why, (lines || []).join("\n"));
      failedStart(why, { restarts: status.restarts + 1 });
      return;
    }
    let why = "the engine stopped (" + message + ")";
    if (was.name === "restore" && was.replaying) {
      // The kept state itself brings the engine down: start clean rather than loop.
      kept.forget();
      why += "; restoring this tab's data failed too, so the engine starts over with the builtin data";
    }
    log.warn("apibank:", why, (lines || []).join("\n"));
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
    spawn({ restarts: status.restarts + 1, lastError: why, warm: false, variantWarm: false });
  }

  // restore replays the kept state into worker w (state restore), before any waiting request. It
  // says whether w is still the worker when it is done. Nothing of the kept state is taken before w
  // is known to be current: a worker replaced while the state was being read back must not cost
  // the next one its replay.
  async function restore(w) {
    await kept.read;
    if (!alive(w) || state.name !== "restore") return false;
    const steps = kept.takeSteps();
    state.replaying = steps.length > 0;
    for (const text of steps) {
      if (!alive(w)) return false;
      await new Promise((resolve) => {
        const id = nextID++;
        inflight.set(id, { text, internal: true, resolve });
        variantAsked(text);
        w.postMessage({ type: "req", id, text });
      });
    }
    if (!alive(w)) return false;
    state.replaying = false;
    return true;
  }

  // request sends one engine request (JSON text); it resolves {ok, text, ms}, or {ok: false, error,
  // restarted} when the worker died meanwhile or the engine could not start.
  function request(text) {
    return queue({ text });
  }

  // post sends a worker message that is answered with {type: "done", id, result}; it resolves the
  // result, or {ok: false, error, restarted} as request does. onProgress gets its progress messages.
  function post(msg, onProgress) {
    return queue({ msg, onProgress });
  }

  function queue(r) {
    return new Promise((resolve) => {
      r.resolve = resolve;
      if (state.name === "failed") resolve(notRunning());
      else if (state.name === "serve" && !holdFor(r)) send(r);
      else waiting.push(r);
    });
  }

  // retry starts again an engine whose start failed; false when it had not failed.
  function retry() {
    if (state.name !== "failed") return false;
    failures = 0;
    setStatus({ lastError: "", attempt: 1 });
    next();
    return true;
  }

  return {
    /** start begins the engine's life: the compile, and the watchdog's ticks. */
    start() {
      every(tick, tickMs);
      compile();
    },
    /** tick runs the watchdog once (the timer calls it; a test with a fake clock does). */
    tick,
    request,
    post,
    retry,
    /** setStatus changes fields of the status (bulk's bulkWarm, engineMemory) and tells the listeners. */
    setStatus,
    /** status is the status with phaseMs (time in the state) and received (bytes of engine.wasm so far). */
    status: () => Object.assign({}, status, { phaseMs: Math.round(now() - state.since), received: state.name === "compile" ? state.download.got : 0 }),
    /** state is the current state's name. */
    state: () => state.name,
    /** history lists the states entered, oldest first (the last 100). */
    history: () => history.slice(),
    onStatus(cb) {
      listeners.push(cb);
    },
    configure(opts) {
      Object.assign(liveness, opts || {});
    },
    hang() {
      if (state.worker) state.worker.postMessage({ type: "hang" });
    },
    trap() {
      if (state.worker && (state.name === "restore" || state.name === "serve")) state.worker.postMessage({ type: "trap", id: nextID++ });
    },
  };
}
