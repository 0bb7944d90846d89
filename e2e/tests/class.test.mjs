// A class on the server (cmd/server --db, SQLite; with APIBANK_E2E_TARGET=worker the Worker, D1): a
// teacher makes a class on the Teach page, two students in two browser contexts join it from the
// student link and answer, each on their own variant of the exercise (different values, the same
// after a reload; one of them offline first: the answer waits in the tab and goes when the tab is
// back online), each judged right only on their own variant's gold; the teacher sees both with the
// server's verdicts and each one's variant and expected answer, exports the CSV, and deletes the
// class.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer, startWorker, chromiumPath, chromiumArgs, watch, ready, engineRequest, goldText, fits } from "../lib.mjs";

let server, browser, dir;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "apibank-class-"));
  // With APIBANK_E2E_TARGET=worker the same test runs against the Worker on workerd, its classes in
  // the local D1 wrangler runs.
  server = process.env.APIBANK_E2E_TARGET === "worker" ? await startWorker() : await startServer(["--db", path.join(dir, "classes.db")]);
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** person opens a page in a browser context of its own (its own storage: another person's tab). */
async function person(p) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const w = watch(page);
  await page.goto(server.url + p);
  await ready(page);
  return { context, page, w };
}

/** pageErrors are the console errors other than the browser's own report of a fetch made offline. */
const pageErrors = (w) => w.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|Failed to load resource/.test(e));

test("a teacher makes a class, two students answer, the teacher sees both, exports CSV and deletes it", async () => {
  const teacher = await person("/teach");
  await teacher.page.getByTestId("teach-name").fill("Tools 101");
  await teacher.page.getByTestId("teach-create").click();
  await teacher.page.waitForSelector("[data-testid=teach-code]");
  const code = (await teacher.page.getByTestId("teach-code").textContent()).trim();
  assert.match(code, /^[A-Z0-9]{6}$/);
  const studentLink = await teacher.page.getByTestId("teach-student-link").inputValue();
  assert.equal(studentLink, server.url + "/classroom?class=" + code);
  const teacherLink = await teacher.page.getByTestId("teach-teacher-link").inputValue();
  const key = new URLSearchParams(new URL(teacherLink).hash.slice(1)).get("key");
  assert.ok(key && key.length >= 43, "the teacher link carries the key in its fragment");
  await teacher.page.waitForSelector("[data-testid=teach-empty]");

  // The first exercise, and its gold call in the builtin data, from a student's own engine.
  const ann = await person(new URL(studentLink).pathname + "?class=" + code);
  const samples = await engineRequest(ann.page, { op: "samples", level: "level-1-given-desc" });
  const first = samples.find((x) => x.kind === "call");
  const d = await engineRequest(ann.page, { op: "dialogue", level: first.level, file: first.file });
  const builtinGold = goldText(d.turns.find((t) => t.line === first.gold_line));

  /** shown is the exercise the student's page shows once its variant is loaded: its seed, its dialogue's text, and its gold call as the tab's engine (holding that variant) gives it. */
  async function shown(s) {
    await s.page.waitForSelector("[data-testid=classroom-exercise][data-ready=true]", { timeout: 60000 }).catch(async (e) => {
      throw new Error(e.message + "\nthe page says: " + (await s.page.textContent("main")) + "\nerrors: " + s.w.errors.join("\n"));
    });
    const seed = Number(await s.page.getByTestId("classroom-exercise").getAttribute("data-seed"));
    const chat = await s.page.getByTestId("classroom-chat").textContent();
    const pr = await engineRequest(s.page, { op: "prompt", level: first.level, file: first.file, sample: first.id });
    return { seed, chat, gold: pr.gold };
  }
  async function join(s, name) {
    await s.page.getByTestId("class-name-input").fill(name);
    await s.page.getByTestId("class-join").click();
    await s.page.waitForSelector("[data-testid=class-joined]");
    assert.equal(await s.page.getByTestId("class-student").textContent(), name);
    await s.page.waitForFunction((f) => document.querySelector("main h2")?.textContent.includes(f), first.file);
    const x = await shown(s);
    assert.ok(x.seed >= 1, "a class's student gets a variant of their own");
    return x;
  }
  async function answer(s, text) {
    await s.page.getByTestId("classroom-input").fill(text);
    await s.page.getByTestId("classroom-check").click();
    await s.page.waitForSelector("[data-testid=classroom-verdict]");
  }
  const judged = async (s) => {
    try {
      await s.page.waitForSelector("[data-testid=class-server-verdict][data-state=judged]", { timeout: 30000 });
    } catch (e) {
      throw new Error(e.message + "\nthe page says: " + (await s.page.textContent("main")) + "\nerrors: " + s.w.errors.join("\n"));
    }
  };

  const annX = await join(ann, "Ann");
  assert.notEqual(annX.gold, builtinGold, "Ann's exercise is not the builtin data's");
  // The same exercise again after a reload.
  await ann.page.reload();
  await ready(ann.page);
  assert.deepEqual(await shown(ann), annX, "Ann's variant is the same after a reload");
  await answer(ann, annX.gold);
  await judged(ann);
  assert.equal(await ann.page.getByTestId("class-server-verdict").getAttribute("data-category"), "CORRECT");

  // Bo gets other values in the same exercise. He is offline when he checks Ann's answer: the tab
  // judges it at once (wrong on his variant), the answer waits, and goes once he is back.
  const bo = await person("/classroom?class=" + code.toLowerCase());
  const boName = "Bo <b>Tables</b>";
  const boX = await join(bo, boName);
  assert.notEqual(boX.seed, annX.seed);
  assert.notEqual(boX.gold, annX.gold, "Ann and Bo have different answers to the same exercise");
  assert.notEqual(boX.chat, annX.chat, "Ann and Bo read different values in the same exercise");
  await bo.context.setOffline(true);
  await answer(bo, annX.gold);
  await bo.page.waitForSelector("[data-testid=class-server-verdict][data-state=waiting]");
  await bo.page.waitForFunction(() => /out of reach/.test(document.querySelector("[data-testid=class-status]").textContent), null, { timeout: 20000 });
  await bo.context.setOffline(false);
  await judged(bo);
  const boVerdict = await bo.page.getByTestId("class-server-verdict").getAttribute("data-category");
  assert.notEqual(boVerdict, "CORRECT");
  assert.equal(await bo.page.getByTestId("classroom-verdict").getAttribute("data-category"), boVerdict, "the tab and the server agree");
  // His own variant's gold is right, on the tab and on the server.
  await answer(bo, boX.gold);
  await bo.page.waitForSelector("[data-testid=classroom-verdict][data-category=CORRECT]");
  await bo.page.waitForSelector("[data-testid=class-server-verdict][data-state=judged][data-category=CORRECT]", { timeout: 30000 });

  // The teacher sees both, names as typed (text, not markup).
  await teacher.page.getByTestId("teach-refresh").click();
  await teacher.page.waitForFunction(() => document.querySelectorAll("[data-testid=teach-table] tr[data-student]").length === 2).catch(async (e) => {
    throw new Error(e.message + "\nthe page says: " + (await teacher.page.textContent("main")));
  });
  const rows = await teacher.page.$$eval("[data-testid=teach-table] tr[data-student]", (trs) =>
    trs.map((tr) => ({ name: tr.querySelector("th").textContent, bold: tr.querySelectorAll("b").length, cell: tr.querySelector("td").dataset })));
  assert.deepEqual(rows.map((r) => r.name), ["Ann", boName]);
  assert.equal(rows[1].bold, 0, "a student's name is shown as text");
  assert.equal(rows[0].cell.solved, "true");
  assert.equal(rows[1].cell.solved, "true");
  assert.equal(rows[1].cell.attempts, "2");
  assert.equal(rows[0].cell.seed, String(annX.seed), "the teacher's table names Ann's variant");
  assert.equal(rows[1].cell.seed, String(boX.seed), "the teacher's table names Bo's variant");

  // The teacher reads each student's variant: the seed, what they were asked, the right answer.
  for (const [i, x] of [annX, boX].entries()) {
    await teacher.page.locator("[data-testid=teach-read-variants]").nth(i).click();
    await teacher.page.waitForFunction((n) => document.querySelectorAll("[data-testid=teach-variants-row]").length === n, i + 1, { timeout: 60000 }).catch(async (e) => {
      throw new Error(e.message + "\nthe page says: " + (await teacher.page.textContent("main")));
    });
    const row = teacher.page.locator("[data-testid=teach-variants-row]").nth(i);
    assert.equal(await row.getAttribute("data-seed"), String(x.seed));
    assert.equal(await row.getAttribute("data-student"), [ "Ann", boName ][i]);
    assert.equal(await row.getByTestId("teach-variants-gold").textContent(), x.gold, "the teacher sees the student's expected answer");
    const request = await row.getByTestId("teach-variants-request").textContent();
    assert.ok(request.length > 0 && x.chat.includes(request), `the request the teacher sees is the one the student read: ${request}`);
  }
  assert.equal(await teacher.page.locator("[data-testid=teach-variants] b").count(), 0, "a student's name is shown as text");
  assert.ok((await teacher.page.getByTestId("teach-wrong").first().textContent()).includes(boVerdict), "the common wrong answers name Bo's category");
  // The class's table and the variants read, on a desktop and on a phone: the page does not scroll
  // sideways (a wide table scrolls in its box) and no table breaks a word over lines.
  for (const width of [1280, 390]) {
    await teacher.page.setViewportSize({ width, height: 900 });
    await fits(teacher.page, "/teach (a class, each student's variants shown)");
  }
  await teacher.page.setViewportSize({ width: 1200, height: 900 });

  const [download] = await Promise.all([teacher.page.waitForEvent("download"), teacher.page.getByTestId("teach-csv").click()]);
  assert.equal(download.suggestedFilename(), `class-${code}.csv`);
  const csv = readFileSync(await download.path(), "utf8");
  assert.ok(csv.startsWith("class,student,level,file,id,answer,verdict,correct,at\n"), csv);
  assert.ok(csv.includes(`${code},Ann,level-1-given-desc,${first.file},${first.id},`) && csv.includes(",CORRECT,true,"), csv);
  assert.ok(csv.includes(boName) && csv.includes(`${boVerdict},false`), csv);
  const api = await (await fetch(`${server.url}/api/v1/classes/${code}`, { headers: { Authorization: "Bearer " + key } })).json();
  assert.deepEqual(api.students.map((s) => s.answers.map((a) => a.seed)), [[annX.seed], [boX.seed, boX.seed]], "the API names each answer's variant");

  await teacher.page.getByTestId("teach-delete").click();
  await teacher.page.getByTestId("teach-delete-confirm").click();
  await teacher.page.waitForFunction((c) => document.querySelector("main").textContent.includes(`Class ${c} is deleted`), code).catch(async (e) => {
    throw new Error(e.message + "\nthe page says: " + (await teacher.page.textContent("main")));
  });
  const res = await fetch(`${server.url}/api/v1/classes/${code}`, { headers: { Authorization: "Bearer " + key } });
  assert.equal(res.status, 404, "the deleted class is gone from the server");

  for (const s of [teacher, ann, bo]) {
    assert.deepEqual(pageErrors(s.w), []);
    await s.context.close();
  }
});

test("on one computer, a learner alone and two class students in turn each keep their own progress and verdicts; a code that cannot be a class's is refused at once", async () => {
  const res = await fetch(server.url + "/api/v1/classes", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Shared lab" }) });
  assert.equal(res.status, 201);
  const { class: code } = await res.json();
  const lab = await person("/classroom");
  const attempts = async () => (await lab.page.getByTestId("classroom-attempts").textContent()).trim();
  const exercise = async () => {
    await lab.page.waitForSelector("[data-testid=classroom-exercise][data-ready=true]", { timeout: 60000 });
    return lab.page.$eval("main h2", (h) => h.textContent);
  };

  // A learner alone solves the first exercise with the builtin data's answer.
  const first = await exercise();
  const pr = await engineRequest(lab.page, { op: "prompt", level: "level-1-given-desc", file: first.split(" · ")[1], sample: 0 });
  await lab.page.getByTestId("classroom-input").fill(pr.gold);
  await lab.page.getByTestId("classroom-check").click();
  await lab.page.waitForSelector("[data-testid=classroom-verdict][data-category=CORRECT]");
  assert.match(await attempts(), /Attempts: 1 · solved/);

  // Cy joins the class on the same computer: the first exercise is hers to solve, on her variant.
  const join = async (name) => {
    await lab.page.goto(server.url + "/classroom?class=" + code);
    await ready(lab.page);
    await lab.page.getByTestId("class-name-input").fill(name);
    await lab.page.getByTestId("class-join").click();
    await lab.page.waitForSelector("[data-testid=class-joined]");
    assert.equal(await exercise(), first, `${name} starts at the first exercise: none of hers is solved`);
    assert.equal(await attempts(), "Attempts: 0", `${name} inherits no attempt`);
    assert.equal(await lab.page.locator("[data-testid=class-server-verdict]").count(), 0, `${name} sees no server verdict she did not ask for`);
  };
  await join("Cy");
  await lab.page.getByTestId("classroom-input").fill(pr.gold); // the builtin data's answer: wrong on her variant
  await lab.page.getByTestId("classroom-check").click();
  await lab.page.waitForSelector("[data-testid=classroom-verdict]");
  await lab.page.waitForSelector("[data-testid=class-server-verdict][data-state=judged]", { timeout: 30000 });
  assert.equal(await attempts(), "Attempts: 1", "Cy's wrong answer is her first attempt, not solved");

  // Cy leaves; Dee joins on the same computer: Cy's attempt and verdict are not hers.
  await lab.page.getByTestId("class-leave").click();
  await join("Dee");

  // A code with a character no class code holds is refused before anything is sent.
  await lab.page.goto(server.url + "/classroom?class=ZZZZZ9");
  await ready(lab.page);
  await lab.page.getByTestId("class-name-input").fill("Eve");
  await lab.page.getByTestId("class-join").click();
  await lab.page.waitForFunction(() => /“ZZZZZ9” is not a class code: a class code is 6 of the letters and digits ACDEFGHJKMNPQRTWXY345679/.test(document.querySelector("main").textContent));
  assert.equal(await lab.page.locator("[data-testid=class-joined]").count(), 0, "Eve is not joined to a class that cannot exist");
  assert.deepEqual(pageErrors(lab.w), []);
  await lab.context.close();
});
