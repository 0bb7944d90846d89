// Bulk scoring in the tab (issue 9): a 20 MB paste scored in chunks in the worker with a progress
// bar, the main thread free (no task over 100 ms), verdict rows rendered virtually, twice in a row
// within 15 s and 1 GB; a worker that stops answering restarted with the tab's state; the idle
// warm-up; CSV cells neutralised. Expected numbers come from the CLI on the same file.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import path from "node:path";
import { watch, open, engineRequest, fullDialogues, processesBelow, cmdline, goldPredictions, jsonl, cli, pasteAndScore, session, traceTasks } from "../lib.mjs";

// Peak memory of the tab: the renderer processes' resident memory (the page, its worker and both
// WebAssembly modules run there).

const s = session({ warmUps: true }); // scores measured as a user meets them: after the idle warm-up
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-bulk-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function newPage(p) {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/");
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await open(page, s.server.url, p);
  return { page, w };
}

async function builtinGold(page) {
  return goldPredictions(await fullDialogues(page, await engineRequest(page, { op: "dialogues" })));
}

/**
 * rendererRSS reads the resident memory of this test's Chromium renderer processes (descendants of
 * this process with --type=renderer; other Chromiums on the machine are not counted), in bytes:
 * {tab: the largest one, which hosts the page and its dedicated worker (both WebAssembly modules
 * run there), all: their sum, which adds the browser's own renderers (its UI's, the context's
 * first blank page, a spare one; about 350 MB together)}.
 */
function rendererRSS() {
  let total = 0;
  let largest = 0;
  for (const pid of processesBelow([process.pid])) {
    if (!cmdline(pid).includes("--type=renderer")) continue;
    try {
      const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
      if (m) {
        total += Number(m[1]) * 1024;
        largest = Math.max(largest, Number(m[1]) * 1024);
      }
    } catch (err) {
      // the process ended meanwhile
    }
  }
  return { tab: largest, all: total };
}

// Issue 9's budget for a 20 MB paste, as a user meets it: the paste goes into the box (the first
// time as an input event, the second as a paste event), the Score button is clicked, and the page
// must show the numbers and the first rows within 15 s with no main-thread task over 100 ms from the
// click to the rows, twice in a row, the renderer processes under 1 GB all along.
test("a 20 MB paste is scored in chunks with a progress bar, rows rendered virtually, twice, within 15 s and 1 GB, no main-thread task over 100 ms", async () => {
  const { page, w } = await newPage("/score");
  const gold = await builtinGold(page);
  // Every builtin gold line, some spoiled, cycled until the text is 20 MB.
  const one = gold.map((l, i) => (i % 5 === 4 ? { ...l, pred: "no call, sorry" } : l));
  const block = jsonl(one);
  const text = block.repeat(Math.ceil((20 << 20) / block.length));
  const lines = text.split("\n").length - 1;
  const file = path.join(tmp, "big.jsonl");
  writeFileSync(file, text);
  const outFile = path.join(tmp, "big-verdicts.jsonl");
  const want = JSON.parse(cli(["score", "--preds", file, "--json", "--out", outFile]));
  // The CLI's verdict lines and line errors for the same file (a gold line the engine refuses, such
  // as a sample the builtin data numbers differently, is a line error in both).
  const outLines = readFileSync(outFile, "utf8").split("\n").filter((l) => l !== "");
  const wantErrors = outLines.filter((l) => l.startsWith('{"error":')).length;
  const wantVerdicts = outLines.length - wantErrors;
  assert.equal(outLines.length, lines, "the CLI wrote one line per prediction line");
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(e.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  await page.waitForFunction(() => window.apibankEngine.status().warm, null, { timeout: 60000 });
  const warmMemory = await page.evaluate(() => window.apibankEngine.status().engineMemory);
  let peak = 0;
  let peakAll = 0;
  const base = rendererRSS();
  const sampler = setInterval(() => {
    const m = rendererRSS();
    peak = Math.max(peak, m.tab);
    peakAll = Math.max(peakAll, m.all);
  }, 200);
  try {
    for (let run = 1; run <= 2; run++) {
      // The scoring is measured from the click, once the page has been quiet for a second.
      // The first time the text lands in the box and an input event follows (a paste the page did
      // not see as one, a drop of text); the second time as a paste event with the text on the
      // clipboard. Either way the page takes the text out of the box (a textarea holding 20 MB
      // costs every layout, paint and hit test on the page) and says it holds it.
      await page.$eval("[data-testid=bulk-predictions]", (el, [t, asPaste]) => {
        el.focus();
        if (asPaste) {
          const data = new DataTransfer();
          data.setData("text/plain", t);
          el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
        } else {
          el.value = t;
          el.dispatchEvent(new Event("input", { bubbles: true }));
        }
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }, [text, run === 2]);
      await page.waitForSelector(`[data-testid=bulk-held][data-size="${text.length}"]`, { timeout: 10000 });
      assert.equal(await page.$eval("[data-testid=bulk-predictions]", (el) => el.value.length), 0, "the 20 MB are not kept in the box");
      await page.evaluate(async () => {
        const t0 = performance.now();
        for (;;) {
          const n = window.__long.length;
          await new Promise((r) => setTimeout(r, 1000));
          if (window.__long.length === n || performance.now() - t0 > 30000) return;
        }
      });
      // Read at once: a locator would wait its whole timeout for the verdicts the first run has not shown.
      const before = await page.evaluate(() => Number((document.querySelector("[data-testid=verdicts]") || { dataset: {} }).dataset.run || 0));
      await page.evaluate(() => (window.__long = []));
      const stop = await traceTasks(page);
      const t0 = Date.now();
      const progress = page.waitForFunction(() => {
        const p = document.querySelector("[data-testid=score-progress]");
        return p && p.value > 0 && p.value < p.max;
      }, null, { polling: 20, timeout: 30000 });
      await page.getByTestId("score-button").click();
      await page.waitForFunction((n) => Number((document.querySelector("[data-testid=verdicts]") || { dataset: {} }).dataset.run || 0) > n, before, { timeout: 120000 });
      const ms = Date.now() - t0;
      await progress; // the bar moved while the chunks came back
      const long = await page.evaluate(() => window.__long); // read before the trace ends: its flush is a task of its own
      const tasks = await stop();
      const byCPU = tasks.reduce((a, b) => (b.cpu > a.cpu ? b : a), { cpu: 0, wall: 0, at: 0 });
      const engineMemory = await page.evaluate(() => window.apibankEngine.status().engineMemory);
      console.log(`run ${run}: ${lines} lines (${(text.length / 1e6).toFixed(1)} MB) scored and shown in ${ms} ms; longest main-thread task ${Math.max(0, ...long).toFixed(0)} ms; traced: ${tasks.length} tasks, the most CPU ${byCPU.cpu.toFixed(1)} ms (wall ${byCPU.wall.toFixed(0)} ms); load average ${loadavg()[0].toFixed(2)}; tab's renderer peak ${(peak / 1e6).toFixed(0)} MB (${(base.tab / 1e6).toFixed(0)} MB before; all renderers ${(peakAll / 1e6).toFixed(0)} MB, ${(base.all / 1e6).toFixed(0)} MB before); engine linear memory ${(engineMemory / 1e6).toFixed(0)} MB (${(warmMemory / 1e6).toFixed(0)} MB after the warm-up)`);
      assert.ok(ms <= 15000, `scored and shown in ${ms} ms (budget 15 s)`);
      // The budget is asserted on each task's CPU time, from the trace: on the shared 2-core test
      // machine a task's wall time also holds the time its thread waited for a core (the same rule
      // as the run test's; RATIONALE "Bulk scoring in the tab"). Wall times are reported above.
      assert.ok(tasks.length > 10, `the trace holds the scoring's tasks (${tasks.length})`);
      assert.ok(byCPU.cpu <= 100, "main-thread tasks over 100 ms of CPU: " +
        JSON.stringify(tasks.filter((x) => x.cpu > 100).map((x) => `+${x.at.toFixed(0)}: ${x.cpu.toFixed(1)} ms CPU, ${x.wall.toFixed(0)} ms wall`)));
      assert.equal(await page.getByTestId("accuracy").textContent(), (want.overall.accuracy * 100).toFixed(1) + "%", "the tab and the CLI agree");
      assert.equal(await page.getByTestId("rouge-l").textContent(), want.overall.rouge_l.toFixed(4));
      const total = Number(await page.getByTestId("verdict-scroll").getAttribute("data-total"));
      assert.equal(total, wantVerdicts, "one verdict per line the CLI judged");
      assert.match(await page.getByTestId("batch-counts").textContent(), new RegExp(`${wantVerdicts} lines scored, ${wantErrors} not`), "and one line error per line it refused");
      const inDOM = await page.$$eval("[data-testid=verdict-row]", (rs) => rs.length);
      assert.ok(inDOM > 0 && inDOM <= 100, `${inDOM} verdict rows in the DOM for ${total} verdicts`);
      // Scrolling to the middle renders the rows there.
      await page.$eval("[data-testid=verdict-scroll]", (el) => (el.scrollTop = el.scrollHeight / 2));
      await page.waitForFunction((n) => [...document.querySelectorAll("[data-testid=verdict-row]")].some((r) => Math.abs(Number(r.dataset.line) - n / 2) < 200), lines, { timeout: 5000 });
      assert.ok((await page.$$("[data-testid=verdict-row]")).length <= 100);
    }
  } finally {
    clearInterval(sampler);
  }
  assert.ok(peak < 1 << 30, `the tab's renderer peaked at ${(peak / 1e6).toFixed(0)} MB (budget 1 GB)`);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a worker that stops answering is detected and restarted with the tab's state", async () => {
  const { page, w } = await newPage("/sandbox");
  const accounts = await engineRequest(page, { op: "world", databases: ["Account"] });
  const [user, acct] = Object.entries(accounts.databases.Account)[0];
  const login = await engineRequest(page, { op: "call", call: `[GetUserToken(username='${user}', password='${acct.password}')]` });
  const token = JSON.parse(JSON.stringify(login.result)).output.token;
  const when = "2035-01-02 03:04:05";
  await engineRequest(page, { op: "call", call: `[AddAlarm(token='${token}', time='${when}')]` });
  // Idle: the heartbeat finds the worker gone.
  await page.evaluate(() => window.apibankEngine.configure({ heartbeatMs: 500, timeoutMs: 2000 }));
  await page.evaluate(() => window.apibankEngine.hang());
  await page.waitForFunction(() => window.apibankEngine.status().restarts === 1 && window.apibankEngine.status().state === "ready", null, { timeout: 10000 });
  let world = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.ok(JSON.stringify(world.databases.Alarm).includes(when), "the sandbox history was replayed");
  assert.equal(world.history.length, 2);
  // Busy: a request sent to a worker that has gone quiet is answered (restarted) within the timeout.
  const t0 = Date.now();
  const r = await page.evaluate(async () => {
    window.apibankEngine.hang();
    return window.apibankEngine.request(JSON.stringify({ v: 1, op: "stats" }));
  });
  assert.ok(Date.now() - t0 < 8000, "the hung request was answered in " + (Date.now() - t0) + " ms");
  assert.ok(r.ok || r.restarted, "answered, or refused as restarted: " + JSON.stringify(r).slice(0, 200));
  await page.waitForFunction(() => window.apibankEngine.status().restarts === 2 && window.apibankEngine.status().state === "ready", null, { timeout: 10000 });
  world = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.equal(world.history.length, 2, "the state survived a second restart");
  assert.match(await page.getByTestId("engine-status").textContent(), /restarted 2/);
  assert.deepEqual(w.errors, []);
  await page.close();
});

// The first score of a tab should not pay for what idle time can do beforehand (the worker's warm-up,
// the bulk path's warm-up run). Each score's cost is the CPU time the engine's worker thread ran for
// it, read from a Chromium trace: its wall time on this shared 2-core machine also holds the time the
// thread waited for a core (a 79 ms score has lasted 255 ms), so wall times are reported, and the
// ratio is asserted on CPU time.
test("the engine warms up in idle time: the first score costs at most twice a later one", async () => {
  const { page, w } = await newPage("/score");
  const text = jsonl(await builtinGold(page));
  // The tab's idle work: the worker's warm-up, the Score page's warm-up run of its bulk path, and the
  // variant the worker makes once the page pauses (else it may run inside a measured score).
  await page.waitForFunction(() => {
    const s = window.apibankEngine.status();
    return s.warm && s.bulkWarm && s.variantWarm;
  }, null, { timeout: 30000 });
  const walls = [];
  const cpus = [];
  for (let i = 0; i < 6; i++) {
    const stop = await traceTasks(page, "worker");
    const r = await page.evaluate((t) => window.apibankEngine.bulk({ text: t }), text);
    const tasks = await stop();
    assert.ok(r.ok, r.error);
    assert.ok(tasks.length > 0, "the trace holds the worker's tasks");
    walls.push(r.ms);
    cpus.push(tasks.reduce((sum, t) => sum + t.cpu, 0));
  }
  // A later score is their median: one score's CPU time moves by a third either way on this shared
  // machine, and the best of several (the old yardstick) sat at the low end of that noise, so an
  // ordinary first score could read as over twice it.
  const later = [...cpus.slice(1)].sort((a, b) => a - b)[2];
  const ms = (xs) => xs.map((t) => t.toFixed(0)).join(", ");
  console.log(`first score ${cpus[0].toFixed(0)} ms of the worker's CPU, later ${ms(cpus.slice(1))} ms (median ${later.toFixed(0)}); wall ${ms(walls)} ms (warm-up ${(await page.evaluate(() => window.apibankEngine.status().warmMs)).toFixed(0)} ms)`);
  assert.ok(cpus[0] <= 2 * later, `first ${cpus[0].toFixed(0)} ms of CPU, a later one (median of 5) ${later.toFixed(0)} ms`);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("CSV export neutralises cells a spreadsheet would run as formulas", async () => {
  const { page, w } = await newPage("/score");
  const gold = (await builtinGold(page)).filter((l) => l.id % 2 === 0).slice(0, 3);
  const evil = ['=HYPERLINK("http://x","y")', "+1+2", "-3", "@SUM(A1)"];
  const lines = evil.map((name, i) => ({ ...gold[i % gold.length], pred: JSON.stringify({ name, arguments: {} }) }));
  await pasteAndScore(page, jsonl(lines));
  await open(page, s.server.url, "/results");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  const csv = readFileSync(await download.path(), "utf8");
  for (const name of evil) {
    const quoted = "'" + name;
    assert.ok(csv.includes(quoted.includes('"') || quoted.includes(",") ? '"' + quoted.replace(/"/g, '""') + '"' : quoted), `the CSV writes ${name} as text:\n${csv}`);
  }
  for (const row of csv.trim().split("\n").slice(1)) {
    for (const cell of row.split(",")) assert.ok(!/^[=+\-@]/.test(cell), "a live formula cell: " + cell);
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});
