// Running a model from the tab against cmd/fakemodel (a scripted OpenAI-compatible server started
// here): every level in both forms, parity with `apibank run` under wazero, resume after a reload,
// cancel, failed requests retried alone, the API key never leaving for anywhere but the endpoint,
// share links, the Runs leaderboard and comparison, batch files (the input downloaded, the
// provider's output scored back), the prompts download. Expected outputs come from the CLI or from the
// run's own saved data, never from constants.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import path from "node:path";
import { watch, open, cli, session, startFakeModel, set, launch, fillRunForm, readRunStore, fits, runProgress as progress, runFinished as finished } from "../lib.mjs";

const KEY = "sk-e2e-" + Math.random().toString(36).slice(2) + "-secret";
const s = session();
let fake;
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-run-"));

/** The fake's script: deterministic answers for every request shape a run makes. */
function script(extra = [], more = {}) {
  return {
    key: KEY,
    models: ["fake-model"],
    rules: [
      ...extra,
      { match: { role: "tool" }, reply: { content: "Done." } },
      { match: { last: "Response:" }, reply: { content: "Done." } },
      { match: { tools: true, any: "ToolSearcher" }, reply: { tool_calls: [{ name: "ToolSearcher", arguments: { keywords: "meeting" } }] } },
      { match: { tools: true, any: "get_time" }, reply: { tool_calls: [{ name: "Calculator", arguments: { formula: "1+2" } }] } },
      { match: { tools: true }, reply: { content: "I cannot help with that." } },
      { match: { any: "ToolSearcher" }, reply: { content: "[ToolSearcher(keywords='meeting')]" } },
      { reply: { content: "[Calculator(formula='1+2')]" } },
    ],
    ...more,
  };
}

/** Every request any page makes, with whether it carries the key (headers or body). */
const seen = [];
let listening = false;
function listen() {
  if (listening) return;
  listening = true;
  s.browser.context.on("request", async (req) => {
    let headers = {};
    try {
      headers = await req.allHeaders();
    } catch {
      headers = req.headers();
    }
    const body = req.postData() || "";
    seen.push({ url: req.url(), carries: JSON.stringify(headers).includes(KEY) || body.includes(KEY), inBody: body.includes(KEY), auth: headers.authorization || "" });
  });
}

before(async () => {
  fake = await startFakeModel(script());
});

after(async () => {
  if (fake) await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** newPage opens a new tab on /run (the runs saved by earlier tests stay). */
async function newPage() {
  listen();
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  return { page, w };
}

/** configure fills the Run form for the fake endpoint. */
async function configure(page, opts) {
  await fillRunForm(page, { baseURL: fake.url, key: KEY, model: "fake-model", ...opts });
}

/** start clicks Start and waits for the run's end. */
async function runFromTab(page, opts) {
  await configure(page, opts);
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  return finished(page, before);
}

/** idb reads the run store (readRunStore): every kept run whole as JSON text, the records' keys, and every stored value's text. */
async function idb(page) {
  const st = await readRunStore(page);
  return { runs: st.runs.map((r) => JSON.stringify(r)), landed: st.landed, raw: st.raw };
}

async function savedRun(page, id) {
  const { runs } = await idb(page);
  const text = runs.find((t) => JSON.parse(t).id === id);
  assert.ok(text, "run " + id + " is not in IndexedDB");
  return { text, run: JSON.parse(text) };
}

/** freePort is a loopback port nothing listens on (it was free a moment ago). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** cliRun runs `apibank run` (under wazero) against the fake and returns the --out bytes and the JSON summary. */
function cliRun({ form, levels, limit, stream }) {
  const out = path.join(tmp, `cli-${form}-${Date.now()}.jsonl`);
  process.env.FAKE_MODEL_KEY = KEY;
  const args = ["run", "--base-url", fake.url, "--model", "fake-model", "--api-key-env", "FAKE_MODEL_KEY", "--form", form, "--out", out, "--json", "--concurrency", "4"];
  for (const l of levels) args.push("--level", l);
  if (limit) args.push("--limit", String(limit));
  if (stream) args.push("--stream");
  const summary = JSON.parse(cli(args));
  return { jsonl: readFileSync(out, "utf8"), summary };
}

/** download clicks a button and returns the text of the file it saves. */
async function download(page, testid) {
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testid).click()]);
  return readFileSync(await d.path(), "utf8");
}

/** openRun opens a run's full view on the Runs page. */
async function openRun(page, id) {
  await open(page, s.server.url, "/runs");
  await page.waitForSelector(`[data-testid=run-row][data-id="${id}"]`);
  await page.click(`[data-testid=run-row][data-id="${id}"] [data-testid=run-open]`);
  await page.waitForSelector("[data-testid=run-view]");
}

const ALL = ["level-1-given-desc", "level-2-toolsearcher", "level-3"];
const ranIDs = {};

for (const form of ["text", "native"]) {
  test(`every level in the ${form} form: the tab and apibank run give byte-identical predictions and equal reports`, async () => {
    const stream = form === "native";
    const { page, w } = await newPage();
    const p = await runFromTab(page, { form, levels: ALL, limit: 4, stream });
    assert.equal(p.state, "done");
    assert.equal(p.failed, 0);
    assert.equal(p.done, p.total);
    assert.equal(p.total, 12, "4 samples of levels 1 and 2, 4 episodes");
    const acc = await page.getByTestId("run-accuracy").textContent();
    assert.match(acc, /^\d+\.\d%$/);
    ranIDs[form] = p.id;

    const { run } = await savedRun(page, p.id);
    assert.equal(run.settings.form, form);
    assert.equal(run.host, new URL(fake.url).host);
    assert.equal(run.episodes.length, 4);
    assert.ok(run.episodes.every((e) => e.transcript.length > 1 && e.outcome), "each episode has its transcript and outcome");
    assert.equal(acc, (run.batch.report.overall.accuracy * 100).toFixed(1) + "%");

    await openRun(page, p.id);
    const tabJSONL = await download(page, "run-export-jsonl");
    const c = cliRun({ form, levels: ALL, limit: 4, stream });
    assert.equal(tabJSONL, c.jsonl, "the tab's predictions JSONL is the CLI's --out, byte for byte");
    assert.deepEqual(run.batch.report, c.summary.report, "same report numbers");
    assert.equal(c.summary.failed_requests, 0);
    assert.deepEqual(w.errors, []);
    await page.close();
  });
}

test("the API key goes to the fake endpoint only, and into nothing saved, exported or shared", async () => {
  assert.ok(ranIDs.text && ranIDs.native, "the runs above ran");
  const carrying = seen.filter((r) => r.carries);
  assert.ok(carrying.length > 10, "the runs' requests carried the key (the check is not vacuous)");
  for (const r of carrying) {
    assert.equal(new URL(r.url).origin, fake.origin, "the key went to " + r.url);
    assert.equal(r.inBody, false, "the key is in a request body: " + r.url);
    assert.equal(r.auth, "Bearer " + KEY);
  }
  const { page } = await newPage();
  const store = await idb(page);
  assert.ok(!JSON.stringify(store).includes(KEY), "the key is in IndexedDB");
  const local = await page.evaluate(() => JSON.stringify(Object.assign({}, localStorage)));
  assert.ok(!local.includes(KEY), "the key is in localStorage without “remember on this device”");
  await openRun(page, ranIDs.text);
  assert.ok(!(await download(page, "run-export-json")).includes(KEY), "the key is in the JSON export");
  await page.getByTestId("run-share").click();
  const link = await page.getByTestId("share-link").getAttribute("href");
  assert.ok(!link.includes(KEY), "the key is in the share link");
  // The key is remembered on this device only when asked, and forgotten when unticked.
  await open(page, s.server.url, "/run");
  await set(page, "run-api-key", KEY);
  await page.getByTestId("run-remember").click();
  assert.ok((await page.evaluate(() => JSON.stringify(Object.assign({}, localStorage)))).includes(KEY));
  await page.getByTestId("run-remember").click();
  assert.ok(!(await page.evaluate(() => JSON.stringify(Object.assign({}, localStorage)))).includes(KEY));
  await page.close();
});

test("a share link holds the run in its fragment and re-scores it in the opener's tab; an exported file re-scores to the same verdicts", async () => {
  const { page, w } = await newPage();
  await openRun(page, ranIDs.native);
  const accuracy = await page.$eval(`[data-testid=run-row][data-id="${ranIDs.native}"]`, (el) => el.dataset.accuracy);
  await page.getByTestId("run-share").click();
  const link = await page.getByTestId("share-link").getAttribute("href");
  const u = new URL(link);
  assert.equal(u.pathname, "/runs");
  assert.match(u.hash, /^#run=[A-Za-z0-9_-]+$/);
  const exported = await download(page, "run-export-json");

  const other = await s.browser.context.newPage();
  const w2 = watch(other);
  const before = seen.length;
  await other.goto(link);
  await other.waitForSelector("[data-testid=run-view]", { timeout: 30000 });
  const row = other.locator(`[data-testid=run-row][data-id="${ranIDs.native}"]`).first();
  assert.equal(await row.getAttribute("data-accuracy"), accuracy, "the opener's engine scores the shared run as the runner's did");
  assert.ok(seen.slice(before).every((r) => !r.url.includes("run=")), "the fragment was sent to a server");

  // Import of the exported file: every prediction re-scored, every verdict the same.
  await open(other, s.server.url, "/runs");
  const file = path.join(tmp, "export.json");
  (await import("node:fs")).writeFileSync(file, exported);
  await other.getByTestId("runs-file").setInputFiles(file);
  await other.waitForSelector("[data-testid=rescore-agreement]", { timeout: 30000 });
  const ag = await other.$eval("[data-testid=rescore-agreement]", (el) => ({ agree: Number(el.dataset.agree), compared: Number(el.dataset.compared) }));
  const { run } = JSON.parse(JSON.stringify({ run: JSON.parse(exported) }));
  assert.equal(ag.compared, run.batch.results.length + run.episodes.length);
  assert.equal(ag.agree, ag.compared);
  assert.deepEqual(w.errors, []);
  assert.deepEqual(w2.errors, []);
  await other.close();
  await page.close();
});

/** mcnemar is the exact McNemar test's two-sided p, summed here in exact integers (BigInt). */
function mcnemar(b, c) {
  const n = b + c;
  const k = Math.min(b, c);
  if (n === 0) return 1;
  let coef = 1n;
  let sum = 0n;
  for (let i = 0; i <= k; i++) {
    if (i > 0) coef = (coef * BigInt(n - i + 1)) / BigInt(i);
    sum += coef;
  }
  const scale = 10n ** 30n;
  return Math.min(1, Number((2n * sum * scale) / (1n << BigInt(n))) / 1e30);
}

/** paired counts, per row (level and unit, "" for all), the tasks two saved runs both judged. */
function pairedCounts(a, b) {
  const outcomes = (r) => {
    const m = new Map();
    for (const v of r.batch.results) if (v.kind === "call" && "correct" in v) m.set(`${v.level}\t${v.file}#${v.id}\tsample`, v.correct);
    for (const e of r.episodes) if (e.outcome) m.set(`${e.level}\t${e.file}\tepisode`, e.outcome.success);
    return m;
  };
  const oa = outcomes(a);
  const ob = outcomes(b);
  const rows = new Map();
  const add = (key, x, y) => {
    const r = rows.get(key) || { paired: 0, fixed: 0, broken: 0 };
    r.paired++;
    if (!x && y) r.fixed++;
    if (x && !y) r.broken++;
    rows.set(key, r);
  };
  for (const [k, x] of oa) {
    if (!ob.has(k)) continue;
    const [level, , unit] = k.split("\t");
    add(`${level}/${unit}`, x, ob.get(k));
    add("/task", x, ob.get(k));
  }
  return rows;
}

test("the Runs page lists every run and compares two, one row per sample they judge differently", async () => {
  const { page, w } = await newPage();
  const { runs } = await idb(page);
  // Each run's predictions as the Runs page exports them, for `apibank compare`.
  const files = {};
  for (const form of ["text", "native"]) {
    await openRun(page, ranIDs[form]);
    files[form] = path.join(tmp, `compare-${form}.jsonl`);
    (await import("node:fs")).writeFileSync(files[form], await download(page, "run-export-jsonl"));
  }
  await open(page, s.server.url, "/runs");
  await page.waitForSelector("[data-testid=run-row]");
  assert.equal(await page.locator("[data-testid=run-row]").count(), runs.length);
  await page.getByTestId("compare-a").selectOption(ranIDs.text);
  await page.getByTestId("compare-b").selectOption(ranIDs.native);
  // The comparison of the pair picked, not the one the page opened with.
  await page.waitForFunction(([a, b]) => {
    const el = document.querySelector("[data-testid=compare]");
    return el && el.dataset.a === a && el.dataset.b === b;
  }, [ranIDs.text, ranIDs.native]);
  const a = JSON.parse(runs.find((t) => JSON.parse(t).id === ranIDs.text));
  const b = JSON.parse(runs.find((t) => JSON.parse(t).id === ranIDs.native));
  const words = (v) => (v.kind === "reply" ? "ROUGE-L " + v.rouge_l.toFixed(4) : v.category);
  const va = new Map(a.batch.results.map((v) => [`${v.level}/${v.file}#${v.id}`, words(v)]));
  const vb = new Map(b.batch.results.map((v) => [`${v.level}/${v.file}#${v.id}`, words(v)]));
  let want = 0;
  for (const k of new Set([...va.keys(), ...vb.keys()])) if (va.get(k) !== vb.get(k)) want++;
  const ep = (e) => (e ? `${e.outcome.success}/${e.outcome.state_match}/${e.outcome.matched}/${e.outcome.gold}` : "");
  const ea = new Map(a.episodes.map((e) => [e.file, ep(e)]));
  for (const e of b.episodes) if (ea.get(e.file) !== ep(e)) want++;
  assert.ok(want > 0, "the text and native runs disagree somewhere (the fake answers them differently)");
  assert.equal(await page.locator("[data-testid=compare-row]").count(), want);
  const first = page.locator("[data-testid=compare-row]").first();
  await first.locator("summary").click();
  assert.match(await first.textContent(), /A answered[\s\S]*B answered/);

  // The paired test: the counts are the runs' own verdicts paired, the p an exact binomial sum,
  // and every figure and sentence the one `apibank compare` gives for the runs' exported files.
  // (The overall row's level is empty: go-app leaves an empty data attribute out.)
  const rows = await page.$$eval("[data-testid=paired-row]", (els) => els.map((el) => ({
    level: el.dataset.level || "", unit: el.dataset.unit, paired: Number(el.dataset.paired), fixed: Number(el.dataset.fixed),
    broken: Number(el.dataset.broken), p: Number(el.dataset.p), detectable: Number(el.dataset.detectable),
  })));
  const sentences = await page.$$eval("[data-testid=compare-sentence]", (els) => els.map((el) => ({ level: el.dataset.level || "", unit: el.dataset.unit, finding: el.dataset.finding, text: el.textContent })));
  const counts = pairedCounts(a, b);
  assert.equal(rows.length, counts.size, "a paired row per level (episodes apart) and one for all");
  for (const r of rows) {
    const c = counts.get(`${r.level}/${r.unit}`);
    assert.ok(c, `a row the runs do not have: ${r.level} ${r.unit}`);
    assert.deepEqual({ paired: r.paired, fixed: r.fixed, broken: r.broken }, c, `${r.level} ${r.unit}`);
    assert.ok(Math.abs(r.p - mcnemar(c.fixed, c.broken)) < 1e-12, `${r.level} ${r.unit}: p ${r.p}, exact ${mcnemar(c.fixed, c.broken)}`);
    assert.ok(r.detectable > 0 && r.detectable <= 1);
  }
  assert.equal(sentences.length, rows.length);
  for (const t of sentences) assert.match(t.text, /^(B is better than A|B is worse than A|A and B are not distinguishable) on (level \d|all levels)/);
  const byCLI = JSON.parse(cli(["compare", files.text, files.native, "--json"]));
  const cliRows = [...byCLI.levels, byCLI.overall];
  assert.deepEqual(
    cliRows.map((r) => ({ level: r.level, unit: r.unit, paired: r.paired, fixed: r.fixed, broken: r.broken, p: r.p, detectable: r.min_detectable })),
    rows,
    "the page's paired figures are `apibank compare`'s",
  );
  assert.deepEqual(cliRows.map((r) => ({ level: r.level, unit: r.unit, finding: r.finding, text: r.sentence + "." })), sentences, "the same sentences");
  // The pair picked last is compared again after a reload, not the default pair (the two newest).
  await page.getByTestId("compare-a").selectOption(ranIDs.native);
  await page.getByTestId("compare-b").selectOption(ranIDs.text);
  await page.waitForFunction(([a, b]) => document.querySelector(`[data-testid=compare][data-a="${a}"][data-b="${b}"]`), [ranIDs.native, ranIDs.text]);
  await open(page, s.server.url, "/runs");
  const newest = await page.$$eval("[data-testid=run-row]", (els) => els.slice(0, 2).map((el) => el.dataset.id));
  assert.notDeepEqual([ranIDs.native, ranIDs.text], [newest[1], newest[0]], "the pair picked is not the default one");
  await page.waitForFunction(([a, b]) => document.querySelector(`[data-testid=compare][data-a="${a}"][data-b="${b}"]`), [ranIDs.native, ranIDs.text]);
  // On a desktop the tables' words are whole; on a phone the runs and the comparison's tables
  // scroll in their boxes, their words whole.
  await page.setViewportSize({ width: 1280, height: 900 });
  await fits(page, "/runs (two runs compared)");
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, "/runs (two runs compared)");
  // On a phone a run opens from its name's cell, in sight, and its view is brought into sight.
  const openButton = page.locator(`[data-testid=run-row][data-id="${ranIDs.text}"] [data-testid=run-open]`);
  assert.ok((await openButton.boundingBox()).x + 20 < 390, "the open button is on the screen, not past the table's right edge");
  await openButton.click();
  await page.waitForFunction(() => {
    const r = document.querySelector("[data-testid=run-view]")?.getBoundingClientRect();
    return r && r.top >= -1 && r.top < innerHeight;
  });
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a failed request is listed with its status and message, and retried alone", async () => {
  const { page, w } = await newPage();
  const list = await page.evaluate(async () => {
    const r = await window.apibankEngine.request(JSON.stringify({ v: 1, op: "samples", level: "level-1-given-desc" }));
    return JSON.parse(r.text).result;
  });
  const target = list.find((x) => x.kind === "call");
  const dialogue = await page.evaluate(async (t) => {
    const r = await window.apibankEngine.request(JSON.stringify({ v: 1, op: "dialogue", level: t.level, file: t.file }));
    return JSON.parse(r.text).result;
  }, target);
  // The dialogue's first request is in the prompts of its samples: a fault for prompts holding it.
  const marker = dialogue.turns.find((t) => t.role === "User").text.slice(0, 60);
  // A message as long as a provider's: it widens its column, which once squeezed the others' words
  // to a letter a line.
  const message = "scripted refusal for the test: this model's maximum context length is 4096 tokens, however your messages resulted in 5120 tokens; please reduce the length of the messages";
  await fake.script(script([{ match: { any: marker }, reply: { content: "x" }, fault: { kind: "status", status: 400, message } }]));
  const p = await runFromTab(page, { form: "text", levels: ["level-1-given-desc"], limit: 6 });
  assert.ok(p.failed >= 1, "a request failed");
  const rows = page.locator("[data-testid=run-failure]");
  assert.equal(await rows.count(), p.failed);
  assert.equal(await rows.first().getAttribute("data-status"), "400");
  assert.match(await rows.first().textContent(), /scripted refusal for the test/);
  const { run: before } = await savedRun(page, p.id);
  assert.equal(before.predictions.length + before.failures.length, p.total);
  // The failed requests' table on a desktop and on a phone: no sideways scroll, no word broken.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await fits(page, "/run (a failed request listed)");
  }
  await page.setViewportSize({ width: 1200, height: 900 });

  await fake.script(script());
  await fake.reset();
  await page.getByTestId("run-retry").first().click();
  await page.waitForFunction((n) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && Number(el.dataset.failed) === n - 1;
  }, p.failed, { timeout: 30000 }).catch(async (e) => {
    throw new Error(e.message + "\n" + (await page.textContent("main")));
  });
  const chats = (await fake.requests()).filter((r) => r.path.endsWith("/chat/completions"));
  assert.equal(chats.length, 1, "the retry asked the one failed sample alone");
  const { run: after } = await savedRun(page, p.id);
  assert.equal(after.predictions.length, before.predictions.length + 1);
  assert.equal(after.failures.length, before.failures.length - 1);
  if (after.failures.length > 0) {
    await page.getByTestId("run-retry-all").click();
    await page.waitForFunction(() => {
      const el = document.querySelector("[data-testid=run-progress]");
      return el && el.dataset.state !== "running" && el.dataset.failed === "0";
    }, null, { timeout: 30000 });
  }
  assert.deepEqual(w.errors.filter((e) => !/status of 400/.test(e)), [], "no error but the scripted 400s");
  await page.close();
});

test("an endpoint where nothing listens ends the run in its first requests' retries: the rest are listed as not asked, said once, and Retry all asks them when it answers", async () => {
  const { page, w } = await newPage();
  const closed = await freePort();
  const p = await (async () => {
    await fillRunForm(page, { baseURL: `http://127.0.0.1:${closed}/v1`, key: KEY, model: "fake-model", levels: ["level-1-given-desc"], limit: 10, concurrency: 2 });
    const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
    await page.getByTestId("run-start").click();
    return finished(page, before);
  })();
  assert.equal(p.failed, p.total, "every sample failed");
  const note = await page.getByTestId("run-stopped-note").textContent();
  const statuses = await page.$$eval("[data-testid=run-failure] td:nth-child(2)", (tds) => tds.map((td) => td.textContent));
  assert.equal(statuses.length, p.total, "every failed sample is listed");
  const asked = statuses.filter((x) => x === "no answer").length;
  assert.ok(asked >= 2 && asked <= 3, `the requests asked (${asked}): the first two, and one a worker had begun`);
  assert.equal(statuses.filter((x) => x === "not asked").length, p.total - asked, statuses.join(", "));
  assert.match(note, new RegExp(`The run stopped asking: the endpoint was not reached \\(model: no answer from 127\\.0\\.0\\.1:${closed}.*\\. The other ${p.total - asked} samples were not asked`));
  const { run } = await savedRun(page, p.id);
  assert.equal(run.failures.filter((f) => f.not_asked).length, p.total - asked, "the tasks not asked are kept as failed, to retry");

  // The endpoint now answers there: Retry all failed asks every sample, and nothing is left failed.
  const there = await startFakeModel({ models: ["fake-model"], rules: [{ reply: { content: "[Calculator(formula='1+2')]" } }] }, ["--addr", `127.0.0.1:${closed}`]);
  try {
    await page.getByTestId("run-retry-all").click();
    await page.waitForFunction(() => {
      const el = document.querySelector("[data-testid=run-progress]");
      return el && el.dataset.state !== "running" && el.dataset.failed === "0";
    }, null, { timeout: 60000 });
    assert.equal(await page.getByTestId("run-stopped-note").count(), 0);
  } finally {
    await there.stop();
  }
  assert.deepEqual(w.errors.filter((e) => !/net::ERR_CONNECTION_REFUSED|Failed to load/.test(e)), []);
  await page.close();
});

test("Cancel stops at once and keeps what finished", async () => {
  await fake.script(script([{ match: {}, reply: { content: "[Calculator(formula='1+2')]" }, fault: { kind: "slow", delay_ms: 1500 } }]));
  const { page, w } = await newPage();
  await page.setViewportSize({ width: 390, height: 844 }); // on a phone, the progress is far below Start
  await configure(page, { form: "text", levels: ["level-1-given-desc"], concurrency: 2 });
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=run-progress]")?.dataset.done) >= 2, null, { timeout: 30000 });
  const top = await page.$eval("#run-progress-h", (el) => el.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < 844, `the run's progress is brought into sight once it starts (its heading at ${top} px)`);
  const t0 = Date.now();
  await page.getByTestId("run-cancel").click();
  const p = await finished(page, before, 20000);
  assert.ok(Date.now() - t0 < 5000, "cancel took " + (Date.now() - t0) + " ms");
  assert.equal(p.state, "cancelled");
  assert.ok(p.done < p.total);
  const { run } = await savedRun(page, p.id);
  assert.equal(run.status, "cancelled");
  assert.ok(run.predictions.length >= 2 && run.predictions.length <= p.done);
  assert.equal(run.failures.length, 0, "a request cut by Cancel is not a failed request");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a reload resumes the run where it stopped: the samples it kept are not asked again", async () => {
  await fake.script(script([{ match: {}, reply: { content: "[Calculator(formula='1+2')]" }, fault: { kind: "slow", delay_ms: 300 } }]));
  const { page, w } = await newPage();
  await configure(page, { form: "text", levels: ["level-1-given-desc"], limit: 16, concurrency: 2 });
  await page.getByTestId("run-start").click();
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=run-progress]")?.dataset.done) >= 4, null, { timeout: 30000 });
  const id = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id);
  await page.reload();
  await open(page, s.server.url, "/run");
  await page.waitForSelector("[data-testid=run-resume]");
  const kept = (await idb(page)).landed.filter((k) => k.startsWith(id + "\u0000")).length;
  assert.ok(kept >= 4 && kept < 16, `${kept} samples kept at the reload`);
  await fake.script(script());
  await fake.reset();
  await page.getByTestId("run-resume").click();
  const p = await finished(page, "", 60000);
  assert.equal(p.id, id);
  assert.equal(p.state, "done");
  assert.equal(p.done, 16);
  const chats = (await fake.requests()).filter((r) => r.path.endsWith("/chat/completions"));
  assert.equal(chats.length, 16 - kept, "the resumed run asked only the samples it had not kept");
  const { run } = await savedRun(page, id);
  assert.equal(run.predictions.length, 16);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a reload resumes level 3 too: the episodes that ended are kept and not played again", async () => {
  await fake.script(script([{ match: {}, reply: { content: "[Calculator(formula='1+2')]" }, fault: { kind: "slow", delay_ms: 300 } }]));
  const { page, w } = await newPage();
  await configure(page, { form: "text", levels: ["level-3"], limit: 6, concurrency: 1 });
  await page.getByTestId("run-start").click();
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=run-progress]")?.dataset.done) >= 2, null, { timeout: 60000 });
  const id = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id);
  await page.reload();
  await open(page, s.server.url, "/run");
  await page.waitForSelector("[data-testid=run-resume]");
  const kept = (await idb(page)).landed.filter((k) => k.startsWith(id + "\u0000") && k.includes("level-3")).length;
  assert.ok(kept >= 2 && kept < 6, `${kept} episodes kept at the reload`);
  await fake.script(script());
  await fake.reset();
  await page.getByTestId("run-resume").click();
  const p = await finished(page, "", 120000);
  assert.equal(p.id, id);
  assert.equal(p.state, "done");
  // Each scene's conversation opens with its own first message: count the scenes asked again.
  const scenes = new Set((await fake.requests()).filter((r) => r.path.endsWith("/chat/completions") && r.chat).map((r) => r.chat.messages[0].content));
  assert.equal(scenes.size, 6 - kept, "the resumed run played only the scenes that had not ended");
  const { run } = await savedRun(page, id);
  assert.equal(run.episodes.length, 6);
  assert.ok(run.episodes.every((ep) => ep.outcome), "every episode is judged");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("a run's records are in IndexedDB while it goes, its summary holds no answer, and after a reload the Runs page lists it and exports the same files", async () => {
  await fake.script(script([{ match: {}, reply: { content: "[Calculator(formula='1+2')]" }, fault: { kind: "slow", delay_ms: 300 } }]));
  const { page, w } = await newPage();
  await configure(page, { form: "text", levels: ["level-1-given-desc"], limit: 20, concurrency: 2 });
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=run-progress]")?.dataset.done) >= 4, null, { timeout: 30000 });
  const id = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id);
  const going = await readRunStore(page);
  assert.equal((await progress(page)).state, "running", "the store was read while the run went");
  const mine = going.landed.filter((k) => k.startsWith(id + "\u0000"));
  assert.ok(mine.length >= 4 && mine.length < 20, `${mine.length} records kept while the run goes`);
  for (const k of mine) {
    const l = going.records[k];
    assert.equal(l.key, k.slice(id.length + 1));
    assert.equal(l.pred.pred, "[Calculator(formula='1+2')]", "a record holds its prediction");
    assert.equal(l.response.content, "[Calculator(formula='1+2')]", "and its response");
  }
  const summary = going.kept.find((k) => k.run && k.run.id === id);
  assert.ok(summary, "the run's summary is kept while it goes");
  assert.equal(summary.run.status, "running");
  assert.deepEqual(summary.run.predictions, [], "the summary holds no prediction");
  assert.equal(summary.run.responses, undefined, "nor any response");

  const p = await finished(page, before, 60000);
  assert.equal(p.id, id);
  assert.equal(p.state, "done");
  const ended = (await readRunStore(page)).kept.find((k) => k.run && k.run.id === id);
  assert.equal(ended.order.length, 20, "the ended run's summary orders its 20 records");
  assert.ok(!JSON.stringify(ended).includes("Calculator(formula"), "the summary holds no answer");
  await openRun(page, id);
  const jsonl = await download(page, "run-export-jsonl");
  const json = await download(page, "run-export-json");
  assert.equal(jsonl.trim().split("\n").length, 20);
  assert.equal(JSON.parse(json).predictions.length, 20);
  await page.reload();
  await openRun(page, id);
  assert.equal(await download(page, "run-export-jsonl"), jsonl, "the predictions export after a reload is the one before, byte for byte");
  assert.equal(await download(page, "run-export-json"), json, "the JSON export too");
  assert.deepEqual(w.errors, []);
  await page.close();

  // A browser that kept runs whole, in the store's first version (a string, and a Blob): its runs
  // are listed, opened and exported as they were, and moved to records.
  const old = await launch();
  try {
    const op = await old.context.newPage();
    const ow = watch(op);
    await open(op, s.server.url, "/"); // the home page: it opens no run store
    const whole = JSON.parse(json);
    const ids = [id + "-string", id + "-blob"];
    await op.evaluate(async ({ text, ids }) => {
      const db = await new Promise((resolve, reject) => {
        const req = indexedDB.open("apibank-runs", 1);
        req.onupgradeneeded = () => {
          req.result.createObjectStore("runs");
          req.result.createObjectStore("landed");
        };
        req.onerror = () => reject(req.error);
        req.onsuccess = () => resolve(req.result);
      });
      const r = JSON.parse(text);
      const tx = db.transaction("runs", "readwrite");
      tx.objectStore("runs").put(JSON.stringify({ ...r, id: ids[0] }), ids[0]);
      tx.objectStore("runs").put(new Blob([JSON.stringify({ ...r, id: ids[1] })], { type: "application/json" }), ids[1]);
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, { text: json, ids });
    for (const oid of ids) {
      await open(op, s.server.url, "/runs");
      await op.waitForSelector(`[data-testid=run-row][data-id="${oid}"]`);
      await op.click(`[data-testid=run-row][data-id="${oid}"] [data-testid=run-open]`);
      await op.waitForSelector("[data-testid=run-view]");
      assert.equal(await download(op, "run-export-jsonl"), jsonl, `${oid}: the predictions export of a run kept whole before`);
      assert.deepEqual(JSON.parse(await download(op, "run-export-json")), { ...whole, id: oid }, `${oid}: its JSON export`);
    }
    const moved = await readRunStore(op);
    for (const oid of ids) assert.equal(moved.kept.find((k) => k.run && k.run.id === oid)?.summary, 1, `${oid} is kept as a summary now`);
    assert.equal(moved.landed.filter((k) => k.startsWith(ids[0] + "\u0000")).length, 20, "with its 20 records");
    assert.deepEqual(ow.errors, []);
  } finally {
    await old.close();
  }
});

test("Test connection reports in words", async () => {
  await fake.script(script());
  const { page, w } = await newPage();
  await configure(page, { form: "native" });
  await page.getByTestId("run-test").click();
  await page.waitForFunction(() => /tool_calls/.test(document.querySelector("[data-testid=run-test-result]")?.textContent || ""), null, { timeout: 30000 });
  const text = await page.getByTestId("run-test-result").textContent();
  assert.match(text, /answers requests from this page \(CORS allows it\)/);
  assert.match(text, /"fake-model" is listed/);
  assert.match(text, /came back as tool_calls \(Calculator\)/);
  await fake.script(script([], { no_cors: true }));
  await page.getByTestId("run-test").click();
  await page.waitForFunction(() => /CORS; the browser/.test(document.querySelector("[data-testid=run-test-result]")?.textContent || ""), null, { timeout: 30000 });
  await fake.script(script());
  assert.deepEqual(w.errors.filter((e) => !/CORS|Failed to load|net::ERR/.test(e)), []);
  await page.close();
});

test("Download all prompts on the Dataset page writes what apibank prompts writes: request bodies an endpoint takes as they are", async () => {
  const { page, w } = await newPage();
  await open(page, s.server.url, "/dataset");
  await page.getByTestId("prompts-form").selectOption("native");
  await set(page, "prompts-model", "fake-model");
  const text = await download(page, "download-prompts");
  assert.equal(text, cli(["prompts", "--form", "native", "--model", "fake-model"]));
  // Each line is the body a run sends: the fake takes it as it is.
  const first = text.slice(0, text.indexOf("\n"));
  const r = await fetch(fake.url + "/chat/completions", { method: "POST", headers: { authorization: "Bearer " + KEY, "content-type": "application/json" }, body: first });
  assert.equal(r.status, 200, await r.text());
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("Batch: the tab's input file is apibank batch prepare's, and its output file scores as apibank batch score and a live run of the same answers, kept as a batch run", async () => {
  await fake.script(script());
  const { page, w } = await newPage();
  const levels = ["level-1-given-desc", "level-2-toolsearcher"];
  await configure(page, { form: "native", levels, limit: 4 });
  const input = await download(page, "run-batch-prepare");
  const flags = ["--form", "native", "--limit", "4"];
  for (const l of levels) flags.push("--level", l);
  const cliIn = path.join(tmp, `batch-in-${Date.now()}.jsonl`);
  cli(["batch", "prepare", "--model", "fake-model", "--out", cliIn, ...flags]);
  assert.equal(input, readFileSync(cliIn, "utf8"), "the tab's batch input file is the CLI's, byte for byte");
  assert.equal(input.trim().split("\n").length, 8);

  // The provider (the fake) answers the file; the output goes back through the page.
  const output = await fake.batch(input);
  const outFile = path.join(tmp, `batch-out-${Date.now()}.jsonl`);
  (await import("node:fs")).writeFileSync(outFile, output);
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-batch-output").setInputFiles(outFile);
  await page.waitForSelector(`[data-testid=run-batch-loaded][data-output="${path.basename(outFile)}"]`);
  await page.getByTestId("run-batch-score").click();
  const p = await finished(page, before, 60000);
  assert.equal(p.state, "done");
  assert.equal(await page.$eval("[data-testid=run-progress]", (el) => el.dataset.source), "batch");
  const { run } = await savedRun(page, p.id);
  assert.equal(run.source, "batch");
  assert.equal(run.failures.length, 0);
  assert.equal(await page.getByTestId("run-accuracy").textContent(), (run.batch.report.overall.accuracy * 100).toFixed(1) + "%", "the page shows the saved run's accuracy");

  // The CLI scores the same output file to the same predictions and report; a live run of the
  // same answers gives them too.
  const preds = path.join(tmp, `batch-preds-${Date.now()}.jsonl`);
  const cliScore = JSON.parse(cli(["batch", "score", "--input", cliIn, "--output", outFile, "--out", preds, "--json"]));
  const tabJSONL = run.predictions.map((x) => JSON.stringify(x) + "\n").join("");
  assert.equal(tabJSONL, readFileSync(preds, "utf8"), "the tab's predictions are batch score's, byte for byte");
  assert.deepEqual(run.batch.report, cliScore.report);
  const live = cliRun({ form: "native", levels, limit: 4 });
  assert.equal(tabJSONL, live.jsonl, "a live run of the same answers gives the same predictions");
  assert.deepEqual(run.batch.report, live.summary.report, "and the same report");

  // A foreign line costs only itself: it is listed with its line, the rest is scored.
  const lines = output.trim().split("\n");
  const badFile = path.join(tmp, `batch-out-bad-${Date.now()}.jsonl`);
  (await import("node:fs")).writeFileSync(badFile, ["not json", ...lines.slice(1)].join("\n") + "\n");
  await page.getByTestId("run-batch-output").setInputFiles(badFile);
  await page.waitForSelector(`[data-testid=run-batch-loaded][data-output="${path.basename(badFile)}"]`);
  await page.getByTestId("run-batch-score").click();
  const p2 = await finished(page, p.id, 60000);
  assert.equal(p2.failed, 1, "the request whose line was lost is a failed request");
  const errs = await page.locator("[data-testid=run-batch-line-error]").allTextContents();
  assert.equal(errs.length, 1);
  assert.match(errs[0], /:1: not a batch output line/);

  await open(page, s.server.url, "/runs");
  await page.waitForSelector(`[data-testid=run-row][data-id="${p.id}"][data-source=batch]`);
  assert.match(await page.locator(`[data-testid=run-row][data-id="${p.id}"]`).textContent(), /batch/);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("Trials 2 runs the settings twice, keeps each trial, and the Runs page shows pass^k as apibank run --trials computes it", async () => {
  const { page, w } = await newPage();
  const levels = ["level-1-given-desc", "level-3"];
  await configure(page, { levels, limit: 3, trials: 2 });
  await page.getByTestId("run-start").click();
  // Both trials end (the second starts by itself when the first is done).
  let group = [];
  for (let i = 0; i < 600 && group.length < 2; i++) {
    await page.waitForTimeout(200);
    const { runs } = await idb(page);
    const all = runs.map((t) => JSON.parse(t)).filter((r) => r.group && r.settings.trials === 2);
    const newest = all.map((r) => r.group).sort().at(-1);
    group = all.filter((r) => r.group === newest && r.status === "done");
  }
  assert.equal(group.length, 2, "two trials of one group ran to their end");
  assert.deepEqual(group.map((r) => r.trial).sort(), [1, 2]);
  // The CLI's repeated trials of the same settings against the same fake.
  process.env.FAKE_MODEL_KEY = KEY;
  const out = path.join(tmp, `cli-trials-${Date.now()}.jsonl`);
  const args = ["run", "--base-url", fake.url, "--model", "fake-model", "--api-key-env", "FAKE_MODEL_KEY", "--form", "text", "--out", out, "--json", "--trials", "2", "--limit", "3"];
  for (const l of levels) args.push("--level", l);
  const cliStats = JSON.parse(cli(args)).pass_k;
  const trialFile = readFileSync(out.replace(/\.jsonl$/, ".trial-1.jsonl"), "utf8");
  const first = group.find((r) => r.trial === 1);
  assert.equal(first.predictions.map((p) => JSON.stringify(p) + "\n").join(""), trialFile.split("\n").filter((l) => l.includes('"pred"')).map((l) => l + "\n").join(""),
    "trial 1's predictions are the CLI's trial-1 file's");
  await open(page, s.server.url, "/runs");
  await page.waitForSelector(`[data-testid=trials-row][data-group="${first.group}"][data-level]`);
  const rows = await page.$$eval(`[data-testid=trials-row][data-group="${first.group}"]`, (els) => els.map((el) => ({ level: el.dataset.level, trials: Number(el.dataset.trials), passK: el.dataset.passK.split(",").map(Number) })));
  assert.deepEqual(rows.map((r) => r.level), cliStats.map((st) => st.level), "one row per level, as the CLI lists them");
  for (const [i, st] of cliStats.entries()) {
    assert.equal(rows[i].trials, 2);
    assert.deepEqual(rows[i].passK, st.pass_k, `${st.level}: the tab's pass^k equals the CLI's`);
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});
