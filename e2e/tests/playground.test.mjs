// The playground in a real Chromium: every test drives the pages as a user does, through the
// data-testid hooks, against cmd/server on a free port. Expected numbers come from the project's CLI
// (the same engine bytes under wazero) or from the dataset files themselves, never from constants.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, mkdirSync, writeFileSync, cpSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  pagesLoad, root, shared, watch, open, ready, engineRequest, fullDialogues, goldPredictions, goldText, jsonl, cli, pasteAndScore, verdicts, session, offlineReady,
} from "../lib.mjs";

const s = session();
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-"));

after(async () => {
  rmSync(tmp, { recursive: true, force: true });
});

/** newPage opens a fresh tab on path, its errors watched, with this origin's saved data cleared. */
async function newPage(p = "/") {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/");
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  if (p !== "/") await open(page, s.server.url, p);
  return { page, w };
}

/** dialoguesOf fetches the loaded dialogues of a level (all with "") with their turns, in the tab. */
async function dialoguesOf(page, level) {
  return fullDialogues(page, await engineRequest(page, { op: "dialogues", level }));
}

function write(name, text) {
  const f = path.join(tmp, name);
  writeFileSync(f, text);
  return f;
}

/** cliResults scores a prediction file with the CLI: per-line results and the report. */
function cliResults(predsFile, extra = []) {
  const out = path.join(tmp, path.basename(predsFile) + ".out");
  const report = JSON.parse(cli(["score", "--preds", predsFile, "--out", out, "--json", ...extra]));
  const lines = require_lines(out);
  return { report, lines };
}

function require_lines(file) {
  return readText(file).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function readText(file) {
  return readFileSync(file, "utf8");
}

/** verdictFacts keeps what a verdict says, in a shape both the CLI's and the tab's JSON give. */
function verdictFacts(r) {
  return { line: r.line, level: r.level, file: r.file, id: r.id, kind: r.kind, category: r.category || "", correct: !!r.correct,
    tool: r.tool || "", called: r.called || "", form: r.form || "", rouge_l: r.rouge_l ?? null, result: r.result ?? null };
}

/** reportFacts keeps a report's numbers. */
function reportFacts(r) {
  const tally = (t) => ({ name: t.name || "", calls: t.calls, correct: t.correct, accuracy: t.accuracy, replies: t.replies, rouge_l: t.rouge_l,
    special: t.special || 0, special_correct: t.special_correct || 0 });
  return { state: r.state, data: r.data, overall: tally(r.overall), levels: r.levels.map(tally), categories: r.categories, tools: r.tools.map(tally),
    forms: r.forms, ceiling: r.ceiling.map((c) => ({ level: c.level, form: c.form, total: c.total, accepted: c.accepted })) };
}

/** savedBatch reads the results the tab saved for a dataset (the engine's whole answer). */
async function savedBatch(page, data) {
  const raw = await page.evaluate((k) => localStorage.getItem(k), "apibank.results/" + data);
  assert.ok(raw, "the tab saved no results for " + data);
  return JSON.parse(raw);
}

test("every page loads with no console errors", async () => {
  const { page, w } = await newPage();
  const paths = ["/", "/dataset", "/sample", "/score", "/results", "/sandbox", "/classroom", "/import"];
  await pagesLoad(page, s.server.url, paths);
  assert.deepEqual(w.errors, [], "console errors:\n" + w.errors.join("\n"));
  await page.close();
});

test("pasting the gold predictions of builtin level 1 shows 100.0%", async () => {
  const { page, w } = await newPage("/score");
  const dls = await dialoguesOf(page, "level-1-given-desc");
  assert.ok(dls.length > 0, "the builtin data has level-1 dialogues");
  const lines = goldPredictions(dls);
  const file = write("gold-l1.jsonl", jsonl(lines));
  await pasteAndScore(page, readText(file));
  const rows = await verdicts(page);
  assert.equal(rows.length, lines.length, "one verdict row per prediction line");
  const acc = await page.getByTestId("accuracy").textContent();
  const cliReport = cliResults(file).report;
  const cliAcc = (cliReport.overall.accuracy * 100).toFixed(1) + "%";
  assert.equal(acc, cliAcc, "the tab and the CLI agree on the gold accuracy");
  assert.equal(await page.getByTestId("rouge-l").textContent(), cliReport.overall.rouge_l.toFixed(4));
  const bad = rows.filter(([, c]) => c !== "CORRECT" && c !== "REPLY").map(([l]) => lines[l - 1].file + "#" + lines[l - 1].id);
  assert.equal(acc, "100.0%", `the builtin level-1 gold calls must all be accepted; ${bad.length} are not (${bad.slice(0, 8).join(", ")}…)`);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("predictions asked on a variant are judged on it: a file named for the variant chooses it, the CLI agrees, and the tab's data is the builtin data again after", async () => {
  const { page, w } = await newPage("/score");
  // Variant 7's own gold: what a model that answers every request of variant 7 right writes.
  await engineRequest(page, { op: "load", builtin: true, seed: 7 });
  const lines = goldPredictions(await dialoguesOf(page, "level-1-given-desc"));
  await engineRequest(page, { op: "load", builtin: true });
  const builtin = goldPredictions(await dialoguesOf(page, "level-1-given-desc"));
  const values = (l) => Object.values(l.turn.param_dict).map(String);
  const k = lines.findIndex((l, i) => l.turn && values(l).some((v) => !values(builtin[i]).includes(v)));
  const moved = values(lines[k]).find((v) => !values(builtin[k]).includes(v));
  const file = write("gpt-x-1a2b.seed-7.jsonl", jsonl(lines));
  const scored = async () => {
    const runs = () => page.evaluate(() => Number((document.querySelector("[data-testid=verdicts]") || { dataset: {} }).dataset.run || 0));
    const before = await runs();
    await page.getByTestId("score-button").click();
    await page.waitForFunction((n) => Number((document.querySelector("[data-testid=verdicts]") || { dataset: {} }).dataset.run || 0) > n, before, { timeout: 60000 });
    return page.getByTestId("accuracy").textContent();
  };

  await page.getByTestId("predictions-file").setInputFiles(file);
  await page.waitForFunction(() => (document.querySelector("[data-testid=score-seed]") || {}).value === "7");
  assert.equal(await page.getByTestId("score-data-select").inputValue(), "variant");
  const acc = await scored();
  const cliAcc = (cliResults(file, ["--seed", "7"]).report.overall.accuracy * 100).toFixed(1) + "%";
  assert.equal(acc, "100.0%", "variant 7's gold, judged on variant 7");
  assert.equal(acc, cliAcc, "apibank score --seed 7 agrees");
  // A row's comparison shows the variant's gold, which the prediction was judged against.
  await page.locator(`[data-testid=verdict-row][data-line="${k + 1}"]`).getByRole("button", { name: "compare" }).click();
  await page.locator(".compare > div").first().waitFor();
  const expected = await page.locator(".compare > div").first().textContent();
  assert.ok(expected.includes(moved), `line ${k + 1}'s expected side shows the variant's ${moved}: ${expected}`);
  const hello = await engineRequest(page, { op: "hello" });
  assert.ok(!hello.variant, `after the scoring the engine holds ${JSON.stringify(hello.variant)}; want the builtin data back`);

  // The choice is the page's input: a reload keeps it.
  await open(page, s.server.url, "/score");
  await page.waitForFunction(() => (document.querySelector("[data-testid=score-seed]") || {}).value === "7");

  // Judged on the data loaded in this tab (the builtin data), the moved values are wrong.
  await page.getByTestId("score-data-select").selectOption("tab");
  await page.waitForFunction(() => !document.querySelector("[data-testid=score-seed]"));
  await page.getByTestId("predictions-file").setInputFiles({ name: "gold-of-7.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(jsonl(lines)) });
  await page.waitForFunction(() => document.querySelector("[data-testid=bulk-predictions]").value.length > 0);
  const onBuiltin = await scored();
  assert.notEqual(onBuiltin, "100.0%", "variant 7's gold judged on the builtin data");
  assert.equal(onBuiltin, (cliResults(file, ["--seed", "0"]).report.overall.accuracy * 100).toFixed(1) + "%", "apibank score --seed 0 (the builtin data) agrees");
  assert.equal((cliResults(file).report.overall.accuracy * 100).toFixed(1) + "%", "100.0%", "apibank score reads the seed in the file's name, as the page does");

  // A seed as no host reads one is refused, with what a seed is.
  await page.getByTestId("score-data-select").selectOption("variant");
  await page.getByTestId("score-seed").fill("010");
  await page.getByTestId("score-seed").press("Tab");
  await page.getByTestId("score-seed-error").waitFor();
  assert.match(await page.getByTestId("score-seed-error").textContent(), /decimal digits without a sign or leading zeros/);
  assert.deepEqual(w.errors, []);
  await page.close();
});

/** perturb makes wrong predictions of several kinds from gold lines, each a known way to fail. */
function perturb(lines, tools) {
  const out = [];
  lines.forEach((l, i) => {
    if (l.id % 2 === 1) {
      out.push({ ...l, pred: i % 3 === 0 ? "" : l.pred.split(" ").slice(0, Math.max(1, l.pred.split(" ").length >> 1)).join(" ") });
      return;
    }
    const t = l.turn;
    const args = Object.entries(t.param_dict || {});
    const other = tools.find((x) => x !== t.api_name);
    const variants = [
      l.pred,
      goldText({ api_name: other, param_dict: t.param_dict }),
      goldText({ api_name: t.api_name, param_dict: Object.fromEntries(args.slice(0, -1)) }),
      goldText({ api_name: t.api_name, param_dict: Object.fromEntries(args.map(([k, v], j) => [k, j === 0 && typeof v === "string" ? v + " x" : v])) }),
      goldText({ api_name: t.api_name, param_dict: { ...t.param_dict, bogus_param: "1" } }),
      "I would call a tool here.",
      `[${t.api_name}(${args.map(([k, v]) => `${k}='${v}'`).join(", ")}`,
      JSON.stringify({ name: t.api_name, arguments: t.param_dict }),
      l.pred.replace(/'/g, '"'),
    ];
    out.push({ ...l, pred: variants[i % variants.length] });
  });
  return out;
}

test("perturbed predictions get the same category as the CLI on every line", async () => {
  const { page, w } = await newPage("/score");
  const dls = (await dialoguesOf(page, "")).filter((_, i) => i % 4 === 0);
  const gold = goldPredictions(dls);
  const tools = [...new Set(gold.filter((l) => l.tool).map((l) => l.tool))];
  const lines = perturb(gold, tools);
  const file = write("perturbed.jsonl", jsonl(lines));
  await pasteAndScore(page, readText(file));
  const got = new Map(await verdicts(page));
  const all = cliResults(file).lines;
  const want = all.filter((r) => r.kind);
  assert.ok(want.length > 100, "enough lines to mean something: " + want.length);
  const cats = new Set();
  for (const r of want) {
    const cat = r.kind === "reply" ? "REPLY" : r.category;
    cats.add(cat);
    assert.equal(got.get(r.line), cat, `line ${r.line} (${r.file} #${r.id})`);
  }
  assert.equal(got.size, want.length, "the same lines are scored");
  const errLines = await page.$$eval("[data-testid=line-error]", (els) => els.map((e) => Number(e.dataset.line)));
  assert.deepEqual(errLines, all.filter((r) => !r.kind).map((r) => r.line), "the same lines are refused");
  assert.ok(cats.size >= 6, "the perturbations reach several categories: " + [...cats].join(" "));
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("malformed lines get line-error rows with their line numbers and the rest is scored", async () => {
  const { page } = await newPage("/score");
  const dls = (await dialoguesOf(page, "level-1-given-desc")).slice(0, 3);
  const good = goldPredictions(dls, { replies: false });
  const text = [
    JSON.stringify({ file: good[0].file, id: good[0].id, pred: good[0].pred }),
    "this is not JSON",
    JSON.stringify({ file: good[1].file, id: good[1].id, pred: good[1].pred }),
    JSON.stringify({ id: 0, pred: "[X()]" }),
    "",
    JSON.stringify({ file: "no-such-dialogue.jsonl", id: 0, pred: "[X()]" }),
    JSON.stringify({ file: good[2].file, id: "two", pred: good[2].pred }),
    JSON.stringify({ file: good[2].file, id: good[2].id, pred: good[2].pred }),
  ].join("\n");
  await pasteAndScore(page, text);
  const errs = await page.$$eval("[data-testid=line-error]", (els) => els.map((e) => [Number(e.dataset.line), e.textContent]));
  assert.deepEqual(errs.map(([l]) => l), [2, 4, 6, 7], "one line-error row per malformed line, by line number");
  assert.match(errs[0][1], /line 2: not JSON/);
  assert.match(errs[1][1], /file/);
  assert.match(errs[2][1], /no-such-dialogue/);
  assert.match(errs[3][1], /id/);
  const rows = await verdicts(page);
  assert.deepEqual(rows.map(([l]) => l), [1, 3, 8], "the other lines are scored");
  await page.close();
});

/** sandboxRun types a call and waits for its output. */
async function sandboxRun(page, text) {
  const before = await page.$$eval("[data-testid=sandbox-history]", (e) => e.length);
  await page.getByTestId("sandbox-input").fill(text);
  await page.getByTestId("sandbox-run").click();
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=sandbox-history]").length > n, before);
  return page.getByTestId("sandbox-output").textContent();
}

/** firstAccount reads the first account of the loaded world, from the tab's engine. */
async function firstAccount(page) {
  const w = await engineRequest(page, { op: "world", databases: ["Account"] });
  const [user, a] = Object.entries(w.databases.Account)[0];
  return { user, ...a };
}

test("a sandbox call changes the world and reset restores it", async () => {
  const { page, w } = await newPage("/sandbox");
  const acct = await firstAccount(page);
  const when = "2031-02-03 04:05:06";
  const out = await sandboxRun(page, `[AddAlarm(token='${acct.token}', time='${when}')]`);
  assert.match(out, /success/i, "the call ran: " + out);
  await page.waitForFunction(() => /Alarm/.test(document.querySelector("[data-testid=sandbox-changed]").textContent));
  await page.getByTestId("db-Alarm").click();
  assert.ok((await page.getByTestId("sandbox-db").textContent()).includes(when), "the Alarm database shows the new alarm");
  const world = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.ok(JSON.stringify(world.databases.Alarm).includes(when));
  await page.getByTestId("sandbox-reset").click();
  await page.waitForFunction(() => /none/.test(document.querySelector("[data-testid=sandbox-changed]").textContent));
  const after = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.ok(!JSON.stringify(after.databases.Alarm).includes(when), "reset removed the alarm");
  assert.equal(await page.$$eval("[data-testid=sandbox-history]", (e) => e.length), 0, "reset empties the history");
  // A call that cannot be read is an error in the output, not a crash.
  await page.getByTestId("sandbox-input").fill("[AddAlarm(token='nope'");
  await page.getByTestId("sandbox-run").click();
  await page.waitForSelector("[data-testid=sandbox-output].error");
  assert.match(await page.getByTestId("sandbox-output").textContent(), /no call found/);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("two tabs keep separate worlds", async () => {
  const a = await newPage("/sandbox");
  const b = { page: await s.browser.context.newPage() };
  await open(b.page, s.server.url, "/sandbox");
  const acct = await firstAccount(a.page);
  const when = "2032-07-08 09:10:11";
  await sandboxRun(a.page, `[AddAlarm(token='${acct.token}', time='${when}')]`);
  const inA = await engineRequest(a.page, { op: "world", databases: ["Alarm"] });
  const inB = await engineRequest(b.page, { op: "world", databases: ["Alarm"] });
  assert.ok(JSON.stringify(inA.databases.Alarm).includes(when), "tab A sees its alarm");
  assert.ok(!JSON.stringify(inB.databases.Alarm).includes(when), "tab B does not");
  assert.equal(((await engineRequest(b.page, { op: "world" })).history || []).length, 0, "tab B has no history");
  await a.page.close();
  await b.page.close();
});

test("a reload keeps the results, the sandbox history and its world", async () => {
  const { page, w } = await newPage("/score");
  const dls = (await dialoguesOf(page, "level-2-toolsearcher")).slice(0, 4);
  const lines = goldPredictions(dls);
  lines[0].pred = "no call at all";
  await pasteAndScore(page, jsonl(lines));
  const acc = await page.getByTestId("accuracy").textContent();
  const rows = await verdicts(page);
  await page.reload();
  await ready(page);
  await page.waitForSelector("[data-testid=accuracy]");
  assert.equal(await page.getByTestId("accuracy").textContent(), acc);
  assert.deepEqual(await verdicts(page), rows);
  await open(page, s.server.url, "/results");
  await page.waitForSelector("[data-testid=accuracy]");
  assert.equal(await page.getByTestId("accuracy").textContent(), acc, "the Results page shows the same batch");
  assert.ok((await page.$$("[data-testid=chart]")).length >= 2, "two SVG charts");

  await open(page, s.server.url, "/sandbox");
  const acct = await firstAccount(page);
  const when = "2033-01-01 00:00:01";
  await sandboxRun(page, `[AddAlarm(token='${acct.token}', time='${when}')]`);
  await page.reload();
  await ready(page);
  await page.waitForSelector("[data-testid=sandbox-history]");
  const world = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.ok(JSON.stringify(world.databases.Alarm).includes(when), "the world was rebuilt from the saved history");

  // "Clear my data" forgets it all.
  await page.getByTestId("clear-data").click();
  await page.getByTestId("clear-yes").click();
  await page.reload();
  await ready(page);
  assert.equal(((await engineRequest(page, { op: "world" })).history || []).length, 0);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a trapped engine is restarted with the tab's state", async () => {
  const { page, w } = await newPage("/sandbox");
  const acct = await firstAccount(page);
  const when = "2034-05-06 07:08:09";
  await sandboxRun(page, `[AddAlarm(token='${acct.token}', time='${when}')]`);
  await page.evaluate(() => window.apibankEngine.trap());
  await page.waitForSelector("[data-testid=engine-status][data-state=ready]:has-text('restarted 1')");
  const world = await engineRequest(page, { op: "world", databases: ["Alarm"] });
  assert.ok(JSON.stringify(world.databases.Alarm).includes(when), "the sandbox history was replayed into the new engine");
  assert.equal(world.history.length, 1);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a dialogue whose text is markup renders as text", async () => {
  const { page, w } = await newPage("/import");
  const dir = path.join(tmp, "evil");
  mkdirSync(path.join(dir, "lv1-lv2-samples", "level-1-given-desc"), { recursive: true });
  mkdirSync(path.join(dir, "init_database"), { recursive: true });
  cpSync(path.join(root, "dataset", "builtin", "init_database", "Account.json"), path.join(dir, "init_database", "Account.json"));
  const acct = Object.entries(JSON.parse(readText(path.join(dir, "init_database", "Account.json"))))[0];
  const evil = "<img src=x onerror=alert(1)>";
  const turns = [
    { role: "User", text: evil },
    { role: "AI", text: evil },
    { role: "API", api_name: "GetUserToken", param_dict: { username: acct[0], password: acct[1].password },
      result: { api_name: "GetUserToken", input: { username: acct[0], password: acct[1].password }, output: { token: acct[1].token }, exception: null } },
    { role: "AI", text: "<script>alert(2)</script>" },
  ];
  writeFileSync(path.join(dir, "lv1-lv2-samples", "level-1-given-desc", "evil-<b>1.jsonl"), turns.map((t) => JSON.stringify(t)).join("\n") + "\n");
  await page.getByTestId("import-folder").setInputFiles(dir);
  await page.waitForSelector("[data-testid=import-result]");
  await page.click("text=browse it");
  await page.waitForSelector("[data-testid=dialogue-row]");
  assert.ok((await page.textContent("[data-testid=dialogue-row]")).includes(evil), "the list shows the markup as text");
  await page.click("[data-testid=dialogue-row] a");
  await page.waitForSelector("[data-testid=turn]");
  await page.getByTestId("reveal-gold").click();
  const texts = await page.$$eval("[data-testid=turn]", (els) => els.map((e) => e.textContent));
  assert.ok(texts.some((t) => t.includes(evil)), "the chat shows the markup as text");
  assert.equal(await page.$$eval("img[src=x]", (e) => e.length), 0, "no image element was made");
  assert.equal(await page.$$eval("main script", (e) => e.length), 0, "no script element was made");
  await page.waitForTimeout(300);
  assert.deepEqual(w.dialogs, [], "no alert ran");
  // Back to the builtin data for the other tests.
  await page.getByTestId("dataset-select").selectOption("builtin");
  await page.waitForFunction(() => document.querySelector("[data-testid=dataset-select]").value === "builtin");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("importing ../shared/apibank and pasting its gold gives exactly the CLI's numbers (browser == wazero)", async (t) => {
  if (!existsSync(path.join(shared, "lv1-lv2-samples"))) {
    t.skip("../shared/apibank is absent: the original's data is needed for this test");
    return;
  }
  const { page, w } = await newPage("/import");
  await page.getByTestId("import-folder").setInputFiles(shared);
  await page.waitForSelector("[data-testid=import-result]", { timeout: 60000 });
  const name = await page.$eval("[data-testid=dataset-select]", (s) => s.value);
  assert.equal(name, "apibank");
  const dls = await dialoguesOf(page, "");
  const lines = goldPredictions(dls);
  const file = write("shared-gold.jsonl", jsonl(lines));
  await open(page, s.server.url, "/score");
  await pasteAndScore(page, readText(file));
  const want = cliResults(file, ["--data", shared]);
  const got = await savedBatch(page, "apibank");
  assert.deepEqual(reportFacts(got.batch.report), reportFacts(want.report), "the report: accuracy per level, category, tool, ROUGE-L, ceiling");
  const byLine = new Map(got.batch.results.map((r) => [r.line, verdictFacts(r)]));
  const scored = want.lines.filter((r) => r.kind);
  assert.equal(byLine.size, scored.length, "the same lines are scored");
  for (const r of scored) assert.deepEqual(byLine.get(r.line), verdictFacts(r), "line " + r.line);
  assert.equal(await page.getByTestId("accuracy").textContent(), (want.report.overall.accuracy * 100).toFixed(1) + "%");
  assert.equal(await page.getByTestId("rouge-l").textContent(), want.report.overall.rouge_l.toFixed(4));
  await page.getByTestId("dataset-select").selectOption("builtin");
  await page.waitForFunction(() => document.querySelector("[data-testid=dataset-select]").value === "builtin");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("after a first visit the playground works offline", async () => {
  const { page, w } = await newPage("/");
  await offlineReady(page);
  await s.browser.context.setOffline(true);
  try {
    await page.reload();
    await ready(page);
    await open(page, s.server.url, "/sandbox");
    const acct = await firstAccount(page);
    assert.ok(acct.user, "the engine answers offline");
  } finally {
    await s.browser.context.setOffline(false);
  }
  assert.deepEqual(w.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)), []);
  await page.close();
});
