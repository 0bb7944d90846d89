// Level 3 in a real Chromium: the builtin scenes are listed with the other dialogues, and a scene opens
// as a sample whose prompt offers only ToolSearcher and whose gold is the scene's first call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, engineRequest, session } from "../lib.mjs";

const s = session();

test("level-3 scenes are browsable and open as samples", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/dataset");
  const scenes = (await engineRequest(page, { op: "dialogues", level: "level-3" }));
  assert.ok(scenes.length >= 50, `${scenes.length} builtin scenes listed by the engine`);
  await page.getByTestId("level-select").selectOption("level-3");
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=dialogue-row]").length === n, scenes.length);
  const first = scenes[0];
  await page.locator("[data-testid=dialogue-row] a", { hasText: first.file }).first().click();
  await page.waitForSelector("[data-testid=prompt-text]");
  const prompt = await page.getByTestId("prompt-text").textContent();
  assert.match(prompt, /"name":"ToolSearcher"/, "level 3 offers ToolSearcher");
  assert.doesNotMatch(prompt, /"name":"(?!ToolSearcher)/, "and no other tool");
  const sample = await engineRequest(page, { op: "prompt", level: "level-3", file: first.file, sample: 0 });
  const dialogue = await engineRequest(page, { op: "dialogue", level: "level-3", file: first.file });
  const firstCall = dialogue.turns.find((t) => t.role === "API");
  assert.ok(sample.gold.includes(firstCall.api_name), "the gold of step 0 is the scene's first call");
  assert.deepEqual(w.errors, []);
  await page.close();
});
