// Variants of the builtin data in the tab, against the perfect model (cmd/fakemodel --gold builtin,
// which knows variants 1 to 2 and 3 too): a robustness run of 2 variants on the Run page gives the
// robustness `apibank run --variants 2 --json` gives against the same server, each pass's
// predictions those of the CLI's pass files; a run on variant 3 exports the predictions `apibank
// run --seed 3` writes, byte for byte; the Runs page lists robustness runs and compares two side by
// side. Expected figures come from the CLI, never from constants (but for the ceiling the perfect
// model must reach).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, visit, cli, session, startFakeModel, set, fillRunForm, readRunStore, runProgress, runFinished, engineRequest, fits } from "../lib.mjs";

const KEY = "sk-e2e-variants";
const LEVEL = "level-1-given-desc";
const LIMIT = 20;
/** SLOW has the fake answer every request after 300 ms, with the text "slow". */
const SLOW = { rules: [{ match: {}, reply: { content: "slow" }, fault: { kind: "slow", delay_ms: 300 } }] };
const s = session();
let fake;
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-variants-"));

before(async () => {
  fake = await startFakeModel(null, ["--gold", "builtin", "--variants", "2", "--seed", "3"]);
});

after(async () => {
  if (fake) await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** cliRun runs `apibank run` against the fake with extra flags; returns the --out path and the JSON it prints. */
function cliRun(extra, limit = LIMIT) {
  const out = path.join(tmp, `cli-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`);
  process.env.FAKE_MODEL_KEY = KEY;
  const args = ["run", "--base-url", fake.url, "--model", "gold", "--api-key-env", "FAKE_MODEL_KEY", "--form", "text", "--out", out, "--json", "--concurrency", "8", "--level", LEVEL, "--limit", String(limit), ...extra];
  return { out, summary: JSON.parse(cli(args)) };
}

/** predLines is a predictions file's prediction lines (its level-3 episodes left out), one a line. */
function predLines(text) {
  return text.split("\n").filter((l) => l.includes('"pred"')).map((l) => l + "\n").join("");
}

/** startRobust fills the Run page for a robustness run of n variants, starts it and waits for its robustness table. */
async function startRobust(page, n, limit = LIMIT, model = "gold", form = "text") {
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model, form, levels: [LEVEL], limit, concurrency: 8 });
  await page.getByTestId("run-data").selectOption("loaded");
  await page.waitForSelector("[data-testid=run-seed]:disabled"); // the page has taken the choice
  await set(page, "run-variants", n);
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.group || el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  // One run goes on from the original to the rerun; the table shows when the last pass has ended.
  await page.waitForFunction((b) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && el.dataset.group !== b;
  }, before, { timeout: 120000, polling: 100 });
  const p = await runProgress(page);
  const shown = await page.$$eval(".error", (els) => els.map((e) => e.textContent).join(" | "));
  assert.equal(p.state, "done", `the robustness run ended ${p.state}: ${shown}`);
  await page.waitForSelector("[data-testid=robust-row][data-robustness]", { timeout: 10000 }).catch(async (err) => {
    const seen = await page.$$eval("[data-testid=robust-row]", (els) => els.map((e) => e.outerHTML.slice(0, 600)));
    const main = await page.$eval("main", (e) => e.innerText.slice(-2500)).catch(() => "");
    throw new Error(err.message + "\nrows: " + JSON.stringify(seen) + "\npage: " + main);
  });
  const group = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.group);
  const rows = await page.$$eval("[data-testid=robust-row][data-robustness]", (els) => els.map((el) => JSON.parse(el.dataset.robustness)));
  return { p, group, rows };
}

const groups = [];

test("a robustness run of 2 variants in the tab: the passes, the predictions and the robustness of apibank run --variants 2", async (t) => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: "longtask" });
  });
  const { p, group, rows } = await startRobust(page, 2);
  t.diagnostic("main-thread tasks over 50 ms during the run (ms): " + JSON.stringify(await page.evaluate(() => window.__long)));
  assert.equal(p.state, "done");
  assert.equal(p.failed, 0);
  groups.push(group);

  const c = cliRun(["--variants", "2"]);
  assert.deepEqual(rows, c.summary.robustness, "the tab's robustness per level is the CLI's, figure for figure");
  for (const rb of rows) {
    assert.ok(rb.tasks > 0, "tasks were judged");
    assert.deepEqual(rb.seeds, [1, 2]);
    for (const k of ["original", "mean", "min", "max", "every_variant", "rerun"]) assert.equal(rb[k], 1, `${rb.level}: the perfect model is at the ceiling (${k})`);
    assert.equal(rb.rerun_flips, 0);
    assert.equal(rb.variant_flips, 0);
  }

  // The passes, in the CLI's order, each with its seed, and each pass's predictions the CLI's file's.
  const passes = (await readRunStore(page)).runs.filter((r) => r.group === group).sort((a, b) => a.trial - b.trial);
  assert.deepEqual(passes.map((r) => [r.trial, r.seed || 0, r.status]), [[1, 0, "done"], [2, 1, "done"], [3, 2, "done"], [4, 0, "done"]]);
  assert.equal(passes[0].data_hash, passes[3].data_hash, "the original and its rerun saw the same data");
  assert.notEqual(passes[1].data_hash, passes[0].data_hash, "a variant's data hash is its own");
  const files = [c.out, c.out.replace(/\.jsonl$/, ".variant-1.jsonl"), c.out.replace(/\.jsonl$/, ".variant-2.jsonl"), c.out.replace(/\.jsonl$/, ".rerun.jsonl")];
  for (const [i, r] of passes.entries()) {
    assert.equal(r.predictions.map((x) => JSON.stringify(x) + "\n").join(""), predLines(readFileSync(files[i], "utf8")), `pass ${i + 1}'s predictions are the CLI's ${path.basename(files[i])}`);
  }
  assert.notEqual(predLines(readFileSync(files[1], "utf8")), predLines(readFileSync(files[0], "utf8")), "a variant asks other values (the check is not vacuous)");
  // The tab's engine holds the builtin data again.
  const hello = await engineRequest(page, { op: "hello" });
  assert.equal(hello.variant, undefined, "no variant is loaded after the run");
  assert.equal(hello.data, "builtin");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a run on variant 3 in the tab exports the predictions apibank run --seed 3 writes, byte for byte, and records its seed", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "gold", levels: [LEVEL], limit: LIMIT, concurrency: 8 });
  await set(page, "run-variants", 0);
  await page.getByTestId("run-data").selectOption("variant");
  await page.waitForSelector("[data-testid=run-seed]:enabled"); // enabled once the page has taken the choice
  await set(page, "run-seed", 3);
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  await page.waitForFunction((b) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && el.dataset.id !== b;
  }, before, { timeout: 120000, polling: 100 });
  const p = await runProgress(page);
  assert.equal(p.state, "done");
  assert.equal(p.failed, 0);
  const saved = (await readRunStore(page)).runs.find((r) => r.id === p.id);
  assert.equal(saved.seed, 3);
  assert.equal(saved.settings.seed, 3);
  assert.equal(saved.batch.report.overall.accuracy, 1, "the perfect model knows variant 3");

  await open(page, s.server.url, "/runs");
  await page.waitForSelector(`[data-testid=run-row][data-id="${p.id}"]`);
  await page.click(`[data-testid=run-row][data-id="${p.id}"] [data-testid=run-open]`);
  await page.waitForSelector("[data-testid=run-view]");
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-jsonl").click()]);
  const tabJSONL = readFileSync(await d.path(), "utf8");
  assert.match(d.suggestedFilename(), /\.seed-3\.jsonl$/, "the file is named for the variant its answers are to, as the Score page and apibank score read it");
  await page.waitForFunction(() => /score it with apibank score --seed 3 --preds /.test(document.querySelector(".note")?.textContent || ""));
  const c = cliRun(["--seed", "3"]);
  assert.equal(tabJSONL, readFileSync(c.out, "utf8"), "the tab's predictions are apibank run --seed 3's --out, byte for byte");
  assert.deepEqual(saved.batch.report, c.summary.report, "the same report");
  const record = JSON.parse(readFileSync(c.out.replace(/\.jsonl$/, ".run.json"), "utf8"));
  assert.equal(record.run.seed, 3);
  assert.equal(record.run.data_hash, saved.data_hash, "the tab and the CLI hash variant 3 alike");

  // The exported run re-scores on its variant when opened again.
  const [j] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-json").click()]);
  await page.getByTestId("runs-file").setInputFiles(await j.path());
  await page.waitForSelector("[data-testid=rescore-agreement]", { timeout: 60000 });
  const ag = await page.$eval("[data-testid=rescore-agreement]", (el) => [Number(el.dataset.agree), Number(el.dataset.compared)]);
  assert.ok(ag[1] > 0 && ag[0] === ag[1], `every verdict agrees on re-scoring on variant 3: ${ag}`);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("the Data menu is held while a run on a variant goes on, on every page: the run's remaining samples are asked on its variant", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fake.script(SLOW);
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "gold", levels: [LEVEL], limit: 6, concurrency: 1 });
  await set(page, "run-variants", 0);
  await page.getByTestId("run-data").selectOption("variant");
  await page.waitForSelector("[data-testid=run-seed]:enabled");
  await set(page, "run-seed", 4);
  await page.getByTestId("run-start").click();
  await page.waitForSelector("[data-testid=dataset-select]:disabled", { timeout: 10000 });
  assert.match(await page.getByTestId("dataset-held").textContent(), /a run on variant 4 of the builtin data goes on/);
  await visit(page, "/dataset");
  await page.waitForSelector("[data-testid=dataset-select]:disabled");
  assert.equal(await page.$eval("[data-testid=dataset-select]", (el) => el.selectedOptions[0].textContent), "builtin, variant 4", "a variant is named as one, not as an imported folder");
  // A change that reaches the menu all the same (its script, not a click) is refused, and said.
  await page.$eval("[data-testid=dataset-select]", (el) => {
    el.disabled = false;
    el.value = "builtin";
    el.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.waitForFunction(() => /Not changed: a run on variant 4/.test(document.querySelector(".data-switch")?.textContent || ""));
  assert.equal((await engineRequest(page, { op: "hello" })).variant?.seed, 4, "the engine still holds the run's variant");
  await visit(page, "/run");
  const p = await runFinished(page);
  assert.deepEqual([p.state, p.failed], ["done", 0]);
  const [saved] = (await readRunStore(page, p.id)).runs;
  assert.equal(saved.seed, 4);
  assert.equal(saved.predictions.length, 6, "every sample was asked");
  await page.waitForSelector("[data-testid=dataset-select]:enabled", { timeout: 10000 });
  assert.equal(await page.$eval("[data-testid=dataset-select]", (el) => el.value), "builtin", "the run gave the builtin data back");
  await fake.script({});
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a batch on variant 3 from the Run page is apibank batch prepare --seed 3's file, scores to the ceiling on its variant with its seed recorded, and leaves the builtin data loaded", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "gold", levels: [LEVEL], limit: 6 });
  await set(page, "run-variants", 0);
  await page.getByTestId("run-data").selectOption("variant");
  await page.waitForSelector("[data-testid=run-seed]:enabled");
  await set(page, "run-seed", 3);
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-batch-prepare").click()]);
  assert.match(d.suggestedFilename(), /^apibank-batch-builtin~s3-text-/, "the file is named for its data");
  const input = readFileSync(await d.path(), "utf8");
  const cliIn = path.join(tmp, `batch-s3-${Date.now()}.jsonl`);
  cli(["batch", "prepare", "--model", "gold", "--form", "text", "--level", LEVEL, "--limit", "6", "--seed", "3", "--out", cliIn]);
  assert.equal(input, readFileSync(cliIn, "utf8"), "the tab's batch input on variant 3 is apibank batch prepare --seed 3's, byte for byte");
  assert.match(await page.getByTestId("run-batch-prepared").textContent(), /on variant 3 of the builtin data/);
  assert.equal((await engineRequest(page, { op: "hello" })).variant, undefined, "the builtin data is back once the file is written");

  const outFile = path.join(tmp, `batch-s3-out-${Date.now()}.jsonl`);
  writeFileSync(outFile, await fake.batch(input));
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-batch-output").setInputFiles(outFile);
  await page.waitForSelector(`[data-testid=run-batch-loaded][data-output="${path.basename(outFile)}"]`);
  await page.getByTestId("run-batch-score").click();
  const p = await runFinished(page, before, 60000);
  assert.equal(p.state, "done", await page.$$eval(".error", (els) => els.map((e) => e.textContent).join(" | ")));
  const saved = (await readRunStore(page)).runs.find((r) => r.id === p.id);
  assert.equal(saved.source, "batch");
  assert.equal(saved.seed, 3);
  assert.equal(saved.batch.report.overall.accuracy, 1, "the perfect model's answers to variant 3, judged on variant 3");
  const cliScore = JSON.parse(cli(["batch", "score", "--input", cliIn, "--output", outFile, "--seed", "3", "--json"]));
  assert.deepEqual(saved.batch.report, cliScore.report, "the CLI scores the same file alike");
  const hello = await engineRequest(page, { op: "hello" });
  assert.deepEqual([hello.variant, hello.data], [undefined, "builtin"], "the builtin data is back once the batch is scored");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("the Runs page lists robustness runs and compares two side by side", async () => {
  assert.equal(groups.length, 1, "the robustness run above ran");
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  const second = await startRobust(page, 1, 6);
  groups.push(second.group);
  const c = cliRun(["--variants", "1"], 6);
  assert.deepEqual(second.rows, c.summary.robustness, "the second run's robustness is the CLI's too");

  await open(page, s.server.url, "/runs");
  await page.waitForSelector(`[data-testid=robust-row][data-group="${groups[0]}"][data-level]`);
  const listed = async (g) => page.$$eval(`[data-testid=robust-row][data-group="${g}"][data-level]`, (els) => els.map((el) => JSON.parse(el.dataset.robustness)));
  const a = await listed(groups[0]);
  const b = await listed(groups[1]);
  assert.equal(a.length, 1);
  assert.deepEqual(b, second.rows);
  // Compare the two originals (any pass of each names its robustness run).
  await page.getByTestId("compare-a").selectOption(groups[0]);
  await page.getByTestId("compare-b").selectOption(groups[1]);
  // The comparison of the pair picked, not the one the page opened with.
  await page.waitForFunction(([a, b]) => {
    const el = document.querySelector("[data-testid=compare]");
    return el && el.dataset.a === a && el.dataset.b === b && el.querySelector("[data-testid=compare-robust-row]");
  }, [groups[0], groups[1]], { timeout: 30000 });
  const rows = await page.$$eval("[data-testid=compare-robust-row]", (els) => els.map((el) => ({ level: el.dataset.level, a: JSON.parse(el.dataset.a), b: JSON.parse(el.dataset.b), text: el.textContent })));
  assert.deepEqual(rows.map((r) => r.level), [LEVEL]);
  assert.deepEqual(rows[0].a, a[0], "A's side is its robustness");
  assert.deepEqual(rows[0].b, b[0], "B's side is its robustness");
  assert.match(rows[0].text, /original 100\.0%.*variants 100\.0% ± 0\.0%.*right in every variant 100\.0%.*asking again 0\.0%, by a variant 0\.0%/s);
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, "/runs (two robustness runs compared)");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a request that fails in the original pass is left out and counted, as the CLI counts it; the Run page shows it under its pass and retries it on that pass's data", async () => {
  // The first request of this run (its model's name is its own) for the first dialogue's first
  // call fails (400, not retried): it is the original pass's, which runs first. In the native form
  // only that sample's last message is the user's request: the replies and the call after it end
  // on a tool's result, and are not call tasks or not this one.
  const MODEL = "gold-flaky";
  const FAIL_FIRST = { rules: [{ match: { model: MODEL, last: "dinner with Arjun's parents" }, fault: { kind: "status", status: 400, message: "planted failure", times: 1 } }] };
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fake.script(FAIL_FIRST);
  const { group, rows } = await startRobust(page, 1, 6, MODEL, "native");
  await fake.script(FAIL_FIRST);
  const c = cliRun(["--variants", "1", "--model", MODEL, "--form", "native"], 6);
  assert.deepEqual(rows, c.summary.robustness, "the tab's robustness is the CLI's, the failed task left out in both");
  assert.equal(rows[0].left_out, 1, "the task whose request failed in the original pass is counted as left out");
  await fake.script({});

  // The failure is shown under its pass, though the page ends on the rerun, and is retried there.
  const failures = page.locator("[data-testid=run-failures][data-pass='1']");
  await failures.waitFor();
  assert.match(await failures.textContent(), /original \(pass 1 of 3\): 1 requests failed/);
  await failures.getByTestId("run-retry").click();
  await page.waitForFunction((g) => {
    const el = document.querySelector(`[data-testid=robust-row][data-group="${g}"][data-robustness]`);
    return el && JSON.parse(el.dataset.robustness).left_out === 0 && !document.querySelector("[data-testid=run-failures]");
  }, group, { timeout: 60000, polling: 100 });
  const [after] = await page.$$eval(`[data-testid=robust-row][data-group="${group}"][data-robustness]`, (els) => els.map((el) => JSON.parse(el.dataset.robustness)));
  assert.equal(after.tasks, rows[0].tasks + 1, "the retried task is now judged in every pass");
  assert.equal(after.original, 1, "and the perfect model is right on it");
  const hello = await engineRequest(page, { op: "hello" });
  assert.equal(hello.variant, undefined, "the builtin data is back after the retry");

  // The Runs page's link opens the Run page on a run with failures, to retry them there.
  await fake.script(FAIL_FIRST);
  const one = await startRobust(page, 1, 3, MODEL, "native");
  await fake.script({});
  await open(page, s.server.url, "/runs");
  const first = (await readRunStore(page)).runs.find((r) => r.group === one.group && r.trial === 1);
  assert.equal(first.failures.length, 1);
  await open(page, s.server.url, "/run?run=" + encodeURIComponent(first.id));
  await page.locator("[data-testid=run-failures][data-pass='1']").waitFor();
  assert.deepEqual(w.errors.filter((e) => !e.includes("400")), []);
  await page.close();
});

test("the Run page's number fields refuse what they cannot read, and say so, instead of taking another number", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "gold", levels: [LEVEL], limit: 3 });
  await page.getByTestId("run-data").selectOption("variant");
  await set(page, "run-seed", 7);
  for (const [testid, typed, says] of [["run-seed", "1.5", /Seed must be a whole number from 1 to 9007199254740991, not 1\.5/], ["run-seed", "0", /not 0/], ["run-variants", "-3", /Variants must be a whole number from 0 to 20, not -3/], ["run-variants", "25", /not 25/], ["run-trials", "2.5", /Trials must be a whole number from 1 to 100, not 2\.5/]]) {
    await set(page, testid, typed);
    await page.getByTestId("run-field-error").waitFor();
    assert.match(await page.getByTestId("run-field-error").textContent(), says);
    assert.equal(await page.getByTestId(testid).inputValue(), typed, "the field keeps what was typed");
    await page.getByTestId("run-start").click();
    await page.waitForFunction(() => document.querySelector("main").innerText.includes("must be"));
    assert.equal(await page.$eval("[data-testid=run-progress]", () => true).catch(() => false), false, "no run started");
    await set(page, testid, testid === "run-seed" ? 7 : 1); // put right
    await page.waitForFunction(() => !document.querySelector("[data-testid=run-field-error]"));
  }
  await page.reload();
  await open(page, s.server.url, "/run");
  assert.equal(await page.getByTestId("run-seed").inputValue(), "7", "the seed kept is the last good one");
  assert.deepEqual(w.errors, []);
  await page.close();
});

/** waitPass waits until the Run page shows pass `pass` of a robustness run with at least `done` samples done, and returns its group. */
async function waitPass(page, pass, done) {
  await page.waitForFunction(([p, d]) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state === "running" && Number(el.dataset.pass) === p && Number(el.dataset.done) >= d;
  }, [pass, done], { timeout: 60000, polling: 50 });
  return page.$eval("[data-testid=run-progress]", (el) => el.dataset.group);
}


test("a reload in the middle of a variant's pass resumes it on its variant and goes on with the rest; Cancel stops a robustness run, which counts the passes that ran", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  await fake.script(SLOW);
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "gold", levels: [LEVEL], limit: 8, concurrency: 2 });
  await page.getByTestId("run-data").selectOption("loaded");
  await page.waitForSelector("[data-testid=run-seed]:disabled");
  await set(page, "run-variants", 1);
  await page.getByTestId("run-start").click();
  const group = await waitPass(page, 2, 2);
  await page.reload();
  await open(page, s.server.url, "/run");
  await page.waitForSelector("[data-testid=run-resume]");
  await fake.script({});
  await page.getByTestId("run-resume").click();
  await page.waitForFunction((g) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && el.dataset.group === g && document.querySelector(`[data-testid=robust-row][data-group="${g}"][data-robustness]`);
  }, group, { timeout: 120000, polling: 100 });
  const [rb0] = await page.$$eval(`[data-testid=robust-row][data-group="${group}"][data-robustness]`, (els) => els.map((el) => JSON.parse(el.dataset.robustness)));
  const passes = (await readRunStore(page)).runs.filter((r) => r.group === group).sort((a, b) => a.trial - b.trial);
  assert.deepEqual(passes.map((r) => [r.trial, r.seed || 0, r.status, r.predictions.length]), [[1, 0, "done", 8], [2, 1, "done", 8], [3, 0, "done", 8]]);
  // The slow answers came before the reload (kept, not asked again); the others after it, on the
  // variant: each is the perfect model's answer on variant 1, as `apibank run --seed 1` has it.
  const c = cliRun(["--seed", "1"], 8);
  const gold = new Map(readFileSync(c.out, "utf8").split("\n").filter((l) => l.includes('"pred"')).map((l) => JSON.parse(l)).map((x) => [`${x.file}#${x.id}`, x.pred]));
  const kept = passes[1].predictions.filter((x) => x.pred === "slow").length;
  assert.ok(kept >= 2 && kept < 8, `${kept} answers kept from before the reload`);
  for (const x of passes[1].predictions) {
    if (x.pred !== "slow") assert.equal(x.pred, gold.get(`${x.file}#${x.id}`), `${x.file}#${x.id} was asked on variant 1 after the resume`);
  }
  const calls = (r) => r.batch.results.filter((v) => v.kind === "call");
  const acc = (r) => calls(r).filter((v) => v.correct).length / calls(r).length;
  assert.deepEqual(rb0.seeds, [1]);
  assert.equal(rb0.original, acc(passes[0]));
  assert.deepEqual(rb0.variants, [acc(passes[1])]);
  assert.equal(rb0.rerun, 1, "the rerun, after the resume, is the perfect model's");
  assert.equal(rb0.tasks, calls(passes[2]).length);

  // Cancel in the first variant's pass: the original and what the variant judged are counted, no rerun.
  await fake.script(SLOW);
  await page.getByTestId("run-start").click();
  const cut = await waitPass(page, 2, 2);
  assert.notEqual(cut, group);
  await page.getByTestId("run-cancel").click();
  await page.waitForFunction((g) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state === "cancelled" && document.querySelector(`[data-testid=robust-row][data-group="${g}"][data-robustness]`);
  }, cut, { timeout: 30000, polling: 100 });
  const cutPasses = (await readRunStore(page)).runs.filter((r) => r.group === cut).sort((a, b) => a.trial - b.trial);
  assert.deepEqual(cutPasses.map((r) => [r.trial, r.status]), [[1, "done"], [2, "cancelled"]]);
  const [rb] = await page.$$eval(`[data-testid=robust-row][data-group="${cut}"][data-robustness]`, (els) => els.map((el) => JSON.parse(el.dataset.robustness)));
  const judged = cutPasses[1].batch.results.filter((v) => v.kind === "call").length;
  assert.deepEqual(rb.seeds, [1], "the cancelled variant is counted with what it judged");
  assert.equal(rb.tasks, judged);
  assert.equal(rb.tasks + rb.left_out, cutPasses[0].batch.results.filter((v) => v.kind === "call").length);
  assert.equal(rb.rerun, null, "no rerun ran: no number stands for it");
  assert.equal(rb.rerun_flips, null);
  assert.match(await page.$eval("[data-testid=robustness]", (el) => el.textContent), /2 of 3 passes \(only the passes that ended are counted\)/);
  const hello = await engineRequest(page, { op: "hello" });
  assert.equal(hello.variant, undefined, "the builtin data is back after the cancel");
  await fake.script({});
  assert.deepEqual(w.errors, []);
  await page.close();
});
