// score-episodes: a run's predictions file with level-3 episode lines, re-scored on the Score page in
// a tab, reaches the numbers `apibank score` and the board reach for the same file: the episode lines
// are taken aside and their calls replayed in the tab's engine (the outcome a line carries is not
// believed), the other lines judged as predictions; a garbled episode line is a line error with its
// number, the rest still judged. Expected values come from the CLI and the board, never from here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { watch, open, session, startFakeModel, pasteAndScore, cli, goBinary } from "../lib.mjs";

const s = session({ db: true });
let fake;
let dir;
const L1 = "level-1-given-desc";
const L3 = "level-3";

before(async () => {
  fake = await startFakeModel(null, ["--gold", "builtin"]);
  dir = mkdtempSync(path.join(tmpdir(), "apibank-score-episodes-"));
  process.env.APIBANK_E2E_SCORE_KEY = "sk-score-episodes";
});

after(async () => {
  if (fake) await fake.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** cliRun runs the perfect model with the CLI on levels (the first limit samples of each, "" for all); returns the predictions file's path. */
function cliRun(name, levels, limit) {
  const out = path.join(dir, name);
  const args = ["run", "--base-url", fake.url, "--model", "fake-model", "--api-key-env", "APIBANK_E2E_SCORE_KEY", "--concurrency", "4", "--out", out];
  for (const l of levels) args.push("--level", l);
  if (limit) args.push("--limit", String(limit));
  cli(args);
  return out;
}

/** tabScore pastes text on a new tab's Score page and reads what it shows. */
async function tabScore(text) {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/score");
  const t0 = Date.now();
  await pasteAndScore(page, text);
  const ms = Date.now() - t0;
  const got = await page.evaluate(() => {
    const v = document.querySelector("[data-testid=verdicts]");
    const ep = document.querySelector("[data-testid=episodes]");
    return {
      accuracy: v.querySelector("[data-testid=accuracy]").textContent,
      rouge: v.querySelector("[data-testid=rouge-l]").textContent,
      text: v.textContent,
      successes: ep ? Number(ep.dataset.successes) : null,
      episodes: ep ? Number(ep.dataset.episodes) : null,
      l3: ep ? ep.querySelector("[data-testid=episodes-level]").textContent : "",
      rows: [...document.querySelectorAll("[data-testid=episode]")].map((e) => ({ line: Number(e.dataset.line), success: e.dataset.success === "true", text: e.textContent })),
      lineErrors: [...document.querySelectorAll("[data-testid=line-error]")].map((e) => ({ line: Number(e.dataset.line), text: e.textContent })),
    };
  });
  assert.deepEqual(w.errors, []);
  await page.close();
  return { ...got, ms };
}

const pct = (r) => (r * 100).toFixed(1) + "%";

test("a CLI-written predictions file with episodes: the Score page replays them to apibank score's level-3 success; a garbled episode line is reported, the rest judged", async () => {
  // Level 1's first samples and every level-3 scene: two runs' files one after the other.
  const lines = [cliRun("cli-1.jsonl", [L1], 6), cliRun("cli-3.jsonl", [L3], "")].flatMap((f) => readFileSync(f, "utf8").split("\n").filter((l) => l !== ""));
  const epAt = lines.findIndex((l) => l.startsWith('{"level":"level-3"'));
  assert.ok(epAt >= 0, "the run wrote episode lines");
  // One episode's calls removed: its line still says it succeeded; a replay must say it did not.
  const tampered = JSON.parse(lines[epAt]);
  assert.ok(tampered.outcome && tampered.outcome.success, "the perfect model solved the scene");
  tampered.calls = [];
  lines[epAt] = JSON.stringify(tampered);
  // And a garbled episode line at the end.
  lines.push('{"level":"level-3","scene":"garbled", "calls": [');
  const text = lines.join("\n") + "\n";
  const edited = path.join(dir, "cli-edited.jsonl");
  writeFileSync(edited, text);

  const byCLI = JSON.parse(cli(["score", "--preds", edited, "--json"]));
  const cliEpisodes = byCLI.episodes.length;
  const cliSuccess = byCLI.episodes.filter((e) => e.outcome && e.outcome.success).length;
  assert.ok(cliEpisodes > 1 && cliSuccess < cliEpisodes, `the CLI replayed ${cliSuccess}/${cliEpisodes}`);

  const tab = await tabScore(text);
  assert.equal(tab.episodes, cliEpisodes, "scenes replayed");
  assert.equal(tab.successes, cliSuccess, "scenes solved");
  assert.ok(tab.l3.includes(`${cliSuccess}/${cliEpisodes}`) && tab.l3.includes(pct(cliSuccess / cliEpisodes)), tab.l3);
  const row = tab.rows.find((r) => r.line === epAt + 1);
  assert.ok(row && !row.success && /no success/.test(row.text) && /missed/.test(row.text), `the emptied episode is not solved: ${JSON.stringify(row)}`);
  assert.deepEqual(tab.lineErrors.map((e) => e.line), [lines.length], "the garbled episode line, by its number");
  assert.match(tab.lineErrors[0].text, /not a level-3 episode/);
  // The prediction lines are judged as apibank score judges them.
  const o = byCLI.report.overall;
  assert.equal(tab.accuracy, pct(o.accuracy));
  assert.ok(tab.text.includes(`(${o.correct} of ${o.calls} calls)`), tab.text.slice(0, 200));
  // What the replays cost: the same file without its episode lines, scored side by side.
  const bare = await tabScore(lines.filter((l) => !l.startsWith('{"level":"level-3"')).join("\n") + "\n");
  console.log(`# paste to report: ${tab.ms} ms with ${cliEpisodes} episodes replayed, ${bare.ms} ms without them`);
});

test("a run with level 3 submitted to the board: its downloaded predictions re-score in a tab to the entry's numbers at every level", async () => {
  const file = cliRun("board.jsonl", [L1, L3], 6);
  // submit talks to the board alone (no engine of its own: no --wasm, which cli adds).
  const sub = JSON.parse(execFileSync(goBinary("apibank"), ["submit", file, "--board", s.server.url, "--json"], { encoding: "utf8" }));
  const id = sub.entry.id;
  const r = await fetch(`${s.server.url}/api/v1/board/${id}/predictions?trial=1`);
  assert.equal(r.status, 200);
  const predictions = await r.text();
  const entry = (await (await fetch(`${s.server.url}/api/v1/board/${id}`)).json()).entry;
  const by = Object.fromEntries(entry.score.levels.map((l) => [l.level, l]));
  assert.ok(by[L1] && by[L3] && by[L3].episodes > 0, "the entry has levels 1 and 3");

  const tab = await tabScore(predictions);
  // Level 1: its call samples (the tab's call accuracy; the file has no other level's predictions).
  assert.ok(tab.text.includes(`(${by[L1].right} of ${by[L1].judged} calls)`), tab.text.slice(0, 200));
  assert.equal(tab.accuracy, pct(by[L1].accuracy));
  if (by[L1].replies > 0) assert.equal(tab.rouge, by[L1].rouge_l.toFixed(4));
  // Level 3: the board's successes of its episodes, in its words.
  assert.equal(tab.episodes, by[L3].episodes);
  assert.equal(tab.successes, by[L3].successes);
  assert.ok(tab.l3.includes(`${by[L3].successes}/${by[L3].episodes}`) && tab.l3.includes(pct(by[L3].accuracy)), tab.l3);
  // And their milestone credit (the share of the required gold calls achieved), as the board has it.
  assert.ok(tab.l3.includes("milestones " + pct(by[L3].milestone)), tab.l3);
  assert.deepEqual(tab.lineErrors, []);
});
