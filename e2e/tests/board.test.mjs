// The board from the tab (cmd/server --db, SQLite; with APIBANK_E2E_TARGET=worker the Worker, D1):
// two runs of the perfect model (cmd/fakemodel --gold) made on the Run page — a partial one (level 1,
// its first samples) and a complete one (every sample of level 2) — submitted from the Runs page;
// the board shows the partial one unranked with why and ranks the complete one in its level; its
// verdicts open and filter, its predictions download as the run wrote them and score in another tab
// to the numbers the board shows; it is retracted with the key this browser kept, the partial one,
// its key no longer kept, with a pasted key (a wrong key first); the page fits 390 px and axe finds
// nothing serious. The model's name is markup, shown as text. Where the site has no board server, the
// page shows a static export's board.json, read only. Expected numbers come from the
// board's own answers and the Score page, never from constants.
//
// A board of a season (cmd/server --board-season 7): runs made with apibank run (--seed 7 and
// without) against the perfect model of the variant, submitted with apibank submit; the page says
// which season it ranks and since when, how to run on it, ranks the season's run and lists the
// original-data run apart, saying in words on which data it was made.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, session, startFakeModel, startServer, goBinary, fillRunForm, launch, fits, axe, pasteAndScore } from "../lib.mjs";

const s = session({ db: true });
let fake;
/** MODEL is markup: every page must show it as text. */
const MODEL = `perfect<img src=x onerror="window.__injected=1">`;
const L1 = "level-1-given-desc";
const L2 = "level-2-toolsearcher";

before(async () => {
  fake = await startFakeModel(null, ["--gold", "builtin"]);
});

after(async () => {
  if (fake) await fake.stop();
});

/** runFromTab runs the perfect model from the Run page and returns the ended run's id. */
async function runFromTab(page, opts) {
  await fillRunForm(page, { baseURL: fake.url, key: "sk-board", model: MODEL, concurrency: 8, ...opts });
  const before = await page.$eval("[data-testid=run-progress]", (el) => el.dataset.id).catch(() => "");
  await page.getByTestId("run-start").click();
  await page.waitForFunction((b) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && el.dataset.id && el.dataset.id !== b;
  }, before, { timeout: 120000, polling: 100 });
  const p = await page.$eval("[data-testid=run-progress]", (el) => ({ ...el.dataset }));
  assert.equal(p.state, "done", "the run ended done");
  return p.id;
}

/** submit opens a run on the Runs page and submits it; returns the entry id, the owner key and the run's exported predictions. */
async function submit(page, id) {
  await open(page, s.server.url, "/runs");
  await page.click(`[data-testid=run-row][data-id="${id}"] [data-testid=run-open]`);
  await page.waitForSelector("[data-testid=run-view]");
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-jsonl").click()]);
  const exported = readFileSync(await d.path(), "utf8");
  await page.getByTestId("run-submit").click();
  const done = await page.waitForSelector("[data-testid=run-submitted], [data-testid=run-submit-error]", { timeout: 60000 });
  assert.equal(await done.getAttribute("data-testid"), "run-submitted", await done.textContent());
  const entry = await done.getAttribute("data-entry");
  const key = await page.getByTestId("owner-key").inputValue();
  assert.match(entry, /^[0-9a-f]{12}$/);
  assert.ok(key.length >= 32, "an owner key is shown");
  assert.match(await done.textContent(), /shown this once/);
  return { entry, key, exported };
}

/** row reads an entry's row on the Board page. */
async function row(page, id) {
  const r = page.locator(`[data-testid=board-row][data-id="${id}"]`);
  await r.waitFor();
  return r.evaluate((el) => ({
    section: el.dataset.section,
    rank: el.querySelector("[data-testid=board-rank]")?.textContent || "",
    text: el.textContent,
    imgs: el.querySelectorAll("img").length,
    right: Number(el.querySelector("[data-testid=board-accuracy]")?.dataset.right),
    judged: Number(el.querySelector("[data-testid=board-accuracy]")?.dataset.judged),
    accuracy: el.querySelector("[data-testid=board-accuracy] strong")?.textContent,
    rouge: el.querySelector("[data-testid=board-rouge]")?.textContent,
    special: el.querySelector("[data-testid=board-special]")?.textContent,
  }));
}

test("runs submitted from the Runs page: ranked, verdicts, predictions re-scored to the board's numbers, retracted", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/run");
  const partialRun = await runFromTab(page, { levels: [L1], limit: 5 });
  const fullRun = await runFromTab(page, { levels: [L2] });

  const partial = await submit(page, partialRun);
  const full = await submit(page, fullRun);
  assert.equal(await page.evaluate(() => window.__injected), undefined, "the model's name ran as markup");

  // The link of the submission opens the entry on the Board page.
  await page.getByTestId("run-submitted-link").click();
  await page.waitForSelector(`[data-testid=board-entry][data-id="${full.entry}"]`);

  const filters = page.getByTestId("board-filters");
  // Overall: neither is ranked — the partial one says what is missing, the other its levels.
  const p0 = await row(page, partial.entry);
  assert.equal(p0.section, "unranked");
  assert.match(p0.text, /partial: \d+ of \d+ tasks missing/);
  const f0 = await row(page, full.entry);
  assert.equal(f0.section, "unranked");
  assert.match(f0.text, /covers level-2-toolsearcher only/);
  assert.ok(f0.text.includes(MODEL) && f0.imgs === 0, "the model's name is shown as text: " + f0.text);
  // Both entries listed, on a desktop and on a phone: no sideways scroll, no word of a table broken.
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await fits(page, "/board (two entries listed, one open)");
  }
  await page.setViewportSize({ width: 1200, height: 900 });

  // Level 2: the complete run is ranked first; the partial run has nothing of level 2.
  await filters.getByTestId("level-select").selectOption(L2);
  const f = await row(page, full.entry);
  assert.equal(f.section, "ranked");
  assert.equal(f.rank, "1");
  assert.ok(f.judged > 100 && f.right > 0, `level 2 judged ${f.right}/${f.judged}`);
  assert.equal(await page.locator(`[data-testid=board-row][data-id="${partial.entry}"]`).count(), 0);
  await filters.getByTestId("level-select").selectOption(L1);
  assert.equal((await row(page, partial.entry)).section, "unranked");
  await filters.getByTestId("board-form").selectOption("native");
  await page.waitForSelector("[data-testid=board-empty]");
  await filters.getByTestId("board-form").selectOption("text");
  await filters.getByTestId("level-select").selectOption(L2);

  // The verdicts: one row a task, filtered by outcome.
  const entry = page.locator("[data-testid=board-entry]");
  await entry.locator("[data-testid=board-verdict]").first().waitFor();
  const level = await entry.locator(`[data-testid=board-level][data-level="${L2}"] [data-testid=board-accuracy]`).evaluate((el) => ({ right: Number(el.dataset.right), judged: Number(el.dataset.judged) }));
  assert.deepEqual(level, { right: f.right, judged: f.judged }, "the entry's level table and its row agree");
  const total = Number((await entry.getByTestId("board-verdicts-shown").textContent()).match(/^(\d+) tasks match/)[1]);
  /** filtered picks an outcome and waits for the table to show it: how many match, and the rows shown. */
  const filtered = async (outcome) => {
    const before = await entry.getByTestId("board-verdicts-shown").textContent();
    await entry.getByTestId("board-verdict-status").selectOption(outcome);
    await page.waitForFunction((b) => document.querySelector("[data-testid=board-verdicts-shown]").textContent !== b, before, { timeout: 5000 }).catch(() => {});
    const n = Number((await entry.getByTestId("board-verdicts-shown").textContent()).match(/^(\d+) tasks match/)[1]);
    return { n, rows: await entry.locator("[data-testid=board-verdict]").evaluateAll((rs) => rs.map((r) => ({ ...r.dataset }))) };
  };
  // Right are the right calls and the right special cases (a reply is scored, never right or wrong).
  const specialRight = f.special === "—" ? 0 : Number(f.special.split("/")[0]);
  const right = await filtered("right");
  assert.equal(right.n, f.right + specialRight, "right calls and special cases");
  assert.equal(right.rows.length, Math.min(300, right.n));
  assert.ok(right.rows.every((r) => r.status === "answered" && r.correct === "true"), "the filter keeps right answers only");
  const wrong = await filtered("wrong");
  assert.ok(wrong.rows.every((r) => r.status === "answered" && r.correct === "false"), "the filter keeps wrong answers only");
  assert.ok(total > right.n + wrong.n, `${total} tasks: the replies are neither right nor wrong`);

  // The predictions download as the run wrote them, and score in another tab to the board's numbers.
  const [d] = await Promise.all([page.waitForEvent("download"), entry.getByTestId("board-predictions").click()]);
  const predictions = readFileSync(await d.path(), "utf8");
  assert.equal(predictions, full.exported, "the board hands back the run's own predictions file");
  const other = await s.browser.context.newPage();
  const ow = watch(other);
  await open(other, s.server.url, "/score");
  await pasteAndScore(other, predictions);
  const scored = await other.$eval("[data-testid=verdicts]", (el) => el.textContent);
  assert.equal(await other.getByTestId("accuracy").textContent(), f.accuracy, "accuracy");
  assert.ok(scored.includes(`(${f.right} of ${f.judged} calls)`), `the Score page judged ${f.right} of ${f.judged} calls right: ${scored.slice(0, 200)}`);
  assert.equal(await other.getByTestId("rouge-l").textContent(), f.rouge, "ROUGE-L");
  assert.deepEqual(ow.errors, []);
  await other.close();

  // A desktop's width and 390 px, and axe, with the entry and its verdicts open: no sideways
  // scroll, no word of a table broken over lines.
  await entry.getByTestId("board-verdict-status").selectOption("*");
  await page.setViewportSize({ width: 1280, height: 900 });
  await fits(page, "/board (an entry open)");
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, "/board (an entry open)");
  await page.setViewportSize({ width: 1200, height: 900 });
  const v = await axe(page);
  assert.deepEqual(v, [], "axe reports\n" + v.join("\n"));

  // Retracted with the key this browser kept: listed as retracted.
  await entry.getByTestId("board-retract").click();
  await entry.getByTestId("board-retract-confirm").click();
  await page.waitForSelector(`[data-testid=board-row][data-id="${full.entry}"][data-section=retracted]`);
  assert.equal(await page.locator("[data-testid=board-entry-state]").getAttribute("data-state"), "retracted");
  assert.equal(await page.evaluate(() => window.__injected), undefined, "the model's name ran as markup");
  assert.deepEqual(w.errors, []);

  // Where the key is not kept (another browser, cleared data), a wrong key is refused and the
  // owner's pasted key retracts.
  // The link apibank submit prints (/board#ID) opens the entry, on load and when the fragment changes.
  await page.evaluate(() => localStorage.removeItem("apibank.board/keys"));
  await open(page, s.server.url, "/board#" + full.entry);
  await page.locator(`[data-testid=board-entry][data-id="${full.entry}"]`).waitFor();
  assert.match(await page.getByTestId("board-entry-recorded").textContent(), /re-scored, not reproduced/);
  assert.match(await page.getByTestId("privacy-note").textContent(), /predictions, settings and verdicts/);
  await page.evaluate((id) => (location.hash = id), partial.entry);
  const e2 = page.locator(`[data-testid=board-entry][data-id="${partial.entry}"]`);
  await e2.waitFor();
  assert.equal(await e2.getByTestId("board-retract").count(), 0, "no key is held here");
  await e2.getByTestId("board-paste-key").fill(full.key);
  await e2.getByTestId("board-retract-pasted").click();
  await page.waitForSelector("main .error >> text=/not the owner key/");
  await e2.getByTestId("board-paste-key").fill(partial.key);
  await e2.getByTestId("board-retract-pasted").click();
  await page.waitForSelector(`[data-testid=board-row][data-id="${partial.entry}"][data-section=retracted]`);
  assert.deepEqual(w.errors.filter((e) => !/status of 401/.test(e)), [], "no error but the wrong key's 401");
  await page.close();
});

test("on a static host (no board server) the page shows the exported board.json, read only", async () => {
  const live = await (await fetch(s.server.url + "/api/v1/board")).json();
  assert.ok(live.entries.length > 0, "the test above left entries on the board");
  const exported = { ...live, exported: "2026-01-02T03:04:05Z" };
  // The site's service worker would answer the requests out of page.route's sight: kept out here.
  const b = await launch({ serviceWorkers: "block" });
  try {
    const page = await b.context.newPage();
    const w = watch(page);
    await page.route("**/api/v1/board**", (r) => r.fulfill({ status: 404, contentType: "text/plain", body: "404 page not found" }));
    await page.route("**/board.json", (r) => r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(exported) }));
    const id = live.entries[0].id;
    await open(page, s.server.url, "/board?entry=" + id);
    await page.waitForSelector("[data-testid=board-exported]");
    assert.match(await page.getByTestId("board-exported").textContent(), /read-only export of the board, written 2026-01-02T03:04:05Z/);
    assert.equal(await page.locator("[data-testid=board-row]").count(), live.entries.length, "every exported entry is listed");
    await page.waitForSelector(`[data-testid=board-entry][data-id="${id}"] [data-testid=board-levels]`);
    for (const control of ["board-predictions", "board-retract", "board-paste-key", "board-verdicts"]) {
      assert.equal(await page.getByTestId(control).count(), 0, control + " is not offered on an export");
    }
    // The 404 of the missing board server, and go-app's report of the service worker kept out, are expected.
    assert.deepEqual(w.errors.filter((e) => !/status of 404|goapp service worker registration failed/.test(e)), []);
  } finally {
    await b.close();
  }
});

test("a board of a season: the page names the season and since when, ranks the season's run, lists the original-data run apart", async () => {
  const season = 7;
  const dir = mkdtempSync(path.join(tmpdir(), "apibank-e2e-season-"));
  const seasonFake = await startFakeModel(null, ["--gold", "builtin", "--seed", String(season)]);
  const server = await startServer(["--db", path.join(dir, "season.db"), "--board-season", String(season)]);
  const b = await launch();
  try {
    // Two CLI runs of level 1 against the perfect model: on the season's variant, and on the original data.
    const runAndSubmit = (name, seedArgs) => {
      const out = path.join(dir, name + ".jsonl");
      execFileSync(goBinary("apibank"), ["run", "--native", "--base-url", seasonFake.url, "--model", name, "--level", L1, "--out", out, ...seedArgs], {
        stdio: ["ignore", "ignore", "inherit"],
      });
      // The server answers 503 while its engine pool starts: submit again until it takes the run.
      for (let i = 0; ; i++) {
        try {
          return execFileSync(goBinary("apibank"), ["submit", out, "--board", server.url], { stdio: ["ignore", "pipe", "pipe"] }).toString();
        } catch (e) {
          if (i > 60 || !/HTTP 503/.test(String(e.stderr))) throw new Error(`submit ${name}: ${e.stderr}`);
          execFileSync("sleep", ["1"]);
        }
      }
    };
    const onSeason = runAndSubmit("on-season", ["--seed", String(season)]);
    assert.match(onSeason, /made on season 7's variant/);
    assert.doesNotMatch(onSeason, /listed apart/);
    const onOriginal = runAndSubmit("on-original", []);
    assert.match(onOriginal, /made on the original data/);
    assert.match(onOriginal, /the board ranks season 7's variant: the entry is listed apart/);

    const live = await (await fetch(server.url + "/api/v1/board")).json();
    assert.equal(live.current.season, season, "the board API answers its season");
    assert.match(live.current.since, /^\d{4}-\d\d-\d\dT/, "the board API answers since when it ranks the season");
    const id = (model) => live.entries.find((e) => e.run.model === model).id;
    for (const e of live.entries) assert.equal(e.score.overall.accuracy, 1, `${e.run.model} is judged on the data it was made on`);

    const page = await b.context.newPage();
    const w = watch(page);
    await open(page, server.url, "/board");
    const card = page.getByTestId("board-season");
    await card.waitFor();
    assert.equal(await page.getByTestId("board-season-title").textContent(), `Season ${season} — ranked since ${live.current.since.slice(0, 10)}`);
    assert.match(await page.getByTestId("board-season-run").textContent(), new RegExp(`^apibank run --seed ${season} .* apibank submit m\\.jsonl --board ${server.url.replace(/[.]/g, "\\.")}$`));
    await page.getByTestId("board-filters").getByTestId("level-select").selectOption(L1);
    const ranked = await row(page, id("on-season"));
    assert.equal(ranked.section, "ranked");
    assert.equal(ranked.rank, "1");
    const apart = await row(page, id("on-original"));
    assert.equal(apart.section, "legacy");
    assert.match(apart.text, /made on the original data/);
    // The entry's view says on which data it was made and judged, and why it is apart.
    await page.click(`[data-testid=board-row][data-id="${id("on-original")}"] [data-testid=board-open]`);
    const state = page.locator(`[data-testid=board-entry][data-id="${id("on-original")}"] [data-testid=board-entry-state]`);
    await state.waitFor();
    assert.match(await state.textContent(), /^Made on the original data and judged on it .*; listed apart: the board ranks season 7's variant\./);
    await page.click(`[data-testid=board-row][data-id="${id("on-season")}"] [data-testid=board-open]`);
    const seasonState = page.locator(`[data-testid=board-entry][data-id="${id("on-season")}"] [data-testid=board-entry-state]`);
    await seasonState.waitFor();
    assert.match(await seasonState.textContent(), /^Made on season 7's variant and judged on it /);
    assert.doesNotMatch(await seasonState.textContent(), /listed apart/);
    await page.setViewportSize({ width: 390, height: 844 });
    await fits(page, "/board (a season)");
    await page.setViewportSize({ width: 1200, height: 900 });
    const v = await axe(page);
    assert.deepEqual(v, [], "axe reports\n" + v.join("\n"));
    assert.deepEqual(w.errors, []);
    await page.close();
  } finally {
    await b.close();
    await server.stop();
    await seasonFake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
