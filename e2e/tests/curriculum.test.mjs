// The curriculum and submission files: a student opens a unit of the Classroom, solves its first
// exercise and the unit's progress says so; two students without a class download their submission
// files of an assignment link (one of them then forges a verdict in it), and the teacher's tab
// imports both and judges every answer again with its own engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, session, engineRequest, goldText, textCarries } from "../lib.mjs";

const s = session();

/** goldOf is the text form of the gold call of an exercise (level, file and the sample's id). */
async function goldOf(page, level, file, id) {
  const samples = await engineRequest(page, { op: "samples", level });
  const x = samples.find((v) => v.file === file && v.id === id);
  const d = await engineRequest(page, { op: "dialogue", level, file });
  const turn = d.turns.find((t) => t.line === x.gold_line);
  assert.ok(textCarries(turn.param_dict), `${file} #${id}: the gold call is writable in the text form`);
  return goldText(turn);
}

test("a student opens a unit, solves an exercise, and the unit shows 1 of N", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/classroom");
  await page.waitForSelector("[data-testid=unit][data-unit=first-call]");
  const units = await page.$$eval("[data-testid=unit]", (els) => els.map((e) => e.dataset.unit));
  assert.deepEqual(units, ["first-call", "from-the-conversation", "several-calls", "parallel", "when-not-to-call", "tool-search", "scene"]);
  await page.click("[data-testid=unit][data-unit=first-call]");
  await page.waitForSelector("[data-testid=unit-example] code");
  assert.match(await page.textContent("[data-testid=unit-example] code"), /^\[\w+\(.*\)\]$/, "the worked example shows its gold call");
  await page.waitForFunction(() => /^Exercise 1 of \d+ · /.test(document.querySelectorAll("main h2")[1]?.textContent));
  const heading = await page.evaluate(() => document.querySelectorAll("main h2")[1].textContent);
  const [, n, file] = heading.match(/^Exercise 1 of (\d+) · (.+)$/);
  // The unit's first exercise is a first call: the dialogue's first call sample.
  const samples = await engineRequest(page, { op: "samples", level: "level-1-given-desc" });
  const id = Math.min(...samples.filter((v) => v.file === file && v.kind === "call").map((v) => v.id));
  await page.getByTestId("classroom-input").fill(await goldOf(page, "level-1-given-desc", file, id));
  await page.getByTestId("classroom-check").click();
  await page.waitForSelector("[data-testid=classroom-verdict][data-category=CORRECT]");
  await page.waitForFunction((n) => document.querySelector("[data-testid=classroom-progress]").textContent.trim() === `1 of ${n} solved`, n);
  const unitProgress = await page.$eval("[data-testid=unit][data-unit=first-call] + [data-testid=unit-progress]", (e) => e.textContent.trim());
  assert.equal(unitProgress, `1 of ${n} solved`);
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("submission files of an assignment are judged again by the teacher's tab; a forged verdict is not believed", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "apibank-subs-"));
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/classroom");
  const samples = (await engineRequest(page, { op: "samples", level: "level-1-given-desc" })).filter((v) => v.kind === "call");
  // Two exercises whose gold calls the text form writes.
  const picked = [];
  for (const x of samples) {
    const d = await engineRequest(page, { op: "dialogue", level: x.level, file: x.file });
    if (textCarries(d.turns.find((t) => t.line === x.gold_line).param_dict)) picked.push(x);
    if (picked.length === 2) break;
  }
  const frag = Buffer.from(JSON.stringify({ n: "Week 2", x: picked.map((x) => ({ l: x.level, f: x.file, i: x.id })) })).toString("base64url");
  const link = s.server.url + "/classroom#a=" + frag;

  /** submit answers the set as one student and downloads the submission file (see GOLD). */
  async function submit(name, answers) {
    await page.goto("about:blank");
    await page.goto(link);
    await page.waitForSelector("[data-testid=classroom-assignment]");
    // Another student: a tab with no progress of its own.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForSelector("[data-testid=classroom-submission-name]");
    // The exercises are made from the name (each student's own variant).
    await page.getByTestId("classroom-submission-name").fill(name);
    await page.getByTestId("classroom-student-start").click();
    await page.waitForFunction(() => /^Exercise 1 of 2/.test(document.querySelector("main h2")?.textContent));
    for (let i = 0; i < answers.length; i++) {
      await page.waitForFunction((i) => new RegExp(`^Exercise ${i + 1} of 2`).test(document.querySelector("main h2")?.textContent), i);
      await page.waitForSelector("[data-testid=classroom-exercise][data-ready=true]", { timeout: 60000 });
      // GOLD: the student's own variant's gold call, as the tab's engine (holding that variant) gives it.
      const text = answers[i] === GOLD ? (await engineRequest(page, { op: "prompt", level: picked[i].level, file: picked[i].file, sample: picked[i].id })).gold : answers[i];
      if (answers[i] === GOLD) gold0 = text;
      await page.getByTestId("classroom-input").fill(text);
      await page.getByTestId("classroom-check").click();
      await page.waitForFunction(() => document.querySelector("[data-testid=classroom-attempts]")?.textContent.startsWith("Attempts: 1"));
      if (i + 1 < answers.length) await page.getByTestId("classroom-next").click();
    }
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("classroom-submission").click()]);
    assert.equal(download.suggestedFilename(), `submission-${name}.json`);
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, readFileSync(await download.path()));
    return file;
  }

  const GOLD = Symbol("gold");
  let gold0 = "";
  const ann = await submit("Ann", [GOLD, "[NoSuchTool(x='1')]"]);
  const sub = JSON.parse(readFileSync(ann, "utf8"));
  assert.equal(sub.format, "apibank-submission/1");
  assert.deepEqual(sub.answers.map((a) => [a.file, a.id, a.answer, a.attempts, a.correct]),
    [[picked[0].file, picked[0].id, gold0, 1, true], [picked[1].file, picked[1].id, "[NoSuchTool(x='1')]", 1, false]]);

  const bo = await submit("Bo", ["[NoSuchTool(x='2')]"]);
  const forged = JSON.parse(readFileSync(bo, "utf8"));
  assert.equal(forged.answers[0].correct, false);
  for (const a of forged.answers) a.correct = true;
  writeFileSync(bo, JSON.stringify(forged));

  await open(page, s.server.url, "/teach");
  await page.getByTestId("teach-submissions").setInputFiles([ann, bo]);
  await page.waitForSelector("[data-testid=teach-sub-table]");
  const table = await page.$$eval("[data-testid=teach-sub-table] tbody tr", (rows) => rows.map((r) => [r.dataset.student, ...[...r.querySelectorAll("[data-testid=teach-sub-cell]")].map((c) => c.dataset.correct + ":" + c.dataset.category)]));
  assert.equal(table.length, 2);
  assert.deepEqual(table[0].slice(0, 2), ["Ann", "true:CORRECT"]);
  assert.notEqual(table[0][2].split(":")[0], "true", "Ann's wrong answer stays wrong");
  assert.equal(table[1][0], "Bo");
  assert.ok(table[1][1].startsWith("false:") && table[1][1] !== "false:CORRECT", `Bo's forged verdict is not believed: ${table[1][1]}`);
  assert.equal(table[1][2], "false:NOT_ANSWERED");
  assert.deepEqual(w.errors, []);
  await page.close();
  rmSync(dir, { recursive: true, force: true });
});
