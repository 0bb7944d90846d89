// Playing a level-3 scene yourself (issue 10): pick a scene, read the request, make calls one by one
// in its world (text and native forms), finish, get the episode judgement, see the gold plan after;
// reached from the Classroom too. The gold calls come from the scene's own file, through the tab.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, engineRequest, goldText, textCarries, session } from "../lib.mjs";

const s = session();

async function call(page, text, { keyboard = false } = {}) {
  const n = await page.locator("[data-testid=play-step]").count();
  await page.getByTestId("play-input").fill(text);
  if (keyboard) await page.getByTestId("play-input").press("Control+Enter");
  else await page.getByTestId("play-call").click();
  await page.waitForFunction((k) => document.querySelectorAll("[data-testid=play-step]").length > k, n);
  return page.locator("[data-testid=play-step]").nth(n).textContent();
}

test("playing a scene's gold plan call by call solves it; a wrong plan is judged with what was missed", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/play");
  const scenes = (await engineRequest(page, { op: "dialogues", level: "level-3" })).filter((d) => d.level === "level-3");
  assert.ok(scenes.length > 0, "the builtin data has level-3 scenes");
  const sc = scenes.find((x) => x.calls >= 2) || scenes[0];
  const d = await engineRequest(page, { op: "dialogue", level: "level-3", file: sc.file });
  const gold = d.turns.filter((t) => t.role === "API");
  // ToolSearcher's gold calls are lookups a plan may make or not: never required.
  const required = gold.filter((t) => t.api_name !== "ToolSearcher");
  const started = await engineRequest(page, { op: "episode_start", file: sc.file });
  await engineRequest(page, { op: "episode_finish", episode: started.episode });

  await page.getByTestId("play-scene").selectOption(sc.file);
  await page.waitForURL(/\/play\?scene=/);
  await page.waitForSelector("[data-testid=play-request]");
  assert.ok((await page.getByTestId("play-request").textContent()).includes(started.utterance), "the request is shown");
  assert.equal(await page.locator("[data-testid=key-info] li").count(), started.key_info.length, "one line per key fact");

  for (const [i, t] of gold.entries()) {
    // Alternate the forms: the text form where it carries the call, else (and every other call) native.
    const text = textCarries(t.param_dict) && i % 2 === 0 ? goldText(t) : JSON.stringify({ name: t.api_name, arguments: t.param_dict });
    const out = await call(page, text, { keyboard: i === 0 });
    assert.doesNotMatch(out, /error:/, `${t.api_name}: ${out}`);
  }
  // The answer to the user says what the scene's answer needs (the first phrase of each need).
  await page.getByTestId("play-reply").fill((d.answer || []).map((n) => n.any[0]).join(". "));
  await page.getByTestId("play-finish").click();
  await page.waitForSelector("[data-testid=play-outcome]");
  assert.equal(await page.getByTestId("play-outcome").getAttribute("data-success"), "true", await page.getByTestId("play-outcome").textContent());
  assert.match(await page.getByTestId("play-outcome").textContent(), new RegExp(`achieved ${required.length} of ${required.length}`));
  assert.equal(await page.locator("[data-testid=play-plan]").count(), 0, "the gold plan is hidden until asked");
  await page.getByTestId("play-show-plan").click();
  await page.waitForSelector("[data-testid=play-plan]");
  assert.equal(await page.locator("[data-testid=play-plan] li").count(), gold.length, await page.getByTestId("play-outcome").innerHTML());

  // Again, with only a wrong first call.
  await page.getByTestId("play-restart").click();
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=play-step]").length === 0 && !document.querySelector("[data-testid=play-outcome]"));
  await call(page, "[NoSuchTool(x='1')]");
  await page.getByTestId("play-finish").click();
  await page.waitForSelector("[data-testid=play-outcome]");
  assert.equal(await page.getByTestId("play-outcome").getAttribute("data-success"), "false");
  assert.equal(await page.locator("[data-testid=play-missed] li").count(), required.length, "every required gold call is missed");
  if ((d.answer || []).length > 0) {
    assert.equal(await page.locator("[data-testid=play-unmet] li").count(), d.answer.length, "an empty answer says nothing asked");
  }

  // A scene that does not exist says which do.
  await open(page, s.server.url, "/play?scene=nope.json");
  await page.waitForSelector("[role=alert]");
  assert.ok((await page.locator("[role=alert]").textContent()).includes(sc.file));

  // The Classroom's level-3 exercises lead here.
  await open(page, s.server.url, "/classroom");
  await page.getByTestId("level-select").selectOption("level-3");
  await page.getByTestId("classroom-play").click();
  await page.waitForURL(/\/play\?scene=/);
  await page.waitForSelector("[data-testid=play-request]");
  assert.deepEqual(w.errors, []);
  await page.close();
});
