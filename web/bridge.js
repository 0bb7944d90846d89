// bridge.js: the page's side of this tab's engine, and what else the Go UI (web/app.wasm) calls
// through syscall/js. An ES module: the page loads it with <script type=module>, its modules
// (web/bridge/) by content-hashed URLs through the page's import map, preloaded in parallel (see
// cmd/server's moduleHeaders and RATIONALE.md "Why is the bridge ES modules?").
//
//   bridge/engine.js     the engine's life as one state machine: compile, start the worker, replay
//                        the tab's state, serve; the start-up watchdog and the liveness checks
//   bridge/compile.js    engine.wasm fetched and compiled, its bytes counted for the watchdog,
//                        once the UI's module (app.wasm) has its bytes
//   bridge/storage.js    what the tab keeps for a restart or a reload (sessionStorage, IndexedDB)
//   bridge/bulk.js       bulk scoring in the worker, and large texts held out of text boxes
//   bridge/files.js      files read from an input or a dropped folder; a text saved as a file
//   bridge/clipboard.js  a text put on the clipboard
//   bridge/csp.js        sizes the UI cannot write as inline styles under the page's policy
//
// What the page gets (the names the Go UI calls; app/*_js.go):
//   window.apibankEngine    request, bulk, rows, status, onStatus, retry, saved, loadImported,
//                           clearSaved, and the test hooks configure, hang, trap
//   window.apibankHeld      the texts held out of text boxes ("apibank-held" events)
//   window.apibankFiles     fromInput, takeDrop ("apibank-drop" events)
//   window.apibankCopy, window.apibankDownload
// and an "apibank-engine" event once window.apibankEngine exists: the UI may be running already and
// waiting for it.
//
// Every promise of apibankEngine resolves, never rejects: {ok: true, ...} or {ok: false, error,
// restarted}. Test hook: window.apibankTestHooks, read once when this module runs, may set the
// start-up bounds (stallMs, compileMs, startMs, restartMs, maxStarts), stallStarts (the first n
// workers are told never to say "ready") and warmUps (false turns the idle warm-ups off); no page
// sets it.
import { createEngine } from "./bridge/engine.js";
import { fetchAndCompile, afterUIBytes } from "./bridge/compile.js";
import { Kept, idbPut, idbGet, idbClear } from "./bridge/storage.js";
import { Held, bulkScorer } from "./bridge/bulk.js";
import { listenForDrops, download } from "./bridge/files.js";
import { copy } from "./bridge/clipboard.js";
import { applyPixelSizes } from "./bridge/csp.js";

const assets = window.apibankAssets || {};
const engineURL = assets.engine || "/web/engine.wasm";
const workerURL = assets.worker || "/web/engine-worker.js";

const kept = new Kept({ session: sessionStorage, put: idbPut, get: idbGet, clear: idbClear });
kept.read = kept.readBack().catch((err) => console.warn("apibank: the saved state could not be read:", err.message));

/**
 * whenIdle calls fn once go-app has mounted the UI (its loader, #app-wasm-loader, is gone) and the
 * page then has an idle moment (requestIdleCallback where the browser has it; Safari has not).
 */
function whenIdle(fn) {
  const idleThen = () => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 200));
  const check = () => (document.getElementById("app-wasm-loader") ? setTimeout(check, 100) : idleThen());
  check();
}

// The first worker is made at once, so its scripts arrive while engine.wasm downloads and it starts
// as soon as the module is compiled; a later one (a restart) when it is needed. One that fails
// before the engine takes it (its script did not load) is dropped, and the first start makes another
// and sees that one's error.
let firstWorker = null;
try {
  const early = new Worker(workerURL);
  early.addEventListener("error", (ev) => {
    if (firstWorker !== early) return; // the engine's now: its own handler judges
    ev.preventDefault();
    early.terminate();
    firstWorker = null;
  });
  firstWorker = early;
} catch {
  // made again at the first start, where a failure is reported
}

const engine = createEngine({
  engineURL,
  compile: (download) => fetchAndCompile(engineURL, download, assets.fetch),
  newWorker: () => {
    const w = firstWorker || new Worker(workerURL);
    firstWorker = null;
    return w;
  },
  kept,
  hooks: window.apibankTestHooks || {},
  mark: () => performance.mark("apibank-engine-ready"),
  idle: whenIdle,
  newHelper: () => new Worker(workerURL),
});

const held = new Held();
held.listen(document);
const { bulk, rows } = bulkScorer(engine, held, document);

window.apibankEngine = {
  /** request sends one engine request (JSON text); resolves {ok, text, ms} or {ok: false, error}. */
  request: engine.request,
  /** bulk scores a prediction text in chunks in the worker: opts {element | text, level, state,
   *  progress, scratch (keep no rows: a warm-up)}; resolves {ok, report (the score_finish answer),
   *  errors (JSON, the first 1000), errorCount, verdicts, ms, engineMs} or {ok: false, error}. */
  bulk,
  /** rows resolves verdict rows [from, from+count) of the last bulk run: {ok, rows (a JSON array),
   *  preds (the prediction text of each)} or {ok: false, error}. */
  rows,
  /** configure sets the liveness timings {heartbeatMs, timeoutMs, stallMs, compileMs, startMs,
   *  restartMs, maxStarts} (tests shorten or lengthen them; the watchdog reads them at every tick). */
  configure: engine.configure,
  /** hang makes the worker stop answering without a word (a test hook for the liveness checks). */
  hang: engine.hang,
  /** status returns {state, restarts, readyMs, lastError, engineMs, warm, warmMs, variantWarm and
   *  variantWarmMs (the warm-up's variant is made, in so many ms), codeWarm and codeWarmMs (the
   *  helper that warms the code up beside the engine made its variant, in so many ms), heldForHelper
   *  (a variant the page asked waited for that helper to be done), engineMemory
   *  (the engine's linear memory in bytes, as of the warm-up or the last bulk run), bulkWarm (the
   *  UI's warm-up run of the bulk path is done), attempt (the start attempt under way, from 1),
   *  phase (the engine's state: boot, compile, pause, spawn, restore, serve, failed), phaseMs (how
   *  long it has been in it), received (bytes of engine.wasm received while compiling)}.
   *  state is "starting", "ready", "restarting" or "failed" (no start left: see retry). */
  status: engine.status,
  /** retry starts the engine again after its start failed (status "failed"); returns whether it did. */
  retry: engine.retry,
  /** onStatus calls cb with the status at every change. */
  onStatus: engine.onStatus,
  /** trap makes the worker fail as a trapped instance does (a test hook for the restart path). */
  trap: engine.trap,
  /** saved reports what a restart would restore and the name of the folder imported in this tab. */
  saved: () => kept.saved(),
  /** loadImported loads again the folder imported in this tab; resolves like request. */
  loadImported() {
    if (!kept.importedText) return Promise.resolve({ ok: false, error: "no folder was imported in this tab: import one first" });
    return engine.request(kept.importedText);
  },
  /** clearSaved forgets this tab's saved sandbox history and every imported folder kept for reloads. */
  clearSaved: () => kept.clear(),
};
window.apibankHeld = held.api(document);
window.apibankFiles = listenForDrops(document);
/** apibankCopy puts text on the clipboard, falling back to a selection copy; it never throws. */
window.apibankCopy = copy;
/** apibankDownload saves text as a file. */
window.apibankDownload = download;
applyPixelSizes(document);

// engine.wasm's download starts once app.wasm's bytes are in: the UI mounts on its own bytes, not
// on a link shared with the engine's (RATIONALE.md "First visit on a phone network: bytes first").
// Until then the engine is "starting" and requests wait in its queue, as during its compile.
afterUIBytes().then(() => engine.start());
// The UI (web/app.wasm) may be running already and waiting for window.apibankEngine.
window.dispatchEvent(new Event("apibank-engine"));
