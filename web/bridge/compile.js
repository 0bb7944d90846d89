// compile.js: engine.wasm fetched and compiled as its bytes arrive, with the bytes counted so that
// the engine's watchdog (engine.js) tells a slow download, whose bytes keep coming, from a stalled
// one.

/**
 * fetchAndCompile fetches url and compiles it, counting in d {ctl (an AbortController that ends the
 * fetch), got (bytes so far), lastByte (when the last came, performance.now), done (all are in)}.
 * It resolves the WebAssembly.Module.
 */
export async function fetchAndCompile(url, d) {
  const resp = await fetch(url, { signal: d.ctl.signal });
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
