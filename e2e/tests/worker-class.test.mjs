// Classes on the Worker: cmd/worker on workerd (`wrangler dev`, 127.0.0.1, no network) keeps them in
// the local D1 that wrangler runs for the binding "DB" (worker/wrangler.jsonc), through the same SQL
// store and handlers cmd/server uses over SQLite. The gold answer comes from the engine of a page the
// Worker served, never from a constant; every verdict checked is the Worker's own.
//
// The Worker runs with small class limits (Worker variables, as a deployment would set them) so the
// limits test reaches them in a few requests, and on a state folder of this file's own, so that it
// can be stopped and started again on the same local D1.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startWorker, launch, watch, open, engineRequest, goldText, textCarries, wranglerBin, wranglerEnv, workerDir } from "../lib.mjs";

/** limits are the Worker variables of the class limits for this file (the defaults are far larger). */
const limits = { CLASS_ANSWERS_PER_STUDENT: "4", CLASS_ANSWERS_PER_CLASS: "6", CLASS_CLASSES_PER_ADDRESS: "6" };

const s = { worker: null, browser: null, persist: mkdtempSync(path.join(tmpdir(), "apibank-worker-class-")), sample: null };

before(async () => {
  s.hour = Math.floor(Date.now() / 3600000);
  s.worker = await startWorker({ persist: s.persist, vars: limits });
  s.browser = await launch();
});

after(async () => {
  if (s.browser) await s.browser.close();
  if (s.worker) await s.worker.stop();
  rmSync(s.persist, { recursive: true, force: true });
});

/** d1 runs SQL on the stopped Worker's local D1 (`wrangler d1 execute --local` on its state folder). */
async function d1(sql) {
  const { stdout } = await promisify(execFile)(process.execPath, [wranglerBin(), "d1", "execute", "apibank-classes", "--local", "--persist-to", s.persist, "--json", "--command", sql], {
    cwd: workerDir,
    env: wranglerEnv(),
  });
  return JSON.parse(stdout);
}

/** call fetches p from the Worker on a connection of its own (see worker.test.mjs), saying what wrangler logged when it fails. */
async function call(p, init = {}) {
  try {
    return await fetch(s.worker.url + p, { ...init, headers: { Connection: "close", ...(init.headers || {}) } });
  } catch (err) {
    throw new Error(`${init.method || "GET"} ${p}: ${err.message}: ${err.cause && (err.cause.stack || err.cause)}\nwrangler:\n${s.worker.output.text.slice(-3000)}`);
  }
}

/** json sends a JSON body and resolves {status, body} with the answer parsed (the API answers JSON everywhere). */
async function json(method, p, body, key) {
  const headers = { "Content-Type": "application/json" };
  if (key) headers.Authorization = "Bearer " + key;
  const res = await call(p, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${p} answered ${res.status} with no JSON: ${text.slice(0, 300)}\nwrangler:\n${s.worker.output.text.slice(-3000)}`);
    }
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

test("the Worker keeps a class in D1: made, answered (judged by its engine), seen with the key, deleted", async () => {
  // The first level-1 call sample and its gold call, from the engine of a page the Worker served.
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.worker.url, "/classroom");
  const samples = await engineRequest(page, { op: "samples", level: "level-1-given-desc" });
  const first = samples.find((x) => x.kind === "call");
  const d = await engineRequest(page, { op: "dialogue", level: first.level, file: first.file });
  const goldTurn = d.turns.find((t) => t.line === first.gold_line);
  assert.ok(textCarries(goldTurn.param_dict), "the first exercise's gold call is writable in the text form");
  const builtinGold = goldText(goldTurn);
  const wrong = `[NoSuchTool()]`;
  assert.deepEqual(w.errors, [], "console errors:\n" + w.errors.join("\n"));
  await page.close();
  s.sample = { first, builtinGold };

  const made = await json("POST", "/api/v1/classes", { name: "Tools <b>101</b>" });
  assert.equal(made.status, 201, JSON.stringify(made.body) + "\nwrangler:\n" + s.worker.output.text.slice(-3000));
  const { class: code, teacher_key: key } = made.body;
  assert.match(code, /^[A-Z0-9]{6}$/);
  assert.ok(key && key.length >= 22, "a teacher key of at least 128 bits");

  const answers = `/api/v1/classes/${code}/answers`;
  const answer = (student, text, extra = {}) => ({ student, level: first.level, file: first.file, id: first.id, answer: text, ...extra });
  // Each student works on their own variant of the exercise: the builtin data's gold is wrong on
  // Ann's, and the answer names the variant it was judged on.
  const builtinAnswer = await json("POST", answers, answer("Ann", builtinGold));
  assert.equal(builtinAnswer.status, 200, JSON.stringify(builtinAnswer.body));
  assert.equal(builtinAnswer.body.correct, false, "the builtin data's gold on Ann's variant: " + JSON.stringify(builtinAnswer.body));
  const gold = await variantGold(builtinAnswer.body.seed);
  assert.notEqual(gold, builtinGold, "Ann's variant moves a value of the exercise's gold");
  // A gold answer with a forged wrong verdict is judged correct; a wrong answer with a forged
  // correct verdict is judged wrong: the request's verdict is never believed.
  const ann = await json("POST", answers, answer("Ann", gold, { verdict: "FAILED", correct: false }));
  assert.equal(ann.status, 200, JSON.stringify(ann.body));
  assert.equal(ann.body.correct, true, JSON.stringify(ann.body));
  assert.equal(ann.body.verdict, "CORRECT");
  assert.equal(ann.body.parity, false, "the forged verdict differs from the Worker's");
  const bo = await json("POST", answers, answer("Bo", wrong, { verdict: "CORRECT", correct: true }));
  assert.equal(bo.status, 200, JSON.stringify(bo.body));
  assert.equal(bo.body.correct, false, JSON.stringify(bo.body));
  assert.notEqual(bo.body.verdict, "CORRECT");

  // Bad answers: an unknown sample is 400 (never 5xx), an unknown class 404, malformed JSON 400,
  // a body over 64 KB 413, a name over 64 characters 400.
  const cases = [
    ["unknown sample", answers, answer("Ann", gold, { id: 998 }), 400, "bad_request"],
    ["unknown file", answers, answer("Ann", gold, { file: "NoSuch-level-1-1.jsonl" }), 400, "bad_request"],
    ["unknown class", "/api/v1/classes/QQQQQQ/answers", answer("Ann", gold), 404, "not_found"],
    ["malformed JSON", answers, "{", 400, "bad_request"],
    ["body over 64 KB", answers, answer("Ann", "x".repeat(65 << 10)), 413, "too_large"],
    ["name of 65 characters", answers, answer("é".repeat(65), gold), 400, "bad_request"],
  ];
  for (const [name, p, body, status, errCode] of cases) {
    const got = await json("POST", p, body);
    assert.equal(got.status, status, `${name}: ${JSON.stringify(got.body)}`);
    assert.equal(got.body.error.code, errCode, name);
    assert.ok(got.body.error.message, name + ": the error says what");
  }

  // The teacher's view: with the key the class and both answers with the Worker's verdicts; without
  // it or with a wrong one, 401.
  const view = await json("GET", `/api/v1/classes/${code}`, undefined, key);
  assert.equal(view.status, 200, JSON.stringify(view.body));
  assert.equal(view.body.class, code);
  assert.equal(view.body.name, "Tools <b>101</b>");
  assert.deepEqual(view.body.students.map((x) => x.student), ["Ann", "Bo"]);
  const [a, b] = view.body.students.map((x) => x.answers);
  assert.equal(a.length, 2);
  assert.equal(b.length, 1);
  assert.deepEqual(a.map((x) => [x.answer, x.correct, x.seed]), [[builtinGold, false, builtinAnswer.body.seed], [gold, true, builtinAnswer.body.seed]]);
  assert.deepEqual([a[1].answer, a[1].verdict, a[1].correct, a[1].file, a[1].id], [gold, "CORRECT", true, first.file, first.id]);
  assert.deepEqual([b[0].answer, b[0].verdict, b[0].correct], [wrong, bo.body.verdict, false]);
  assert.ok(!Number.isNaN(Date.parse(a[0].at)), "an answer has its time");
  for (const k of [undefined, "not-the-key"]) {
    const got = await json("GET", `/api/v1/classes/${code}`, undefined, k);
    assert.equal(got.status, 401, `key ${k}: ${JSON.stringify(got.body)}`);
    assert.equal(got.body.error.code, "unauthorized");
  }
  assert.equal((await json("DELETE", `/api/v1/classes/${code}`)).status, 401, "DELETE without the key");

  // DELETE with the key: 204, then the class answers 404 everywhere.
  const del = await json("DELETE", `/api/v1/classes/${code}`, undefined, key);
  assert.equal(del.status, 204);
  assert.equal((await json("GET", `/api/v1/classes/${code}`, undefined, key)).status, 404);
  assert.equal((await json("POST", answers, answer("Ann", gold))).status, 404);
  assert.equal((await json("DELETE", `/api/v1/classes/${code}`, undefined, key)).status, 404);

  // The teacher key never reached the Worker's log.
  assert.ok(!s.worker.output.text.includes(key), "the teacher key is in wrangler's output");
});

/**
 * variantGold is the gold call of the first exercise on the variant of the builtin data that seed
 * names, from the engine of a page the Worker served: what a student working on it writes. The page
 * is the home page, which loads no data of its own: the Classroom page puts the builtin data back
 * in its tab's engine as it mounts, which could land between this load and the dialogue read.
 */
async function variantGold(seed) {
  assert.ok(seed > 0, "the answer names its variant");
  const { first } = s.sample;
  const page = await s.browser.context.newPage();
  try {
    await open(page, s.worker.url, "/");
    await engineRequest(page, { op: "load", builtin: true, seed });
    const d = await engineRequest(page, { op: "dialogue", level: first.level, file: first.file });
    return goldText(d.turns.find((t) => t.line === first.gold_line));
  } finally {
    await page.close();
  }
}

/** answerOf is an answer of student to the first exercise (from the first test's page). */
function answerOf(student, text) {
  assert.ok(s.sample, "the first test found the exercise");
  const { first } = s.sample;
  return { student, level: first.level, file: first.file, id: first.id, answer: text };
}

test("a restarted Worker keeps its classes in D1, and its hourly sweep deletes the ones idle for 180 days", async () => {
  const kept = await json("POST", "/api/v1/classes", { name: "kept" });
  const idle = await json("POST", "/api/v1/classes", { name: "idle" });
  assert.equal(kept.status, 201, JSON.stringify(kept.body));
  assert.equal(idle.status, 201, JSON.stringify(idle.body));
  // Ann's variant in this class: found by a first answer, then answered right.
  const probe = await json("POST", `/api/v1/classes/${kept.body.class}/answers`, answerOf("Ann", s.sample.builtinGold));
  assert.equal(probe.status, 200, JSON.stringify(probe.body));
  const gold = await variantGold(probe.body.seed);
  const ann = await json("POST", `/api/v1/classes/${kept.body.class}/answers`, answerOf("Ann", gold));
  assert.equal(ann.status, 200, JSON.stringify(ann.body));
  assert.equal(ann.body.correct, true, JSON.stringify(ann.body));

  // Stopped, the idle class is made 181 days idle and the other 179, and the sweep's count of this
  // hour is dropped (as if the hour had passed); then the Worker starts again on the same state.
  await s.worker.stop();
  s.worker = null;
  const day = 24 * 3600 * 1000;
  await d1(
    `UPDATE classes SET active = ${Date.now() - 181 * day} WHERE code = '${idle.body.class}'; ` +
      `UPDATE classes SET active = ${Date.now() - 179 * day} WHERE code = '${kept.body.class}'; ` +
      `DELETE FROM hits WHERE name LIKE 'sweep%'`,
  );
  s.worker = await startWorker({ persist: s.persist, vars: limits });

  const view = await json("GET", `/api/v1/classes/${kept.body.class}`, undefined, kept.body.teacher_key);
  assert.equal(view.status, 200, "the class after a restart: " + JSON.stringify(view.body));
  assert.equal(view.body.name, "kept");
  assert.deepEqual(
    view.body.students.map((x) => [x.student, x.answers.map((a) => [a.correct, a.answer])]),
    [["Ann", [[false, s.sample.builtinGold], [true, gold]]]],
  );
  const gone = await json("GET", `/api/v1/classes/${idle.body.class}`, undefined, idle.body.teacher_key);
  assert.equal(gone.status, 404, "a class idle 181 days: " + JSON.stringify(gone.body));
});

/** window is the number of the clock's window of ms now (the limits' windows are aligned to the clock). */
const clockWindow = (ms) => Math.floor(Date.now() / ms);

/**
 * freshMinute waits for the next minute when less than 15 s of this one are left: an attempt's
 * answers (each judged on its student's own variant) then fall in one minute, as the Worker counts
 * them, and a retried attempt does not meet the answers of one that straddled the turn.
 */
async function freshMinute() {
  const left = 60000 - (Date.now() % 60000);
  if (left < 15000) await new Promise((r) => setTimeout(r, left + 250));
}

test("the Worker's class limits hold across its instances: 429 with Retry-After", async () => {
  // The Worker runs as many isolates, so only counts kept in D1 can reach a limit. A run is
  // tried again (up to 3 times) when the clock's minute turned during it.
  const made = await json("POST", "/api/v1/classes", { name: "limits" });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const per = Number(limits.CLASS_ANSWERS_PER_STUDENT);
  for (let attempt = 1; ; attempt++) {
    await freshMinute();
    const minute = clockWindow(60000);
    const got = [];
    for (let i = 0; i <= per; i++) got.push(await json("POST", `/api/v1/classes/${made.body.class}/answers`, answerOf(`Cy ${attempt}`, "[NoSuchTool()]")));
    if (clockWindow(60000) !== minute && attempt < 3) continue;
    got.slice(0, per).forEach((r, i) => assert.equal(r.status, 200, `answer ${i + 1} of ${per}: ${JSON.stringify(r.body)}`));
    const over = got[per];
    assert.equal(over.status, 429, `answer ${per + 1} in a minute: ${JSON.stringify(over.body)}`);
    assert.equal(over.body.error.code, "too_many_requests");
    const wait = Number(over.headers.get("retry-after"));
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${over.headers.get("retry-after")}: the seconds left of the minute`);
    break;
  }

  // Answers per class a minute: the class's students together, each under the student's limit.
  const perClass = Number(limits.CLASS_ANSWERS_PER_CLASS);
  const busy = await json("POST", "/api/v1/classes", { name: "class limit" });
  assert.equal(busy.status, 201, JSON.stringify(busy.body));
  for (let attempt = 1; ; attempt++) {
    await freshMinute();
    const minute = clockWindow(60000);
    const got = [];
    for (let i = 0; i <= perClass; i++) got.push(await json("POST", `/api/v1/classes/${busy.body.class}/answers`, answerOf(`Dee ${attempt} ${i}`, "[NoSuchTool()]")));
    if (clockWindow(60000) !== minute && attempt < 3) continue;
    got.slice(0, perClass).forEach((r, i) => assert.equal(r.status, 200, `the class's answer ${i + 1} of ${perClass}: ${JSON.stringify(r.body)}`));
    const over = got[perClass];
    assert.equal(over.status, 429, `the class's answer ${perClass + 1} in a minute: ${JSON.stringify(over.body)}`);
    assert.match(over.body.error.message, new RegExp(`class ${busy.body.class} took ${perClass} answers this minute`));
    assert.ok(Number(over.headers.get("retry-after")) >= 1, `Retry-After ${over.headers.get("retry-after")}`);
    break;
  }

  // Classes per address an hour: this file made some already; the limit is reached within it.
  const hour = clockWindow(3600000);
  const per2 = Number(limits.CLASS_CLASSES_PER_ADDRESS);
  let over = null;
  let made2 = 0;
  for (let i = 0; i <= per2 && !over; i++) {
    const r = await json("POST", "/api/v1/classes", { name: `more ${i}` });
    if (r.status === 429) over = r;
    else assert.equal(r.status, 201, JSON.stringify(r.body));
    if (r.status === 201) made2++;
  }
  assert.ok(over, `${per2 + 1} classes from one address in an hour, none refused`);
  // The classes the earlier tests made (6, before and after a restart, and above) count too, unless
  // the hour turned since.
  if (hour === s.hour && clockWindow(3600000) === hour) assert.ok(made2 < per2, `${made2} classes made here before the 429, after the file's 6`);
  assert.equal(over.body.error.code, "too_many_requests");
  const wait = Number(over.headers.get("retry-after"));
  assert.ok(wait >= 1 && wait <= 3600, `Retry-After ${over.headers.get("retry-after")}: the seconds left of the hour`);
});
