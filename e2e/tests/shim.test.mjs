// Our WASI shim (web/wasi.js) outside the browser: Node runs web/engine.wasm with it and must judge
// exactly as the CLI does under wazero. The browser suite covers the worker around it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { root, webSnapshot, goldPredictions, jsonl, cli } from "../lib.mjs";

const { Engine, WASI } = createRequire(import.meta.url)(path.join(root, "web", "wasi.js"));

async function start() {
  const module = await WebAssembly.compile(readFileSync(path.join(webSnapshot(), "engine.wasm")));
  const lines = [];
  const e = await Engine.start(module, { output: (fd, line) => lines.push([fd, line]) });
  const q = (req) => {
    const resp = JSON.parse(e.handle(JSON.stringify({ v: 1, ...req })));
    if (!resp.ok) throw new Error(resp.error.message);
    return resp.result;
  };
  return { e, q, lines };
}

test("the shim runs the engine: hello, and a bad request is an error, not a trap", async () => {
  const { e, q, lines } = await start();
  const h = q({ op: "hello" });
  assert.equal(h.protocol, 1);
  assert.equal(h.builtin_error, "", "the builtin data loads");
  const bad = JSON.parse(e.handle("not json"));
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, "bad_request");
  assert.deepEqual(lines, [], "the engine wrote nothing to stdout or stderr");
});

test("scoring builtin predictions in Node equals the CLI under wazero, line by line", async () => {
  const { q } = await start();
  const dls = q({ op: "dialogues" }).filter((_, i) => i % 3 === 0).map((d) => q({ op: "dialogue", level: d.level, file: d.file }));
  const lines = goldPredictions(dls);
  lines.forEach((l, i) => {
    if (i % 5 === 1) l.pred = "[NoSuchTool(x='1')]";
  });
  const tmp = mkdtempSync(path.join(tmpdir(), "apibank-shim-"));
  try {
    const file = path.join(tmp, "preds.jsonl");
    const out = path.join(tmp, "out.jsonl");
    writeFileSync(file, jsonl(lines));
    const node = q({ op: "score", preds: readFileSync(file, "utf8"), name: file });
    const report = JSON.parse(cli(["score", "--preds", file, "--out", out, "--json"]));
    assert.deepEqual(node.report, report);
    const want = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((r) => r.kind);
    assert.deepEqual(node.results, want);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("clock and randomness come from the host", () => {
  const w = new WASI();
  const mem = new WebAssembly.Memory({ initial: 2 });
  w.instance = { exports: { memory: mem } };
  assert.equal(w.wasiImport.clock_time_get(0, 0n, 8), 0);
  const ns = new DataView(mem.buffer).getBigUint64(8, true);
  const now = BigInt(Date.now()) * 1000000n;
  assert.ok(ns > now - 10n ** 10n && ns < now + 10n ** 10n, "real-time clock within 10 s of Date.now()");
  assert.equal(w.wasiImport.random_get(100, 70000), 0);
  const bytes = new Uint8Array(mem.buffer, 100, 70000);
  assert.ok(bytes.some((b) => b !== 0) && bytes.slice(66000).some((b) => b !== 0), "random bytes past the 64 KiB chunk");
  assert.equal(w.wasiImport.fd_prestat_get(3, 0), 8, "no preopened directories (EBADF)");
  assert.throws(() => w.wasiImport.proc_exit(3), (err) => err.name === "ProcExit" && err.code === 3);
});
