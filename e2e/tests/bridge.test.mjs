// The bridge's engine state machine (web/bridge/engine.js) in Node, with a fake worker and a fake
// clock: the states it passes through for a start that goes well, a worker or a download that hangs
// before "ready", a start that keeps failing and its retry, a worker replaced while the tab's kept
// state is still being read back, a request whose keeping fails, and the helper that warms the code
// up beside the engine. The browser tests (startup.test.mjs) cross the same paths with real workers
// and downloads; these pin the transitions themselves, in milliseconds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine, transitions, tickMs, helperMs, quietMs, holdMs } from "../../web/bridge/engine.js";
import { Kept } from "../../web/bridge/storage.js";

/** FakeWorker answers as engine-worker.js does: "ready" after init (unless stalled), res, pong. */
class FakeWorker {
  constructor(h) {
    this.h = h;
    this.got = [];
    this.ended = false;
    h.workers.push(this);
  }
  postMessage(msg) {
    this.got.push(msg);
    const reply = (data) => queueMicrotask(() => !this.ended && this.onmessage && this.onmessage({ data }));
    switch (msg.type) {
      case "init":
        if (!msg.stall && !this.h.silent) reply({ type: "ready", ms: 1 });
        return;
      case "ping":
        reply({ type: "pong", id: msg.id });
        return;
      case "req": {
        const req = JSON.parse(msg.text);
        reply({ type: "res", id: msg.id, text: JSON.stringify({ v: 1, ok: true, result: { op: req.op, name: "folder" } }), ms: 1 });
        return;
      }
    }
  }
  terminate() {
    this.ended = true;
  }
  /** sent lists the engine requests this worker was sent, as their op names. */
  sent() {
    return this.got.filter((m) => m.type === "req").map((m) => JSON.parse(m.text).op);
  }
}

/**
 * FakeHelper answers as engine-worker.js does for the helper that warms the code up: "ready" after
 * init, then, for warm-code, what answer says ("done": warm-code; "crash"; "none": nothing, until
 * finish()).
 */
class FakeHelper {
  constructor(h, answer) {
    this.got = [];
    this.ended = false;
    this.answer = answer;
    h.helpers.push(this);
  }
  postMessage(msg) {
    this.got.push(msg.type === "init" ? { type: "init", module: msg.module } : msg);
    const reply = (data) => queueMicrotask(() => !this.ended && this.onmessage && this.onmessage({ data }));
    if (msg.type === "init") reply({ type: "ready", ms: 1 });
    if (msg.type === "warm-code" && this.answer === "done") reply({ type: "warm-code", ms: 120 });
    if (msg.type === "warm-code" && this.answer === "crash") reply({ type: "crash", id: null, message: "trapped" });
  }
  terminate() {
    this.ended = true;
  }
  /** finish answers warm-code now, as a helper whose variant took a while. */
  finish() {
    if (!this.ended && this.onmessage) this.onmessage({ data: { type: "warm-code", ms: 900 } });
  }
}

/** memoryStore is a Kept store in memory: a Web Storage and an IndexedDB that answer at once. */
function memoryStore() {
  const session = new Map();
  const db = new Map();
  return {
    session: { getItem: (k) => (session.has(k) ? session.get(k) : null), setItem: (k, v) => session.set(k, String(v)), removeItem: (k) => session.delete(k) },
    put: async (k, v) => db.set(k, v),
    get: async (k) => db.get(k),
    clear: async () => db.clear(),
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

/**
 * harness starts an engine over fake parts: opts.hooks (apibankTestHooks), opts.compile (replaces
 * the compile: (download) => promise of a module), opts.kept, opts.idle (the page's idle(fn)). It returns the engine with the
 * workers made, the errors logged, and advance(ms), which moves the fake clock a tick at a time,
 * running due timers and the watchdog.
 */
async function harness(opts = {}) {
  const h = { workers: [], helpers: [], errors: [], silent: false, t: 0, timers: [] };
  const log = { error: (...a) => h.errors.push(a.join(" ")), warn() {}, log() {} };
  const kept = opts.kept || new Kept(memoryStore(), log);
  h.kept = kept;
  h.engine = createEngine({
    engineURL: "/web/engine.wasm",
    compile: opts.compile || (async () => ({ module: true })),
    newWorker: () => new FakeWorker(h),
    kept,
    hooks: opts.hooks || {},
    now: () => h.t,
    later: (fn, ms) => h.timers.push({ at: h.t + ms, fn }),
    every: () => {},
    idle: opts.idle,
    newHelper: opts.helper ? () => new FakeHelper(h, opts.helper) : undefined,
    log,
  });
  h.advance = async (ms, step = tickMs) => {
    for (const end = h.t + ms; h.t < end; ) {
      h.t += step;
      for (const timer of h.timers.filter((x) => x.at <= h.t)) {
        h.timers.splice(h.timers.indexOf(timer), 1);
        timer.fn();
      }
      h.engine.tick();
      await settle();
    }
  };
  h.engine.start();
  await settle();
  return h;
}

const req = (op, extra) => JSON.stringify(Object.assign({ v: 1, op }, extra || {}));

/** allowed checks that every step of a history is a transition the table lists. */
function allowed(history) {
  for (let i = 1; i < history.length; i++) assert.ok(transitions[history[i - 1]].includes(history[i]), `${history[i - 1]} -> ${history[i]} is not in the table`);
}

test("the state machine's transitions, scenario by scenario", async (t) => {
  const cases = [
    {
      name: "a start that goes well",
      async run() {
        const h = await harness();
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a worker that never says ready is ended and a new one started",
      async run() {
        const h = await harness({ hooks: { stallStarts: 1, startMs: 1000 } });
        await h.advance(3000);
        assert.equal(h.workers.length, 2);
        assert.ok(h.workers[0].ended, "the hung worker was ended");
        assert.match(h.engine.status().lastError, /did not say ready within 1 s/);
        assert.equal(h.engine.status().restarts, 1);
        return { h, states: ["compile", "spawn", "pause", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "in a background tab, whose timers come late, a worker that never says ready is still ended",
      async run() {
        const h = await harness({ hooks: { stallStarts: 1, startMs: 1000 } });
        await h.advance(8000, 1100); // every tick over a second after the last
        assert.equal(h.workers.length, 2);
        assert.match(h.engine.status().lastError, /did not say ready within 1 s/);
        return { h, states: ["compile", "spawn", "pause", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a late tick after a busy page judges nothing: a ready that came meanwhile counts",
      async run() {
        const h = await harness({ hooks: { startMs: 1000 } });
        h.silent = true; // the next worker says nothing until told
        h.workers[0].onmessage({ data: { type: "crash", id: null, message: "trapped" } });
        await settle();
        assert.equal(h.engine.state(), "spawn");
        h.t += 5000; // the page's thread was busy for 5 s; the worker's "ready" is queued behind the tick
        h.engine.tick();
        assert.equal(h.engine.state(), "spawn", "the late tick did not end the worker");
        h.workers[1].onmessage({ data: { type: "ready", ms: 1 } });
        await settle();
        return { h, states: ["compile", "spawn", "restore", "serve", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a download that never starts is given up and made again",
      async run() {
        let calls = 0;
        const h = await harness({
          hooks: { stallMs: 1000 },
          compile: (d) => (++calls === 1 ? new Promise(() => {}) : Promise.resolve({ module: true })),
        });
        await h.advance(2500);
        assert.equal(calls, 2);
        assert.match(h.engine.status().lastError, /engine\.wasm did not start arriving in 1 s/);
        return { h, states: ["compile", "pause", "compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a start that keeps failing ends in failed, refuses requests, and retry recovers",
      async run() {
        const h = await harness({ hooks: { stallStarts: 2, startMs: 500, restartMs: 500, maxStarts: 2 } });
        const during = h.engine.request(req("catalog"));
        await h.advance(3000);
        assert.equal(h.engine.state(), "failed");
        const answer = await during;
        assert.equal(answer.ok, false);
        assert.match(answer.error, /did not say ready.*\(2 attempts\); press Retry/);
        assert.equal((await h.engine.request(req("catalog"))).ok, false, "refused at once while failed");
        assert.equal(h.engine.retry(), true);
        await settle();
        assert.equal((await h.engine.request(req("catalog"))).ok, true);
        assert.equal(h.engine.retry(), false, "no retry while serving");
        return { h, states: ["compile", "spawn", "pause", "spawn", "failed", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a worker replaced while the kept state is read back leaves the replay to the next one",
      async run() {
        const store = memoryStore();
        const kept = new Kept(store, { warn() {}, log() {} });
        kept.sandbox = [req("call", { call: "[A()]" }), req("call", { call: "[B()]" })];
        let readDone;
        kept.read = new Promise((r) => (readDone = r));
        const h = await harness({ kept });
        assert.equal(h.engine.state(), "restore");
        h.workers[0].onmessage({ data: { type: "crash", id: null, message: "trapped" } });
        await settle();
        readDone();
        await settle();
        assert.deepEqual(h.workers[0].sent(), [], "the replaced worker got no replay");
        assert.deepEqual(h.workers[1].sent(), ["call", "call"], "the next worker got the sandbox calls");
        assert.equal(kept.saved().sandboxCalls, 2, "and they are still kept");
        return { h, states: ["compile", "spawn", "restore", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a request whose keeping throws is still answered, and a replay does not stay in restore",
      async run() {
        const kept = new Kept(memoryStore(), { warn() {}, log() {} });
        kept.sandbox = [req("call", { call: "[A()]" })];
        kept.track = () => {
          throw new Error("storage broke");
        };
        const h = await harness({ kept });
        const r = await h.engine.request(req("call", { call: "[B()]" }));
        assert.equal(r.ok, true);
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a worker that stops answering its heartbeat is restarted with the tab's state",
      async run() {
        const h = await harness();
        await h.engine.request(req("call", { call: "[A()]" }));
        h.workers[0].ended = true; // answers nothing more, as a worker closed silently
        await h.advance(8000);
        assert.match(h.engine.status().lastError, /stopped answering its heartbeat/);
        assert.deepEqual(h.workers[1].sent(), ["call"], "the sandbox call was replayed");
        return { h, states: ["compile", "spawn", "restore", "serve", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "each worker is told to warm up only once the page is idle, and a replaced one never",
      async run() {
        const idles = [];
        const h = await harness({ idle: (fn) => idles.push(fn) });
        const warmUps = (w) => w.got.filter((m) => m.type === "warm-up").length;
        assert.equal(h.engine.state(), "serve");
        assert.equal(warmUps(h.workers[0]), 0, "not at ready: the page is still busy starting its UI");
        idles.shift()();
        assert.equal(warmUps(h.workers[0]), 1, "once the page is idle");
        // The next worker's idle moment comes after it was replaced too: only the one serving warms up.
        h.workers[0].onmessage({ data: { type: "crash", id: null, message: "trapped" } });
        await settle();
        const stale = idles.shift();
        h.workers[1].onmessage({ data: { type: "crash", id: null, message: "trapped" } });
        await settle();
        stale();
        idles.shift()();
        assert.deepEqual(h.workers.map(warmUps), [1, 0, 1]);
        return { h, states: ["compile", "spawn", "restore", "serve", "spawn", "restore", "serve", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "the warm-up's end and its variant's are in the status, and a replaced worker starts cold",
      async run() {
        const h = await harness({});
        const w = h.workers[0];
        w.onmessage({ data: { type: "warm", ms: 40, memory: 1 << 20 } });
        assert.deepEqual([h.engine.status().warm, h.engine.status().variantWarm], [true, false], "the warm-up, not yet its variant");
        w.onmessage({ data: { type: "warm-variant", ms: 90 } });
        assert.deepEqual([h.engine.status().variantWarm, h.engine.status().variantWarmMs], [true, 90]);
        w.onmessage({ data: { type: "crash", id: null, message: "trapped" } });
        await settle();
        assert.deepEqual([h.engine.status().warm, h.engine.status().variantWarm], [false, false], "the new worker has made no variant");
        return { h, states: ["compile", "spawn", "restore", "serve", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a helper warms the code up once, beside the engine, the first time the page is idle, and is ended",
      async run() {
        const idles = [];
        const h = await harness({ idle: (fn) => idles.push(fn), helper: "done" });
        assert.equal(h.helpers.length, 0, "not at ready: the page is still busy starting its UI");
        idles.shift()();
        await settle();
        assert.equal(h.helpers.length, 1);
        assert.deepEqual(h.helpers[0].got, [{ type: "init", module: { module: true } }, { type: "warm-code" }], "the page's compiled module, then its one job");
        assert.equal(h.helpers[0].ended, true, "ended once its variant is made");
        assert.deepEqual([h.engine.status().codeWarm, h.engine.status().codeWarmMs], [true, 120]);
        assert.deepEqual(h.workers[0].sent(), [], "the engine's own worker was asked nothing for it");
        // A replaced engine worker finds the code the helper compiled: no second helper.
        h.workers[0].onmessage({ data: { type: "crash", id: null, message: "trapped" } });
        await settle();
        idles.shift()();
        await settle();
        assert.equal(h.helpers.length, 1);
        return { h, states: ["compile", "spawn", "restore", "serve", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "no helper when the page asked the engine for a variant before the helper began",
      async run() {
        const idles = [];
        const h = await harness({ idle: (fn) => idles.push(fn), helper: "done" });
        await h.engine.request(req("load", { builtin: true, seed: 7 }));
        idles.shift()();
        await h.advance(quietMs);
        assert.equal(h.helpers.length, 0);
        const other = await harness({ idle: (fn) => idles.push(fn), helper: "done" });
        await other.engine.request(req("score", { pred: JSON.stringify({ seed: 7 }) }));
        idles.shift()();
        await other.advance(quietMs);
        assert.equal(other.helpers.length, 1, "a seed inside a text asks for no variant");
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a variant asked while the helper is at work waits for it, and what the page asks after it waits in order; at most holdMs",
      async run() {
        const idles = [];
        const h = await harness({ idle: (fn) => idles.push(fn), helper: "none" });
        idles.shift()();
        await settle();
        assert.equal(h.helpers[0].ended, false, "at work");
        const answered = [];
        const variant = h.engine.request(req("variant", { seed: 3 })).then((r) => answered.push(["variant", r.ok]));
        const score = h.engine.request(req("score", { pred: "[A()]" })).then((r) => answered.push(["score", r.ok]));
        await settle();
        assert.deepEqual(h.workers[0].sent(), [], "both wait: the variant would compete with the helper's for the cores");
        assert.equal(h.engine.status().heldForHelper, true);
        h.helpers[0].finish();
        await Promise.all([variant, score]);
        assert.deepEqual(h.workers[0].sent(), ["variant", "score"], "sent in the order asked, once the helper is done");
        assert.deepEqual(answered, [["variant", true], ["score", true]]);
        assert.deepEqual([h.helpers[0].ended, h.engine.status().codeWarm], [true, true]);
        const r = await h.engine.request(req("variant", { seed: 4 }));
        assert.equal(r.ok, true, "no helper at work: sent at once");

        const stuck = await harness({ idle: (fn) => idles.push(fn), helper: "none" });
        idles.shift()();
        await settle();
        const late = stuck.engine.request(req("variant", { seed: 3 }));
        await stuck.advance(holdMs - tickMs);
        assert.deepEqual(stuck.workers[0].sent(), [], "still waiting");
        await stuck.advance(tickMs);
        assert.equal((await late).ok, true, "a helper that takes too long is ended, and the request sent");
        assert.deepEqual([stuck.helpers[0].ended, stuck.engine.status().codeWarm], [true, false]);
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "the warm-ups begin once the page has asked the engine nothing for quietMs, or a few seconds after it was idle",
      async run() {
        const idles = [];
        const h = await harness({ idle: (fn) => idles.push(fn), helper: "done" });
        const warmUps = () => h.workers[0].got.filter((m) => m.type === "warm-up").length;
        await h.engine.request(req("stats"));
        idles.shift()();
        await settle();
        assert.deepEqual([warmUps(), h.helpers.length], [0, 0], "the page has just asked: its next request may follow at once");
        await h.advance(quietMs - tickMs);
        await h.engine.request(req("dialogues"));
        await h.advance(quietMs - tickMs);
        assert.deepEqual([warmUps(), h.helpers.length], [0, 0], "asked again meanwhile");
        await h.advance(tickMs);
        assert.deepEqual([warmUps(), h.helpers.length], [1, 1], "quiet for quietMs");

        const busy = await harness({ idle: (fn) => idles.push(fn) });
        const busyWarmUps = () => busy.workers[0].got.filter((m) => m.type === "warm-up").length;
        idles.shift()();
        for (let t = 0; t < 5000; t += tickMs) {
          await busy.engine.request(req("world"));
          await busy.advance(tickMs);
        }
        assert.equal(busyWarmUps(), 1, "a page that never pauses still gets its warm-up, a few seconds after it was idle");
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "the test hook warmUps: false turns both warm-ups off, and nothing else",
      async run() {
        const idles = [];
        const h = await harness({ idle: (fn) => idles.push(fn), helper: "done", hooks: { warmUps: false } });
        assert.equal(idles.length, 0, "no idle work was asked for");
        await h.advance(10000);
        assert.deepEqual([h.workers[0].got.filter((m) => m.type === "warm-up").length, h.helpers.length], [0, 0]);
        const r = await h.engine.request(req("stats"));
        assert.equal(r.ok, true, "the engine answers");
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
    {
      name: "a helper that traps or never answers is ended and changes nothing else",
      async run() {
        const trapped = await harness({ helper: "crash" });
        await trapped.advance(tickMs); // the default idle(fn): a timer of 0 ms
        assert.deepEqual([trapped.helpers[0].ended, trapped.engine.status().codeWarm], [true, false]);
        const h = await harness({ helper: "none" });
        await h.advance(tickMs);
        assert.equal(h.helpers[0].ended, false, "still at work");
        const r = await h.engine.request(req("call", { call: "[A()]" }));
        assert.equal(r.ok, true, "the engine answers meanwhile");
        await h.advance(helperMs + tickMs, 1000);
        assert.deepEqual([h.helpers[0].ended, h.engine.status().codeWarm, h.engine.state()], [true, false, "serve"]);
        return { h, states: ["compile", "spawn", "restore", "serve"] };
      },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const { h, states } = await c.run();
      const history = ["boot", ...h.engine.history()];
      assert.deepEqual(history.slice(1), states);
      allowed(history);
      assert.deepEqual(h.errors, [], "no transition outside the table was logged");
    });
  }
});

test("a kept state that brought the engine down is forgotten in the tab's session too, so a reload does not replay it", async () => {
  const store = memoryStore();
  const kept = new Kept(store, { warn() {}, log() {} });
  await kept.track(JSON.stringify({ v: 1, op: "call", call: "[GetToday()]" }), JSON.stringify({ ok: true }), false);
  assert.equal(kept.load().sandbox.length, 1, "the call is in the session");
  kept.forget();
  assert.deepEqual(kept.saved(), { imported: false, variant: false, sandboxCalls: 0, importedName: "" });
  const after = kept.load();
  assert.equal(after.sandbox.length, 0, "a reload finds no sandbox call to replay");
  assert.equal(after.active, "builtin", "a reload starts on the builtin data");
});

test("a variant loaded by its seed is what a restart and a reload rebuild, before the sandbox calls on it", async () => {
  const store = memoryStore();
  const kept = new Kept(store, { warn() {}, log() {} });
  const variant = JSON.stringify({ v: 1, op: "load", builtin: true, seed: 42 });
  await kept.track(variant, JSON.stringify({ ok: true, result: { name: "builtin~s42" } }), false);
  await kept.track(JSON.stringify({ v: 1, op: "call", call: "[GetToday()]" }), JSON.stringify({ ok: true }), false);
  assert.equal(kept.saved().variant, true);
  assert.equal(kept.load().active, "variant");
  const reloaded = new Kept(store, { warn() {}, log() {} });
  await reloaded.readBack();
  assert.deepEqual(reloaded.takeSteps().map((s) => JSON.parse(s).op), ["load", "call"], "after a reload: the variant, then the call");
  assert.deepEqual(kept.takeSteps()[0], variant, "after a restart: the variant's own load");
  await kept.track(JSON.stringify({ v: 1, op: "load", builtin: true }), JSON.stringify({ ok: true }), false);
  assert.deepEqual(kept.takeSteps(), [], "the builtin data again: nothing to rebuild");
  assert.equal(kept.load().active, "builtin");
});
