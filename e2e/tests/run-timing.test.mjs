// A full level-1 run from the tab against cmd/fakemodel, as a user's first and as a later one: its
// wall time, and no main-thread task over the budget caused by the run. A file of its own, run after
// the shared files and never beside bulk (it holds the machine to a CPU budget; see the Makefile);
// the run's other tests are in run.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { loadavg } from "node:os";
import { watch, open, session, startFakeModel, launch, traceTasks, fillRunForm, pageHolds, runFinished } from "../lib.mjs";

const KEY = "sk-e2e-" + Math.random().toString(36).slice(2) + "-secret";
const s = session({ warmUps: true }); // a run timed as a user meets it, with the idle warm-ups
let fake;

// Every level-1 request in the text form gets the same call: the run's cost is the tab's, not the
// answers'.
before(async () => {
  fake = await startFakeModel({ key: KEY, models: ["fake-model"], rules: [{ reply: { content: "[Calculator(formula='1+2')]" } }] });
});

after(async () => {
  if (fake) await fake.stop();
});

/**
 * observeLongTasks starts counting, in the page, its long tasks (PerformanceObserver longtask) and
 * the scripts of its long animation frames; longTasks reads them, with the longest script.
 */
async function observeLongTasks(page) {
  await page.evaluate(() => {
    window.__longest = 0;
    window.__longtasks = 0;
    window.__scripts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__longtasks++;
        window.__longest = Math.max(window.__longest, e.duration);
      }
    }).observe({ type: "longtask" });
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) {
        for (const sc of f.scripts || []) window.__scripts.push({ ms: sc.duration, what: `${sc.invoker} (${(sc.sourceURL || "").split("/").pop().split("?")[0]})` });
      }
    }).observe({ type: "long-animation-frame" });
  });
}

async function longTasks(page) {
  const lt = await page.evaluate(() => ({ longest: window.__longest, count: window.__longtasks, scripts: window.__scripts }));
  return { lt, worst: lt.scripts.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, what: "none" }) };
}

// A full level-1 run as a user's first and as a later one: in a fresh browser (a new profile: no
// compiled code cached, nothing warmed by an earlier test), first at concurrency 16, then again at
// concurrency 4 in a new tab of the same browser. Every task of the page's main thread is read from a
// Chromium trace, with its wall time and the CPU time the thread ran in it; the budget, 50 ms, is
// asserted on each task's CPU time. A fresh browser optimises app.wasm's code on other threads during
// the run, and the test machine's 2 cores are shared: a task's wall time there also holds the time
// the thread waited for a core (tasks of 8 ms of CPU have lasted 100 ms), so wall times, the longest
// task (PerformanceObserver longtask) and the longest script of a long animation frame are reported,
// not asserted (RATIONALE "How does the page stay responsive?"; `make bench-browser` measures them on a
// quieter machine).
const RUN_TASK_CPU_BUDGET_MS = 50;
test("a full level-1 run, first in a fresh browser and then again: wall time, and no main-thread task over 50 ms caused by the run", async (t) => {
  const fresh = await launch({ warmUps: true });
  try {
    for (const [concurrency, which] of [[16, "first in a fresh browser"], [4, "a later run"]]) {
      const page = await fresh.context.newPage();
      const w = watch(page);
      await open(page, s.server.url, "/run");
      await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "fake-model", form: "text", levels: ["level-1-given-desc"], concurrency });
      await observeLongTasks(page);
      const stop = await traceTasks(page);
      const t0 = Date.now();
      await page.getByTestId("run-start").click();
      const p = await runFinished(page, "", 600000);
      const wall = (Date.now() - t0) / 1000;
      await page.waitForTimeout(500); // the last frames' entries
      const { lt, worst } = await longTasks(page); // read before the trace ends: its flush is a task of its own
      const tasks = await stop();
      const byCPU = tasks.reduce((a, b) => (b.cpu > a.cpu ? b : a), { cpu: 0, wall: 0, at: 0 });
      const byWall = tasks.reduce((a, b) => (b.wall > a.wall ? b : a), { cpu: 0, wall: 0, at: 0 });
      const load = loadavg()[0].toFixed(1);
      const held = await pageHolds(page);
      t.diagnostic(`the page holds after the run: JS heap ${(held.heap / 1e6).toFixed(1)} MB after a GC, WebAssembly memory ${(held.wasm / 1e6).toFixed(1)} MB`);
      assert.equal(p.state, "done");
      assert.equal(p.done, p.total);
      assert.ok(tasks.length > 100, `the trace holds the run's tasks (${tasks.length})`);
      t.diagnostic(`level 1, ${p.total} samples, concurrency ${concurrency}, ${which}: ${wall.toFixed(1)} s wall, longest script ${worst.ms.toFixed(0)} ms (${worst.what}), longest main-thread task ${lt.longest.toFixed(0)} ms (${lt.count} tasks over 50 ms); traced: ${tasks.length} tasks, the most CPU ${byCPU.cpu.toFixed(1)} ms (wall ${byCPU.wall.toFixed(0)} ms), the longest ${byWall.wall.toFixed(0)} ms (CPU ${byWall.cpu.toFixed(1)} ms); load average ${load}`);
      console.log(`FIGURE level-1 ${which === "a later run" ? "later" : "fresh"} concurrency=${concurrency} samples=${p.total} wall=${wall.toFixed(1)}s longest_script=${worst.ms.toFixed(0)}ms longest_task=${lt.longest.toFixed(0)}ms longtasks=${lt.count} max_task_cpu=${byCPU.cpu.toFixed(1)}ms longest_traced_task=${byWall.wall.toFixed(0)}ms load=${load}`);
      assert.ok(byCPU.cpu <= RUN_TASK_CPU_BUDGET_MS, `${which}: a main-thread task ran ${byCPU.cpu.toFixed(1)} ms of CPU (at +${byCPU.at.toFixed(0)} ms of the trace, wall ${byCPU.wall.toFixed(0)} ms); budget ${RUN_TASK_CPU_BUDGET_MS} ms: ` +
        JSON.stringify(tasks.filter((x) => x.cpu > RUN_TASK_CPU_BUDGET_MS).map((x) => `+${x.at.toFixed(0)}: ${x.cpu.toFixed(1)} ms CPU, ${x.wall.toFixed(0)} ms wall`)));
      assert.deepEqual(w.errors, []);
      await page.close();
    }
  } finally {
    await fresh.close();
  }
});
