// The build's wasm-opt (scripts/binaryen/wasm-opt.mjs), no browser: an output is kept in the cache
// under the input's bytes and the flags, and taken from it only for the same ones; a kept file cut
// short, a failing optimiser and a cache that cannot be written each leave a right build. A fake
// optimiser stands in for binaryen's (APIBANK_WASMOPT_BIN) and counts its runs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "../lib.mjs";

const script = path.join(root, "scripts", "binaryen", "wasm-opt.mjs");
const haveBinaryen = existsSync(path.join(root, "scripts", "binaryen", "node_modules", "binaryen", "package.json"));
let dir;

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), "apibank-wasmopt-"));
  // The fake: writes its input with the flags appended to the -o file, one line per run in runs.log;
  // FAKE_FAIL makes it fail.
  writeFileSync(
    path.join(dir, "fake.mjs"),
    `import { readFileSync, writeFileSync, appendFileSync } from "node:fs";
const a = process.argv.slice(2);
if (process.env.FAKE_FAIL) process.exit(3);
const out = a[a.indexOf("-o") + 1];
const input = a[a.indexOf("-o") - 1];
const flags = a.slice(0, a.indexOf("-o") - 1);
appendFileSync(${JSON.stringify(path.join(dir, "runs.log"))}, input + "\\n");
writeFileSync(out, Buffer.concat([readFileSync(input), Buffer.from(flags.join(" "))]));
`,
  );
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** module writes a small file with a WebAssembly header and body, and returns its path. */
function module(name, body) {
  const p = path.join(dir, name);
  writeFileSync(p, Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.from(body)]));
  return p;
}

const runs = () => (existsSync(path.join(dir, "runs.log")) ? readFileSync(path.join(dir, "runs.log"), "utf8").split("\n").filter(Boolean).length : 0);

/** opt runs the script; resolves {status, stderr, out (the output's bytes or null)}. */
function opt(input, flags, { cache = path.join(dir, "cache"), fail = false } = {}) {
  const out = path.join(dir, "out.wasm");
  rmSync(out, { force: true });
  const env = Object.assign({}, process.env, { APIBANK_WASMOPT_BIN: path.join(dir, "fake.mjs"), APIBANK_WASMOPT_CACHE: cache });
  if (fail) env.FAKE_FAIL = "1";
  const r = spawnSync(process.execPath, [script, input, out, ...flags], { env, encoding: "utf8" });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout, out: existsSync(out) ? readFileSync(out) : null };
}

test("wasm-opt's output is kept by input and flags, and taken from the cache only for the same ones", { skip: !haveBinaryen && "scripts/binaryen has no node_modules: make wasm installs it" }, () => {
  const a = module("a.wasm", "engine a");
  const b = module("b.wasm", "engine b");
  const cases = [
    { what: "a first build runs it", input: a, flags: ["-Oz"], ran: true },
    { what: "the same bytes and flags take the kept output", input: a, flags: ["-Oz"], ran: false },
    { what: "other flags run it", input: a, flags: ["-O2"], ran: true },
    { what: "other bytes run it", input: b, flags: ["-Oz"], ran: true },
    { what: "each is kept apart", input: a, flags: ["-O2"], ran: false },
  ];
  for (const c of cases) {
    const before = runs();
    const r = opt(c.input, c.flags);
    assert.equal(r.status, 0, c.what + ": " + r.stderr);
    assert.equal(runs() - before, c.ran ? 1 : 0, c.what);
    assert.deepEqual(r.out, Buffer.concat([readFileSync(c.input), Buffer.from(c.flags.join(" "))]), c.what + ": the output is the optimiser's for this input");
    if (!c.ran) assert.match(r.stdout, /is the output kept in/, c.what);
  }
});

test("a kept output cut short is made again; a failing optimiser fails the build and keeps nothing", { skip: !haveBinaryen && "scripts/binaryen has no node_modules: make wasm installs it" }, () => {
  const cache = path.join(dir, "cache-short");
  const c = module("c.wasm", "engine c");
  assert.equal(opt(c, ["-Oz"], { cache }).status, 0);
  const [kept] = readdirSync(cache);
  truncateSync(path.join(cache, kept), 2);
  const before = runs();
  const r = opt(c, ["-Oz"], { cache });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(runs() - before, 1, "the short file was not used");
  assert.equal(readFileSync(path.join(cache, kept)).length, r.out.length, "the kept output was written again whole");

  const failing = path.join(dir, "cache-fail");
  const f = opt(module("f.wasm", "engine f"), ["-Oz"], { cache: failing, fail: true });
  assert.equal(f.status, 1);
  assert.match(f.stderr, /wasm-opt failed on .*f\.wasm \(exit status 3\)/);
  assert.equal(f.out, null, "no output is left");
  assert.ok(!existsSync(failing) || readdirSync(failing).length === 0, "nothing is kept");
});

test("with the cache off or not writable, every build runs wasm-opt and succeeds; the cache keeps the newest 8", { skip: !haveBinaryen && "scripts/binaryen has no node_modules: make wasm installs it" }, () => {
  const d = module("d.wasm", "engine d");
  let before = runs();
  for (let i = 0; i < 2; i++) assert.equal(opt(d, ["-Oz"], { cache: "off" }).status, 0);
  assert.equal(runs() - before, 2, "off: no output is kept");

  const blocked = path.join(dir, "not-a-folder");
  writeFileSync(blocked, "a file where the cache folder would be");
  before = runs();
  const r = opt(d, ["-Oz"], { cache: blocked });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /could not keep the output in/);
  assert.ok(r.out, "the output is written all the same");
  assert.equal(runs() - before, 1);

  const many = path.join(dir, "cache-many");
  for (let i = 0; i < 11; i++) assert.equal(opt(module(`m${i}.wasm`, "engine " + i), ["-Oz"], { cache: many }).status, 0);
  assert.equal(readdirSync(many).filter((n) => n.endsWith(".wasm")).length, 8);
  before = runs();
  opt(path.join(dir, "m10.wasm"), ["-Oz"], { cache: many });
  assert.equal(runs() - before, 0, "the newest is among those kept");
});

test("the script says how to call it", () => {
  const r = spawnSync(process.execPath, [script], { encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^usage: node scripts\/binaryen\/wasm-opt\.mjs IN OUT/);
});
