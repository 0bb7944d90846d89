// wasm-opt.mjs: binaryen's wasm-opt at the version this folder pins, run with Node, with its output
// kept in the user's cache under what it was made from: the input's bytes, the flags and binaryen's
// version. wasm-opt -Oz takes over a minute for the engine module, and the Makefile rebuilds the module
// after any change to a Go file, most of which leave the engine's bytes as they were: then the kept
// output is copied instead. Nothing else can change wasm-opt's output, so a kept one is the one it
// would make (RATIONALE.md "Why is wasm-opt's output cached?").
//
//   node scripts/binaryen/wasm-opt.mjs IN OUT [wasm-opt flags...]
//
// The cache is APIBANK_WASMOPT_CACHE (a folder; "off": none), else apibank-playground/wasm-opt in
// XDG_CACHE_HOME or ~/.cache; it holds the newest few outputs. A kept output that cannot be read
// is a miss, and one that cannot be written a warning: the build never fails for the cache. APIBANK_WASMOPT_BIN runs
// another script in wasm-opt's place (the harness's tests count its runs).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
/** keep is how many outputs the cache holds (each is a few MB). */
const keep = 8;

/** cacheDir is where outputs are kept, or "" for none. */
function cacheDir(env) {
  if (env.APIBANK_WASMOPT_CACHE === "off") return "";
  if (env.APIBANK_WASMOPT_CACHE) return env.APIBANK_WASMOPT_CACHE;
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "apibank-playground", "wasm-opt");
}

/** readModule is file's bytes if they start as a WebAssembly module does, else null (a kept file cut short is not used). */
function readModule(file) {
  try {
    const b = readFileSync(file);
    return b.length > 8 && b.subarray(0, 4).equals(Buffer.from([0, 0x61, 0x73, 0x6d])) ? b : null;
  } catch {
    return null;
  }
}

/** prune removes all but the newest kept outputs. */
function prune(dir) {
  const kept = readdirSync(dir)
    .filter((n) => n.endsWith(".wasm"))
    .map((n) => ({ n, t: statSync(path.join(dir, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { n } of kept.slice(keep)) rmSync(path.join(dir, n), { force: true });
}

function main(argv, env) {
  const [input, output, ...flags] = argv;
  if (!input || !output) {
    console.error("usage: node scripts/binaryen/wasm-opt.mjs IN OUT [wasm-opt flags...]");
    return 2;
  }
  const bin = env.APIBANK_WASMOPT_BIN || path.join(here, "node_modules", "binaryen", "bin", "wasm-opt");
  const version = JSON.parse(readFileSync(path.join(here, "node_modules", "binaryen", "package.json"), "utf8")).version;
  const key = createHash("sha256")
    .update(JSON.stringify({ version, bin: env.APIBANK_WASMOPT_BIN || "", flags }))
    .update(readFileSync(input))
    .digest("hex");
  const dir = cacheDir(env);
  const kept = dir && path.join(dir, key + ".wasm");
  const hit = kept && readModule(kept);
  if (hit) {
    writeFileSync(output, hit);
    const now = new Date();
    try {
      utimesSync(kept, now, now); // the newest again, for prune
    } catch {
      // only the pruning order suffers
    }
    console.log(`wasm-opt: ${output} is the output kept in ${dir} for these bytes and flags (binaryen ${version})`);
    return 0;
  }
  const tmp = output + ".tmp";
  const r = spawnSync(process.execPath, [bin, ...flags, input, "-o", tmp], { stdio: "inherit" });
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    console.error(`wasm-opt failed on ${input} (${r.error ? r.error.message : "exit status " + r.status})`);
    return 1;
  }
  if (kept) {
    const part = `${kept}.${process.pid}.part`;
    try {
      mkdirSync(dir, { recursive: true });
      copyFileSync(tmp, part);
      renameSync(part, kept); // whole or not at all, even with two builds at once
      prune(dir);
    } catch (err) {
      try {
        rmSync(part, { force: true });
      } catch {
        // the folder itself is not there to hold it
      }
      console.warn(`wasm-opt: could not keep the output in ${dir}: ${err.message}`);
    }
  }
  renameSync(tmp, output);
  return 0;
}

process.exitCode = main(process.argv.slice(2), process.env);
