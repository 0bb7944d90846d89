// Measures, in headless Chromium against cmd/server on localhost:
//  - first interactive, cold: a new profile (empty cache) opens "/", until go-app has mounted the UI;
//    also when this tab's engine worker answers;
//  - scoring every builtin gold prediction in the tab, once the engine is up: the engine request's
//    round trip from the page (worker included), and the whole paste-to-verdicts path in the UI.
// Prints the medians. `make bench` runs it.
import { startServer, launch, open, ready, engineRequest, goldPredictions, jsonl, pasteAndScore } from "./lib.mjs";

const RUNS = Number(process.env.RUNS || 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, n=${xs.length})`;

const server = await startServer();
const out = { interactive: [], engineReady: [], score: [], scoreWorker: [], scoreUI: [] };
try {
  for (let i = 0; i < RUNS; i++) {
    const b = await launch();
    const page = await b.context.newPage();
    await page.goto(server.url + "/");
    await page.waitForFunction(() => !document.getElementById("app-wasm-loader") && document.querySelector("[data-testid=dataset-select]"), null, { polling: 5 });
    out.interactive.push(await page.evaluate(() => performance.now()));
    await page.waitForFunction(() => performance.getEntriesByName("apibank-engine-ready").length > 0, null, { polling: 5 });
    out.engineReady.push(await page.evaluate(() => performance.getEntriesByName("apibank-engine-ready")[0].startTime));
    await b.close();
  }

  const b = await launch();
  const page = await b.context.newPage();
  await open(page, server.url, "/score");
  const list = await engineRequest(page, { op: "dialogues" });
  const dls = [];
  for (const d of list) dls.push(await engineRequest(page, { op: "dialogue", level: d.level, file: d.file }));
  const preds = jsonl(goldPredictions(dls));
  const lines = preds.trim().split("\n").length;
  for (let i = 0; i < RUNS; i++) {
    const r = await page.evaluate(async (text) => {
      const t0 = performance.now();
      const r = await window.apibankEngine.request(text);
      return { ms: performance.now() - t0, worker: r.ms, ok: r.ok && JSON.parse(r.text).ok };
    }, JSON.stringify({ v: 1, op: "score", preds }));
    if (!r.ok) throw new Error("score failed");
    out.score.push(r.ms);
    out.scoreWorker.push(r.worker);
  }
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    const t0 = Date.now();
    await pasteAndScore(page, preds);
    out.scoreUI.push(Date.now() - t0);
  }
  await b.close();

  console.log(`first interactive, cold (budget 1500 ms): ${fmt(out.interactive)}`);
  console.log(`engine ready, cold:                       ${fmt(out.engineReady)}`);
  console.log(`score all ${lines} builtin gold lines, page round trip (budget 100 ms): ${fmt(out.score)}`);
  console.log(`  of which inside the worker:             ${fmt(out.scoreWorker)}`);
  console.log(`  paste, click, verdicts rendered (UI):   ${fmt(out.scoreUI)}`);
} finally {
  await server.stop();
}
