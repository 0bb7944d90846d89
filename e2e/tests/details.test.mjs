// The smaller items of issue 10: concrete classroom hints (and Ctrl+Enter, and no verdict repeated),
// "Copied." beside its button, "Clear my data" confirmed, duplicated prediction lines flagged, a
// real 404 page, level-3 key-info lines apart, and the Results page (no "(no call)" zero row, no
// 0.0000 ROUGE-L without replies, a special-case section, bars coloured by verdict).
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, ready, engineRequest, fullDialogues, goldText, goldPredictions, jsonl, pasteAndScore, session } from "../lib.mjs";

const s = session();

async function newPage(p) {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/");
  await page.evaluate(() => localStorage.clear());
  await open(page, s.server.url, p);
  return { page, w };
}

test("classroom hints name the missing argument or the wrong value, keep the answer until asked, and Ctrl+Enter checks", async () => {
  const { page, w } = await newPage("/classroom");
  const samples = await engineRequest(page, { op: "samples", level: "level-1-given-desc" });
  const first = samples.find((x) => x.kind === "call");
  const d = await engineRequest(page, { op: "dialogue", level: first.level, file: first.file });
  const gold = d.turns.find((t) => t.line === first.gold_line);
  const keys = Object.keys(gold.param_dict);
  assert.ok(keys.length >= 1, "the first exercise's gold call has arguments");
  await page.waitForFunction((f) => document.querySelector("main h2")?.textContent.includes(f), first.file);
  const hint = async () => {
    await page.waitForSelector("[data-testid=classroom-verdict]");
    return page.getByTestId("classroom-hint").textContent();
  };

  // A missing argument, checked with Ctrl+Enter.
  const last = keys[keys.length - 1];
  const missing = goldText({ api_name: gold.api_name, param_dict: Object.fromEntries(keys.slice(0, -1).map((k) => [k, gold.param_dict[k]])) });
  await page.getByTestId("classroom-input").fill(missing);
  await page.getByTestId("classroom-input").press("Control+Enter");
  const h1 = await hint();
  assert.equal(await page.getByTestId("classroom-verdict").getAttribute("data-category"), "MISS_INPUT_ARGUMENT");
  assert.match(h1, new RegExp(`argument ${last} is missing`), h1);
  assert.ok(!h1.includes("MISS_INPUT_ARGUMENT") && !/argument is missing\. Look/.test(h1), "the hint does not repeat the verdict");

  // A wrong value: the hint names the argument, not the gold value.
  const k0 = keys.find((k) => typeof gold.param_dict[k] === "string") || keys[0];
  const wrong = goldText({ api_name: gold.api_name, param_dict: { ...gold.param_dict, [k0]: "zz-not-it" } });
  await page.getByTestId("classroom-input").fill(wrong);
  await page.getByTestId("classroom-check").click();
  await page.waitForFunction(() => /zz-not-it/.test(document.querySelector("[data-testid=classroom-hint]").textContent));
  const h2 = await hint();
  assert.match(h2, new RegExp(`value of ${k0}`), h2);
  assert.ok(!h2.includes(String(gold.param_dict[k0])), "the gold value is not given away");
  assert.equal(await page.locator("[data-testid=classroom-answer]").count(), 0);
  await page.getByTestId("classroom-show-answer").click();
  assert.ok((await page.getByTestId("classroom-answer").textContent()).includes(gold.api_name), "asked, the answer is shown");

  // A wrong tool: the hint describes what is needed without naming it.
  const cat = await engineRequest(page, { op: "catalog", catalog: "apis" });
  const other = cat.tools.find((t) => t.name !== gold.api_name && !t.name.startsWith(gold.api_name));
  await page.getByTestId("classroom-input").fill(`[${other.name}(x='1')]`);
  await page.getByTestId("classroom-check").click();
  await page.waitForFunction((n) => document.querySelector("[data-testid=classroom-hint]").textContent.includes("You called " + n), other.name);
  const h3 = await hint();
  assert.ok(h3.includes(cat.tools.find((t) => t.name === gold.api_name).description), h3);
  assert.ok(!h3.includes(gold.api_name), "the expected tool is described, not named");
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("Copied. shows beside its button; Clear my data asks first; a real 404 page; level-3 key facts one a line", async () => {
  const { page, w } = await newPage("/sample");
  await page.waitForSelector("[data-testid=prompt-text]");
  const btn = page.locator("button", { hasText: "Copy the text prompt" });
  await btn.click();
  const status = page.locator("[data-testid=copied]", { hasText: "Copied." });
  await status.waitFor();
  const [a, b] = [await btn.boundingBox(), await status.boundingBox()];
  assert.ok(Math.abs(a.y - b.y) < 40 && b.x - (a.x + a.width) < 100, `"Copied." is beside its button: ${JSON.stringify([a, b])}`);

  await page.evaluate(() => localStorage.setItem("apibank.keep-me", "1"));
  await page.getByTestId("clear-data").click();
  await page.getByTestId("clear-confirm").waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("apibank.keep-me")), "1", "nothing is cleared before the answer");
  await page.getByTestId("clear-no").click();
  await page.getByTestId("clear-confirm").waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => localStorage.getItem("apibank.keep-me")), "1");
  await page.getByTestId("clear-data").click();
  await page.getByTestId("clear-yes").click();
  await page.waitForFunction(() => localStorage.getItem("apibank.keep-me") === null);

  const resp = await page.goto(s.server.url + "/no/such/page?x=1");
  assert.equal(resp.status(), 404);
  await ready(page);
  assert.equal((await page.textContent("main h1")).trim(), "Page not found");
  assert.match(await page.getByTestId("not-found").textContent(), /\/no\/such\/page is not a page/);
  assert.ok(await page.locator("main a[href='/dataset']").count(), "the 404 page links the pages");

  const scenes = await engineRequest(page, { op: "dialogues", level: "level-3" });
  let sc, multi;
  for (const x of scenes.filter((y) => y.level === "level-3")) {
    const d = await engineRequest(page, { op: "dialogue", level: "level-3", file: x.file });
    multi = d.turns.find((t) => t.role === "User" && t.text.includes("\n"));
    if (multi) { sc = x; break; }
  }
  assert.ok(multi, "a builtin scene has key facts (the request turn has several lines)");
  {
    await open(page, s.server.url, `/sample?level=level-3&file=${encodeURIComponent(sc.file)}`);
    const p = page.locator(".turn-User p").first();
    await p.waitFor();
    const lines = await p.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
    assert.ok(lines >= multi.text.split("\n").length, `key-info lines are shown one a line (${lines} lines)`);
  }
  assert.deepEqual(w.errors.filter((e) => !/404/.test(e)), []);
  await page.close();
});

test("duplicated prediction lines are flagged, and Results has no zero rows, no 0.0000 ROUGE-L without replies, a special-case section and coloured bars", async () => {
  const { page, w } = await newPage("/score");
  const all = await engineRequest(page, { op: "dialogues", level: "level-1-given-desc" });
  const plain = all.filter((x) => !x.special).slice(0, 3);
  const special = all.find((x) => x.special);
  const dls = await fullDialogues(page, plain);
  const lines = goldPredictions(dls, { replies: false });
  lines[1].pred = "[NoSuchTool(a='1')]";
  const sp = (await engineRequest(page, { op: "samples", level: special.level, file: special.file })).find((x) => x.kind === "special");
  // A special case is right when the reply does what the case needs: its gold reply does.
  const spd = await engineRequest(page, { op: "dialogue", level: special.level, file: special.file });
  lines.push({ level: special.level, file: special.file, id: sp.id, pred: spd.turns.find((t) => t.line === sp.gold_line).text });
  lines.push({ ...lines[0] }); // the same sample again
  await pasteAndScore(page, jsonl(lines));
  assert.match(await page.getByTestId("duplicates").textContent(), /1 line/);
  const dup = page.locator(`[data-testid=verdict-row][data-line="${lines.length}"] [data-testid=duplicate]`);
  assert.equal(await dup.textContent(), "duplicate of line 1");
  assert.equal(await page.locator("[data-testid=duplicate]").count(), 1);

  await open(page, s.server.url, "/results");
  await page.waitForSelector("[data-testid=level-row]");
  assert.equal(await page.getByTestId("rouge-l").textContent(), "—", "no ROUGE-L without replies");
  assert.ok(!(await page.getByTestId("level-row").first().textContent()).includes("0.0000"));
  assert.ok(!(await page.getByTestId("tool-table").textContent()).includes("(no call)"), "no (no call) row");
  await page.getByTestId("special-section").waitFor();
  assert.equal(await page.locator("[data-testid=special-row][data-category=CORRECT]").count(), 1);
  assert.match(await page.getByTestId("special-score").textContent(), /^1\/1$/);
  const fills = await page.$$eval(".chart-bar", (rs) => [...new Set(rs.map((r) => getComputedStyle(r).fill))]);
  assert.ok(fills.length >= 2, "bars are not all one colour: " + fills.join(", "));
  assert.deepEqual(w.errors, []);
  await page.close();
});
