// An assignment link: exercises picked on the Classroom page, named on the Teach page, carried in
// the link's fragment; with the server stopped (after one visit), the link opens just that set, on
// the student's own variant once they give their name, and the tab judges its answers. Two students
// of one assignment get their own variants, the same after a reload, each right on their own gold
// only; the teacher's tab judges their submission files again on each one's variant and shows it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { watch, open, ready, offlineReady, session, launch, startServer, engineRequest, fits } from "../lib.mjs";

const s = session();

test("an assignment link opens just its set, offline", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/classroom");
  await offlineReady(page, ["/classroom"]);
  const title = async () => (await page.textContent("main h2")).trim();
  await page.waitForFunction(() => /^Exercise 1 of \d+/.test(document.querySelector("main h2")?.textContent));
  const first = await title();
  await page.getByTestId("classroom-pick").click();
  await page.getByTestId("classroom-next").click();
  await page.getByTestId("classroom-next").click();
  await page.waitForFunction(() => /^Exercise 3 of/.test(document.querySelector("main h2")?.textContent));
  const third = await title();
  await page.getByTestId("classroom-pick").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=classroom-picked]")?.textContent === "2 in the assignment");

  await open(page, s.server.url, "/teach");
  // The link is there before the set is named; the name's input re-renders it a moment later.
  await page.waitForFunction(() => document.querySelector("[data-testid=teach-assignment-link]")?.value.includes("/classroom#a="));
  const unnamed = await page.getByTestId("teach-assignment-link").inputValue();
  await page.getByTestId("teach-assignment-name").fill("Week 1 <i>tokens</i>");
  await page.waitForFunction((before) => document.querySelector("[data-testid=teach-assignment-link]").value !== before, unnamed);
  const link = await page.getByTestId("teach-assignment-link").inputValue();
  assert.ok(link.startsWith(s.server.url + "/classroom#a="), link);

  await s.server.stop();
  await page.goto("about:blank");
  await page.goto(link);
  await ready(page);
  await page.waitForSelector("[data-testid=classroom-assignment]");
  const banner = await page.getByTestId("classroom-assignment").textContent();
  assert.ok(banner.includes("Week 1 <i>tokens</i>") && banner.includes("2 exercises"), banner);
  // The exercises are made from the student's name: none before it is given.
  await page.waitForSelector("[data-testid=classroom-student-form]");
  assert.equal(await page.getByTestId("classroom-exercise").count(), 0);
  await page.getByTestId("classroom-submission-name").fill("Ann");
  await page.getByTestId("classroom-student-start").click();
  await page.waitForSelector("[data-testid=classroom-exercise][data-ready=true]", { timeout: 60000 });
  assert.ok(Number(await page.getByTestId("classroom-exercise").getAttribute("data-seed")) >= 1, "the student's own variant");
  await page.waitForFunction(() => /^Exercise 1 of 2/.test(document.querySelector("main h2")?.textContent));
  assert.equal((await title()).replace(/^Exercise \d+ of \d+/, ""), first.replace(/^Exercise \d+ of \d+/, ""));
  await page.getByTestId("classroom-input").fill("[NoSuchTool(x='1')]");
  await page.getByTestId("classroom-check").click();
  await page.waitForSelector("[data-testid=classroom-verdict]");
  await page.getByTestId("classroom-next").click();
  await page.waitForFunction(() => /^Exercise 2 of 2/.test(document.querySelector("main h2")?.textContent));
  assert.equal((await title()).replace(/^Exercise \d+ of \d+/, ""), third.replace(/^Exercise \d+ of \d+/, ""));
  assert.ok(await page.getByTestId("classroom-next").isDisabled(), "the set ends there");
  assert.deepEqual(w.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to fetch|ERR_FAILED/.test(e)), []);
  await page.close();
});

/** assignmentLink is the link of an assignment of the given exercises, as the Teach page writes it. */
function assignmentLink(base, name, items) {
  const json = JSON.stringify({ n: name, x: items.map((x) => ({ l: x.level, f: x.file, i: x.id })) });
  return base + "/classroom#a=" + Buffer.from(json).toString("base64url");
}

test("two students of an assignment get their own variants; the teacher judges each on theirs", async () => {
  const server = await startServer();
  const people = [];
  try {
    const ann = await launch();
    people.push(ann);
    const annPage = await ann.context.newPage();
    const annW = watch(annPage);
    await open(annPage, server.url, "/classroom");
    const samples = await engineRequest(annPage, { op: "samples", level: "level-1-given-desc" });
    const first = samples.find((x) => x.kind === "call");
    const link = assignmentLink(server.url, "Week 2", [first]);

    /** student opens the link in page, gives the name, and returns what the exercise shows. */
    async function student(page, name) {
      await page.goto("about:blank");
      await page.goto(link);
      await ready(page);
      await page.getByTestId("classroom-submission-name").fill(name);
      await page.getByTestId("classroom-student-start").click();
      return shown(page);
    }
    async function shown(page) {
      await page.waitForSelector("[data-testid=classroom-exercise][data-ready=true]", { timeout: 60000 });
      const seed = Number(await page.getByTestId("classroom-exercise").getAttribute("data-seed"));
      const chat = await page.getByTestId("classroom-chat").textContent();
      const pr = await engineRequest(page, { op: "prompt", level: first.level, file: first.file, sample: first.id });
      return { seed, chat, gold: pr.gold };
    }
    async function check(page, text) {
      await page.getByTestId("classroom-input").fill(text);
      await page.getByTestId("classroom-check").click();
      await page.waitForFunction(() => document.querySelector("[data-testid=classroom-attempts]")?.textContent.startsWith("Attempts: 1"));
      return page.getByTestId("classroom-verdict").getAttribute("data-category");
    }
    async function submission(page) {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("classroom-submission").click()]);
      return { name: download.suggestedFilename(), mimeType: "application/json", buffer: readFileSync(await download.path()) };
    }

    const annX = await student(annPage, "Ann");
    assert.ok(annX.seed >= 1);
    await annPage.reload();
    await ready(annPage);
    assert.equal(await annPage.getByTestId("classroom-student").textContent(), "Ann", "the name is kept");
    assert.deepEqual(await shown(annPage), annX, "Ann's variant is the same after a reload");

    const bo = await launch();
    people.push(bo);
    const boPage = await bo.context.newPage();
    const boW = watch(boPage);
    const boX = await student(boPage, "Bo");
    assert.notEqual(boX.seed, annX.seed);
    assert.notEqual(boX.gold, annX.gold, "the same exercise has another answer for Bo");
    assert.notEqual(boX.chat, annX.chat, "Bo reads other values in the same exercise");

    assert.equal(await check(annPage, annX.gold), "CORRECT", "Ann's own gold is right for her");
    assert.notEqual(await check(boPage, annX.gold), "CORRECT", "Ann's gold is not right for Bo");
    const files = [await submission(annPage), await submission(boPage)];

    // The teacher (in Ann's browser: another page, the same builtin data) imports both files.
    const teacher = await ann.context.newPage();
    const teacherW = watch(teacher);
    await open(teacher, server.url, "/teach");
    await teacher.getByTestId("teach-submissions").setInputFiles(files);
    await teacher.waitForFunction(() => document.querySelectorAll("[data-testid=teach-sub-variants-row]").length === 2, null, { timeout: 60000 }).catch(async (e) => {
      throw new Error(e.message + "\nthe page says: " + (await teacher.textContent("main")));
    });
    const rows = await teacher.$$eval("[data-testid=teach-sub-variants-row]", (trs) => trs.map((tr) => ({
      student: tr.dataset.student, seed: Number(tr.dataset.seed),
      gold: tr.querySelector("[data-testid=teach-sub-variants-gold]").textContent,
      request: tr.querySelector("[data-testid=teach-sub-variants-request]").textContent,
      correct: tr.querySelector("[data-testid=teach-sub-variants-verdict]").dataset.correct,
    })));
    assert.deepEqual(rows.map((r) => [r.student, r.seed, r.gold, r.correct]), [["Ann", annX.seed, annX.gold, "true"], ["Bo", boX.seed, boX.gold, "false"]]);
    for (const [i, x] of [annX, boX].entries()) {
      assert.ok(rows[i].request && x.chat.includes(rows[i].request), `the request the teacher sees is the one ${rows[i].student} read: ${rows[i].request}`);
    }
    // The submissions' tables on a desktop and on a phone: no sideways scroll, no word broken.
    for (const width of [1280, 390]) {
      await teacher.setViewportSize({ width, height: 900 });
      await fits(teacher, "/teach (two submissions judged)");
    }
    for (const w of [annW, boW, teacherW]) assert.deepEqual(w.errors, []);
  } finally {
    for (const p of people) await p.close();
    await server.stop();
  }
});
