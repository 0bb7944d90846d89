// The tab's line rule (web/engine-worker.js: lineEnds, cutAfterLine, lastCut) against the vectors of
// internal/lines/testdata/lines.json, the file the Go line reader is tested with: the worker must cut
// and number a prediction file's lines as the engine does. Pure Node: the worker script runs in a
// vm context with stubs for the few worker globals its top level touches.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { vectors } = JSON.parse(readFileSync(path.join(root, "internal", "lines", "testdata", "lines.json"), "utf8"));

// worker evaluates web/engine-worker.js as a classic worker script and returns its global scope.
function worker() {
  const self = { location: { href: "http://localhost/web/engine-worker.js" } };
  const ctx = vm.createContext({ self, URL, TextDecoder, importScripts() {}, postMessage() {}, setTimeout, performance });
  vm.runInContext(readFileSync(path.join(root, "web", "engine-worker.js"), "utf8"), ctx, { filename: "engine-worker.js" });
  return ctx;
}

const BOM = [0xef, 0xbb, 0xbf];
const startsWithBOM = (b) => b.length >= 3 && BOM.every((c, i) => b[i] === c);

test("the worker's line functions follow the shared vectors", () => {
  const w = worker();
  for (const name of ["lineEnds", "cutAfterLine", "lastCut"]) assert.equal(typeof w[name], "function", name + " is in engine-worker.js");
  assert.ok(vectors.length > 0);
  for (const v of vectors) {
    const bytes = new TextEncoder().encode(v.input);
    const spans = v.lines;
    // A line is ended when a line end follows its text; only the last one may run to the end unended.
    const ended = spans.filter(([, end]) => end < bytes.length).length;
    assert.equal(w.lineEnds(bytes, 0, bytes.length), ended, `${v.name}: lineEnds`);

    // Walking the lines with cutAfterLine finds each line's text at its span. The worker leaves a
    // leading byte order mark in line 1's bytes: its TextDecoder drops it (predOf).
    let at = 0;
    spans.forEach(([start, end], i) => {
      const stop = w.cutAfterLine(bytes, at);
      let textEnd = stop;
      if (textEnd > at && bytes[textEnd - 1] === 10) textEnd--;
      if (textEnd > at && bytes[textEnd - 1] === 13) textEnd--;
      const from = i === 0 && startsWithBOM(bytes) ? at + 3 : at;
      assert.deepEqual([from, textEnd], [start, end], `${v.name}: line ${i + 1}`);
      at = stop;
    });
    const rest = bytes.subarray(at);
    assert.ok(rest.length === 0 || (spans.length === 0 && rest.length === 3 && startsWithBOM(rest)), `${v.name}: text after the last line`);

    // lastCut: just after the last line end whose kind is certain (a "\r" as the last byte may be the
    // first half of a "\r\n" the next read brings), or -1.
    let want = -1;
    spans.forEach(([, end], i) => {
      if (end >= bytes.length) return; // not ended
      const next = i + 1 < spans.length ? spans[i + 1][0] : bytes.length;
      if (next === bytes.length && bytes[bytes.length - 1] === 13) return; // a lone "\r" last
      want = next;
    });
    assert.equal(w.lastCut(bytes), want, `${v.name}: lastCut`);
  }
});

test("a chunk cut at lastCut numbers the next chunk's lines as one reading does", () => {
  const w = worker();
  let checked = 0;
  for (const v of vectors) {
    const bytes = new TextEncoder().encode(v.input);
    const cut = w.lastCut(bytes.subarray(0, Math.max(0, bytes.length - 1)));
    if (cut <= 0) continue;
    // The worker numbers the second chunk from 1 + the line ends of the first.
    const first = 1 + w.lineEnds(bytes, 0, cut);
    const line = v.lines.findIndex(([start]) => start >= cut) + 1;
    if (line > 0) {
      assert.equal(first, line, `${v.name}: the line after the cut at ${cut}`);
      checked++;
    }
  }
  assert.ok(checked >= 5, `${checked} vectors had a cut with a line after it`);
});
