// compile.js: engine.wasm fetched and compiled as its bytes arrive, with the bytes counted so that
// the engine's watchdog (engine.js) tells a slow download, whose bytes keep coming, from a stalled
// one.

/**
 * fetchAndCompile fetches url and compiles it, counting in d {ctl (an AbortController that ends the
 * fetch), got (bytes so far), lastByte (when the last came, performance.now), done (all are in)}.
 * It resolves the WebAssembly.Module. fetcher is the fetch to use: the page's (apibankAssets.fetch,
 * which on a first visit keeps the module's one copy in the service worker's cache), or the
 * browser's.
 */
export async function fetchAndCompile(url, d, fetcher = fetch) {
  const resp = await fetcher(url, { signal: d.ctl.signal });
  if (!resp.ok) throw new Error("fetching " + url + ": HTTP " + resp.status);
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

/**
 * afterUIBytes resolves once the UI's module (go-app's app.wasm) has all its bytes, so that
 * engine.wasm's download does not share the link with it: on a first visit over a slow link the UI
 * mounts on its own bytes, and the engine's arrive while app.wasm compiles and starts (RATIONALE.md
 * "First visit on a phone network: bytes first"). It resolves at the first of: the
 * "apibank-app-bytes" event (go-app's loader, as cmd/server serves it, dispatches it on window, and
 * sets window.apibankAppBytes, once it has read app.wasm's last byte, before the app's Go code holds
 * the page's thread), app.wasm's resource timing entry (written
 * when its last byte is in), go-app's loader (#app-wasm-loader) gone or absent (the UI is up, or the
 * page has none), maxMs. env (for tests): window, performance, PerformanceObserver, document, later
 * (setTimeout), every (setInterval), clear (clearInterval), maxMs.
 */
export function afterUIBytes(env = {}) {
  const perf = env.performance || globalThis.performance;
  const Observer = "PerformanceObserver" in env ? env.PerformanceObserver : globalThis.PerformanceObserver;
  const doc = env.document || globalThis.document;
  const later = env.later || ((fn, ms) => setTimeout(fn, ms));
  const every = env.every || ((fn, ms) => setInterval(fn, ms));
  const clear = env.clear || ((id) => clearInterval(id));
  const win = env.window || globalThis.window;
  const maxMs = env.maxMs || 10000;
  const isApp = (e) => /\/app\.wasm(\?|$)/.test(e.name);
  const loaderGone = () => !doc || !doc.getElementById("app-wasm-loader");
  return new Promise((resolve) => {
    let observer = null;
    let poll = null;
    const done = () => {
      if (win) win.removeEventListener("apibank-app-bytes", done);
      if (observer) observer.disconnect();
      if (poll !== null) clear(poll);
      resolve();
    };
    const arrived = () => (perf && perf.getEntriesByType ? perf.getEntriesByType("resource").some(isApp) : false);
    if (loaderGone() || arrived() || (win && win.apibankAppBytes)) return resolve();
    if (win) win.addEventListener("apibank-app-bytes", done);
    if (Observer) {
      try {
        observer = new Observer((list) => list.getEntries().some(isApp) && done());
        observer.observe({ type: "resource", buffered: true });
      } catch {
        observer = null; // the loader's poll and the bound still start the engine
      }
    }
    poll = every(() => (loaderGone() || arrived()) && done(), 100);
    later(done, maxMs);
  });
}
