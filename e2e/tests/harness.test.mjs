// The harness's own rules, read from the test sources (no browser): a wait that cannot wait is a
// test that checks less than it says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib.mjs";

test("no browser test waits with an async predicate in page.waitForFunction", () => {
  // Playwright takes the predicate's returned Promise as a truthy answer and returns at once; a
  // wait on async page state polls page.evaluate from Node instead (see offlineReady).
  const dir = path.join(root, "e2e");
  const files = ["lib.mjs", "bench.mjs", ...readdirSync(path.join(dir, "tests")).map((f) => path.join("tests", f))];
  const bad = [];
  for (const f of files.filter((f) => f.endsWith(".mjs"))) {
    const src = readFileSync(path.join(dir, f), "utf8");
    for (const m of src.matchAll(/waitForFunction\(\s*async\b/g)) bad.push(`e2e/${f}:${src.slice(0, m.index).split("\n").length}`);
  }
  assert.ok(files.length > 3, "the test sources are read");
  assert.deepEqual(bad, [], "async predicates in waitForFunction");
});
