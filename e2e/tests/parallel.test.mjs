// Gold call sets in a real Chromium: the gold predictions of every dialogue with parallel calls are
// accepted in the tab exactly as the CLI accepts them, and a set answered with one call of two shows
// a readable verdict (the category, how many calls were right, each call's own verdict).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, engineRequest, goldPredictions, jsonl, cli, pasteAndScore, verdicts, session } from "../lib.mjs";

const s = session();
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-e2e-par-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** setDialogues fetches the loaded dialogues that have a parallel API turn. */
async function setDialogues(page) {
  const out = [];
  for (const d of await engineRequest(page, { op: "dialogues", level: "" })) {
    if (d.level === "level-3") continue;
    const full = await engineRequest(page, { op: "dialogue", level: d.level, file: d.file });
    if (full.turns.some((t) => t.parallel)) out.push(full);
  }
  return out;
}

test("the gold answers of every call set are right in the tab, as in the CLI", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/score");
  const dls = await setDialogues(page);
  assert.ok(dls.length >= 40, `${dls.length} dialogues with parallel calls`);
  const lines = goldPredictions(dls, { replies: false });
  assert.ok(lines.some((l) => l.set.length > 1), "the gold lines include call sets");
  const file = path.join(tmp, "sets.jsonl");
  writeFileSync(file, jsonl(lines));
  await pasteAndScore(page, readFileSync(file, "utf8"));
  const rows = await verdicts(page);
  const out = path.join(tmp, "sets.out");
  cli(["score", "--preds", file, "--out", out]);
  const want = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows, want.map((r) => [r.line, r.category]), "the tab's categories are the CLI's");
  assert.ok(rows.every(([, c]) => c === "CORRECT"), "every gold set is accepted: " + rows.filter(([, c]) => c !== "CORRECT").map(([l]) => l).join(" "));
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("one call of a set of two reads as MISSING_CALL with each call's verdict", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/score");
  const d = await engineRequest(page, { op: "dialogue", level: "level-1-given-desc", file: "par-stock-01.jsonl" });
  const first = d.turns.find((t) => t.role === "API");
  const pred = JSON.stringify({ name: first.api_name, arguments: first.param_dict });
  await pasteAndScore(page, JSON.stringify({ level: d.level, file: d.file, id: 0, pred }) + "\n");
  const row = page.locator("[data-testid=verdict-row]");
  assert.equal(await row.getAttribute("data-category"), "MISSING_CALL");
  assert.match(await row.locator(".verdict").first().textContent(), /MISSING_CALL · 1 of 2 calls right/);
  await row.getByRole("button", { name: "compare" }).click();
  const list = page.getByTestId("set-verdict");
  await list.waitFor();
  const cats = await list.locator("li").evaluateAll((els) => els.map((e) => e.dataset.category));
  assert.deepEqual(cats, ["CORRECT", "MISSING_CALL"], "the first call right, the second not made");
  assert.match(await list.textContent(), /not called/);
  const expected = await page.locator(".compare > div").first().textContent();
  for (const t of d.turns.filter((t) => t.role === "API")) {
    assert.ok(expected.includes(t.param_dict.stock_code), "the expected side shows every call of the set: " + t.param_dict.stock_code);
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});
