// Synthesizing data from the tab against cmd/fakemodel's generator (candidates that pass, and
// candidates that fail each stage in a known way): the prompt shown, the funnel and every
// rejection's stage and reason equal to `apibank synth` under wazero against the same generator,
// the accepted dialogues as this tab's data, the zip and training JSONL downloads, and the key never
// leaving for anywhere but the endpoint. Expected figures come from the CLI, never from constants.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, cli, session, startFakeModel, set } from "../lib.mjs";

const KEY = "sk-e2e-synth-" + Math.random().toString(36).slice(2);
const COUNT = 20;
const s = session();
let fake;
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-synth-"));

before(async () => {
  fake = await startFakeModel({ key: KEY, models: ["fake-model"], generator: {} });
});

after(async () => {
  if (fake) await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** download clicks a button and returns the bytes of the file it saves. */
async function download(page, testid) {
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testid).click()]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

/** cliSynth runs `apibank synth` against the fake and returns its funnel.json. */
function cliSynth(style = "simple", count = COUNT) {
  const out = path.join(tmp, "cli-" + style);
  process.env.FAKE_SYNTH_KEY = KEY;
  cli(["synth", "--base-url", fake.url, "--model", "fake-model", "--api-key-env", "FAKE_SYNTH_KEY", "--style", style, "--count", String(count), "--out", out]);
  return JSON.parse(readFileSync(path.join(out, "funnel.json"), "utf8"));
}

/** funnelOf reads the page's funnel rows and rejections. */
async function funnelOf(page) {
  const stages = await page.$$eval("[data-testid=synth-stage]", (rows) =>
    rows.map((r) => ({ stage: r.dataset.stage, entered: Number(r.dataset.entered), passed: Number(r.dataset.passed), failed: Number(r.dataset.failed) })));
  const rejections = await page.$$eval("[data-testid=synth-rejection]", (els) =>
    els.map((el) => ({ index: Number(el.dataset.index), stage: el.dataset.stage, reason: el.querySelector("[data-testid=synth-reason]").textContent.replace(/^ — /, "") })));
  const accepted = Number(await page.getAttribute("[data-testid=synth-accepted]", "data-count"));
  return { stages, rejections, accepted };
}

test("synthesize: the funnel and reasons equal the CLI's; the accepted dialogues become this tab's data and export", async () => {
  const want = cliSynth();
  assert.ok(want.funnel.accepted > 0 && want.funnel.rejections.length > 0, "the generator serves both kinds");

  const page = await s.browser.context.newPage();
  const w = watch(page);
  const carried = [];
  page.on("request", (req) => {
    const text = JSON.stringify(req.headers()) + (req.postData() || "");
    if (text.includes(KEY)) carried.push(new URL(req.url()).origin);
  });

  await open(page, s.server.url, "/run");
  await page.getByTestId("run-preset").selectOption("custom");
  await set(page, "run-base-url", fake.url);
  await set(page, "run-api-key", KEY);
  await set(page, "run-model", "fake-model");

  await open(page, s.server.url, "/synth");
  await page.waitForSelector("[data-testid=synth-endpoint]");
  assert.match(await page.textContent("[data-testid=synth-endpoint]"), /fake-model/);
  await page.getByTestId("synth-style").selectOption("simple");
  await set(page, "synth-count", COUNT);
  await page.waitForFunction((n) => (document.querySelector("[data-testid=synth-prompt]") || {}).textContent?.includes(`Candidate 1 of ${n}.`), COUNT);
  const prompt = await page.textContent("[data-testid=synth-prompt]");
  assert.ok(prompt.includes("Style simple") && prompt.includes('"request"'), "the prompt is shown with its rules and examples");
  assert.ok(prompt.includes(want.prompt.system), "the tab's prompt is the CLI's");

  await page.getByTestId("synth-start").click();
  await page.waitForSelector("[data-testid=synth-result][data-state=done]", { timeout: 120000 });

  const { stages, rejections, accepted } = await funnelOf(page);
  assert.deepEqual(stages, want.funnel.stages);
  assert.deepEqual(rejections, want.funnel.rejections);
  assert.equal(accepted, want.funnel.accepted);

  // The exports: a zip in the original layout, a training conversation per accepted dialogue.
  const zip = await download(page, "synth-download-zip");
  assert.match(zip.name, /^synth-simple-.*\.zip$/);
  assert.equal(zip.bytes.subarray(0, 2).toString("latin1"), "PK");
  for (const want of ["lv1-lv2-samples/level-1-given-desc/synth-simple-001.jsonl", "init_database/Account.json"]) {
    assert.ok(zip.bytes.includes(Buffer.from(want)), "the zip holds " + want);
  }
  const train = await download(page, "synth-download-jsonl");
  const lines = train.bytes.toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, accepted);
  for (const l of lines) {
    assert.equal(l.messages[0].role, "user");
    assert.ok(l.messages.some((m) => (m.tool_calls || []).some((c) => c.type === "function" && typeof c.function.arguments === "string")), "tool calls in OpenAI form");
  }
  assert.equal(train.bytes.toString("utf8"), readFileSync(path.join(tmp, "cli-simple", "training.jsonl"), "utf8"), "the tab's training JSONL is the CLI's");

  // The accepted dialogues become this tab's data, usable on the other pages.
  await page.getByTestId("synth-load").click();
  await page.waitForFunction(() => (document.querySelector("[data-testid=dataset-select]") || {}).value?.startsWith("synth-simple-"));
  // A reload at once keeps it: the tab answers the load only once the folder is kept for a reload.
  await page.reload();
  await page.waitForFunction(() => (document.querySelector("[data-testid=dataset-select]") || {}).value?.startsWith("synth-simple-"), null, { timeout: 60000 });
  // And inside the app, as a user goes on from here.
  await page.click("nav >> text=Dataset");
  await page.waitForSelector("[data-testid=dialogue-row]");
  assert.equal((await page.$$("[data-testid=dialogue-row]")).length, accepted);

  // A parallel synthesis on the synthesized data: its funnel equals the CLI's too.
  const par = cliSynth("parallel", 10);
  await open(page, s.server.url, "/dataset");
  await page.getByTestId("dataset-select").selectOption("builtin");
  await page.waitForFunction(() => document.querySelector("[data-testid=dataset-select]").value === "builtin");
  await open(page, s.server.url, "/synth");
  await page.waitForSelector("[data-testid=synth-style]");
  await page.getByTestId("synth-style").selectOption("parallel");
  await set(page, "synth-count", 10);
  await page.waitForFunction(() => (document.querySelector("[data-testid=synth-prompt]") || {}).textContent?.includes("Style parallel:"));
  await page.getByTestId("synth-start").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=synth-result]")?.dataset.state === "done" &&
    document.querySelector("[data-testid=synth-progress]")?.textContent.startsWith("10 of 10"), null, { timeout: 120000 });
  const parTab = await funnelOf(page);
  assert.deepEqual(parTab.stages, par.funnel.stages);
  assert.deepEqual(parTab.rejections, par.funnel.rejections);
  assert.equal(parTab.accepted, par.funnel.accepted);

  assert.deepEqual([...new Set(carried)], [new URL(fake.url).origin], "the key went only to the endpoint");
  const reqs = await fake.requests();
  assert.ok(reqs.some((r) => r.generated === "judge_no") && reqs.some((r) => r.generated === "bad_json"), "the generator served candidates and verdicts");
  assert.deepEqual(w.errors, []);
  await page.close();
});
