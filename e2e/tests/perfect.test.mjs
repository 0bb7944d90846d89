// The perfect model in the tab: cmd/fakemodel --gold answers every request a run makes with its
// sample's gold, as the engine shows it (a few rate limits and a server error on the way). A run of
// every level from the tab must reach the data's ceiling exactly — every call right, ROUGE-L 1, every
// special case right, every level-3 episode a success with milestone credit 1 — and give the predictions and the
// report `apibank run` gives, byte for byte. The expected numbers are the engine's own ceiling. (The
// tab runs the first 60 samples of levels 1 and 2 and every scene; the CLI's Go test runs the whole data
// in both forms, plain and streamed.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, cli, session, startFakeModel, fillRunForm, savedRun } from "../lib.mjs";

const s = session();
let fake;
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-perfect-"));
const ALL = ["level-1-given-desc", "level-2-toolsearcher", "level-3"];
/** LIMIT samples of levels 1 and 2 a run: more than the scenes, so every scene is played. */
const LIMIT = 60;

/** A few failures on the way: the run retries them, and the oracle answers after. */
const flaky = {
  rules: [
    { match: { role: "tool" }, fault: { kind: "server_error", times: 1 } },
    { fault: { kind: "rate_limit", times: 2, retry_after: "0" } },
  ],
};

before(async () => {
  fake = await startFakeModel(flaky, ["--gold", "builtin"]);
});

after(async () => {
  if (fake) await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** checkCeiling fails unless a report and episodes are the data's ceiling exactly. */
function checkCeiling(report, episodes, name) {
  const ceiling = Object.fromEntries(report.ceiling.map((c) => [c.level, c]));
  let levels = 0;
  for (const l of report.levels) {
    if (l.calls === 0) continue;
    levels++;
    const c = ceiling[l.name];
    assert.ok(c, `${name} ${l.name}: no ceiling`);
    // The ceiling counts gold calls and lists the samples its replay rejects: the perfect model misses exactly those.
    assert.equal(l.calls - l.correct, (c.rejected || []).length, `${name} ${l.name}: ${l.correct} of ${l.calls} right`);
    if (l.replies > 0) assert.equal(l.rouge_l, 1, `${name} ${l.name}: ROUGE-L`);
    assert.equal(l.special_correct || 0, l.special || 0, `${name} ${l.name}: special cases`);
  }
  assert.equal(levels, 2, `${name}: levels 1 and 2 judged`);
  assert.ok(report.overall.special > 0, `${name}: special cases judged`);
  assert.ok(episodes.length >= 50, `${name}: every scene played`);
  for (const ep of episodes) {
    assert.ok(ep.outcome && ep.outcome.success && ep.outcome.milestone === 1 && ep.outcome.answer_met, `${name} ${ep.file}: ${JSON.stringify(ep.outcome)}`);
  }
}

for (const { form, stream } of [{ form: "text", stream: false }, { form: "native", stream: true }]) {
  test(`the perfect model reaches the ceiling in the tab, ${form} form${stream ? ", streamed" : ""}, as apibank run does`, async () => {
    const page = await s.browser.context.newPage();
    const w = watch(page);
    await open(page, s.server.url, "/run");
    await fillRunForm(page, { baseURL: fake.url, key: "sk-perfect", model: "perfect", form, levels: ALL, limit: LIMIT, concurrency: 8, stream, retries: 3 });
    const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
    await page.getByTestId("run-start").click();
    await page.waitForFunction((b) => {
      const el = document.querySelector("[data-testid=run-progress]");
      return el && el.dataset.state !== "running" && el.dataset.id !== b;
    }, before, { timeout: 300000, polling: 250 });
    const p = await page.$eval("[data-testid=run-progress]", (el) => ({ state: el.dataset.state, failed: Number(el.dataset.failed), id: el.dataset.id }));
    assert.equal(p.state, "done");
    assert.equal(p.failed, 0);
    const run = await savedRun(page, p.id);
    checkCeiling(run.batch.report, run.episodes, "tab " + form);

    const out = path.join(tmp, `cli-${form}.jsonl`);
    const args = ["run", "--base-url", fake.url, "--model", "perfect", "--form", form, "--out", out, "--json", "--concurrency", "8", "--limit", String(LIMIT)];
    for (const l of ALL) args.push("--level", l);
    if (stream) args.push("--stream");
    const summary = JSON.parse(cli(args));
    checkCeiling(summary.report, summary.episodes, "cli " + form);
    assert.deepEqual(run.batch.report, summary.report, "the tab's report is the CLI's");

    await open(page, s.server.url, "/runs");
    await page.waitForSelector(`[data-testid=run-row][data-id="${p.id}"]`);
    await page.click(`[data-testid=run-row][data-id="${p.id}"] [data-testid=run-open]`);
    await page.waitForSelector("[data-testid=run-view]");
    const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-jsonl").click()]);
    assert.equal(readFileSync(await d.path(), "utf8"), readFileSync(out, "utf8"), "the tab's predictions are the CLI's, byte for byte");
    assert.deepEqual(w.errors.filter((e) => !/status of (429|500)/.test(e)), [], "no error but the scripted 429s and 500s");
    await page.close();
  });
}

test("the perfect model's adversarial twin: every sample gets a verdict or a listed failure, the run ends, the engine lives", async () => {
  const bad = await startFakeModel(null, ["--gold", "builtin", "--adversarial"]);
  try {
    const page = await s.browser.context.newPage();
    const w = watch(page);
    await open(page, s.server.url, "/run");
    await fillRunForm(page, { baseURL: bad.url, key: "sk-bad", model: "bad", form: "native", levels: ALL, limit: 14, concurrency: 8, stream: true });
    const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
    await page.getByTestId("run-start").click();
    await page.waitForFunction((b) => {
      const el = document.querySelector("[data-testid=run-progress]");
      return el && el.dataset.state !== "running" && el.dataset.id !== b;
    }, before, { timeout: 300000, polling: 250 });
    const p = await page.$eval("[data-testid=run-progress]", (el) => ({ state: el.dataset.state, done: Number(el.dataset.done), total: Number(el.dataset.total), failed: Number(el.dataset.failed), id: el.dataset.id }));
    assert.equal(p.state, "done");
    assert.equal(p.done, p.total, "every task finished");
    const run = await savedRun(page, p.id);
    const judged = run.batch ? run.batch.results.length : 0;
    assert.equal(judged + (run.failures || []).filter((f) => f.level !== "level-3").length + run.episodes.length, p.total, "each sample judged or listed as failed; each scene played");
    assert.ok(run.batch.report.overall.correct < run.batch.report.overall.calls, "a bad model is not right everywhere");
    const served = new Set((await bad.requests()).map((r) => r.generated));
    for (const b of ["garbage", "nothing", "invalid-json", "both", "calls-in-content", "endless", "huge"]) assert.ok(served.has(b), `behaviour ${b} served`);
    // The engine lives: the sandbox still answers.
    await open(page, s.server.url, "/sandbox");
    await page.getByTestId("sandbox-input").fill("[GetToday()]");
    await page.getByTestId("sandbox-run").click();
    await page.waitForFunction(() => /\d{4}-\d{2}-\d{2}/.test(document.querySelector("[data-testid=sandbox-output]")?.textContent || ""), null, { timeout: 30000 });
    assert.deepEqual(w.errors.filter((e) => !/status of|Failed to load|net::ERR/.test(e)), []);
    await page.close();
  } finally {
    await bad.stop();
  }
});
