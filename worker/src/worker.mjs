// The Worker's entry module: one Go instance of cmd/worker per isolate, kept for the isolate's life
// and handed every request (cmd/worker's bridge), where syumai/workers' own entry module starts an
// instance per request. Go's runtime start and the builtin data's load are then paid once per
// isolate, not once per request. `make worker` puts this file in worker/build/ beside Go's
// wasm_exec.js (syumai/workers' copy, which gives the program the runtime context as the global
// `context`) and the program, app.wasm.
//
// An instance whose program has ended (a fatal error) is never used again: the next request starts
// a new one. A request the instance fails is answered 503 with Retry-After in the API's error shape.
import "./wasm_exec.js";
import mod from "./app.wasm";

/** The running program: a promise of {binding, ended}, or undefined when none runs. */
let current;

/**
 * start instantiates the program with the runtime context {env, ctx, binding} and resolves
 * {binding, ended} once it has set binding.serve; ended rejects when the program ends (it never
 * does on its own), so that a request in flight then fails instead of waiting forever.
 */
function start(env, ctx) {
  const go = new Go();
  let exitCode;
  go.exit = (code) => (exitCode = code);
  const binding = {};
  let ready;
  const up = new Promise((resolve) => (ready = resolve));
  const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
  const ended = go.run(instance, { env, ctx, binding }).then(
    () => Promise.reject(new Error(`the Go program ended (exit code ${exitCode})`)),
    (err) => Promise.reject(err),
  );
  ended.catch(() => {}); // observed by the requests that race it
  const started = Promise.race([up.then(() => ({ binding, ended })), ended]);
  ended.catch(() => {
    if (current === started) current = undefined; // the next request starts another
  });
  return started;
}

/** instance returns the running program, starting one when there is none (or the last one ended). */
function instance(env, ctx) {
  if (!current) {
    const started = start(env, ctx);
    current = started;
    started.catch(() => {
      if (current === started) current = undefined;
    });
  }
  return current;
}

/**
 * readBody reads a request's body up to max + 1 bytes (one past the limit, so the program answers
 * 413) and the rest of it to its end without keeping it: a body left unread holds the connection.
 */
async function readBody(req, max) {
  if (!req.body) return null;
  const reader = req.body.getReader();
  const parts = [];
  let kept = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (kept > max) continue;
    const take = value.subarray(0, Math.min(value.length, max + 1 - kept));
    parts.push(take);
    kept += take.length;
  }
  const body = new Uint8Array(kept);
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.length;
  }
  return body;
}

function unavailable(message) {
  return new Response(JSON.stringify({ error: { code: "unavailable", message } }) + "\n", {
    status: 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "Retry-After": "1" },
  });
}

async function fetch(req, env, ctx) {
  let live;
  const starting = !current;
  const t0 = performance.now();
  try {
    live = await instance(env, ctx);
  } catch (err) {
    console.error(JSON.stringify({ msg: "the Go program failed to start", error: String(err) }));
    return unavailable("the Worker failed to start; try again");
  }
  const startMs = performance.now() - t0;
  try {
    const body = await readBody(req, live.binding.maxBody);
    const out = await Promise.race([live.binding.serve(req.method, req.url, [...req.headers], body), live.ended]);
    const res = new Response(out.body ?? null, { status: out.status, headers: out.headers });
    // The request that started the instance says what the start cost (Server-Timing, beside the
    // handler's own time that the program adds).
    if (starting) res.headers.append("Server-Timing", `instance;dur=${startMs.toFixed(1)}`);
    return res;
  } catch (err) {
    console.error(JSON.stringify({ msg: "a request failed in the Go program", error: String(err) }));
    return unavailable("the Worker failed this request; try again");
  }
}

export default { fetch };
