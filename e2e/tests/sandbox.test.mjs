// The Sandbox (issue 10): example chips of the chosen catalog, completion of tool and parameter
// names while typing, and after each call the databases it changed as a diff.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, engineRequest, session } from "../lib.mjs";

const s = session();

async function run(page, text) {
  const before = await page.$$eval("[data-testid=sandbox-history]", (e) => e.length);
  if (text !== undefined) await page.getByTestId("sandbox-input").fill(text);
  await page.getByTestId("sandbox-run").click();
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=sandbox-history]").length > n, before);
  return page.getByTestId("sandbox-output").textContent();
}

test("the level-3 catalog offers level-3 example chips, and each runs", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/sandbox");
  const lv3 = await engineRequest(page, { op: "catalog", catalog: "lv3_apis" });
  await page.getByTestId("catalog-select").selectOption("lv3_apis");
  await page.waitForFunction((ex) => document.querySelector("[data-testid=sandbox-example]")?.title === ex, Object.values(lv3.examples).length && lv3.examples[lv3.tools.find((t) => lv3.examples[t.name]).name]);
  const chips = await page.$$eval("[data-testid=sandbox-example]", (bs) => bs.map((b) => b.title));
  assert.ok(chips.length > 0);
  const names = new Set(lv3.tools.map((t) => t.name));
  for (const [i, c] of chips.entries()) {
    const m = c.match(/^\[(\w+)\(|"name":\s*"(\w+)"/);
    assert.ok(m && names.has(m[1] || m[2]), `chip ${c} calls a level-3 tool`);
    await page.locator("[data-testid=sandbox-example]").nth(i).click();
    const out = await run(page);
    assert.doesNotMatch(out, /invalid tool name|no call found/, `${c}: ${out}`);
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("typing a call completes tool and parameter names", async () => {
  const page = await s.browser.context.newPage();
  await open(page, s.server.url, "/sandbox");
  const cat = await engineRequest(page, { op: "catalog", catalog: "apis" });
  const input = page.getByTestId("sandbox-input");
  await input.click();
  await page.waitForTimeout(200); // the catalogs load with the page
  await page.keyboard.type("[AddAl");
  await page.waitForSelector("[data-testid=sandbox-suggest]");
  const want = cat.tools.map((t) => t.name).filter((n) => n.toLowerCase().startsWith("addal"));
  // The list first shows what matched a shorter prefix while the keys were typed: wait for the
  // last key's list (or 10 s), then compare.
  await page.waitForFunction((w) => [...document.querySelectorAll("[data-testid=sandbox-suggest]")].map((b) => b.textContent).join() === w.join(), want, { timeout: 10000 }).catch(() => {});
  assert.deepEqual(await page.$$eval("[data-testid=sandbox-suggest]", (bs) => bs.map((b) => b.textContent)), want);
  await page.locator("[data-testid=sandbox-suggest]", { hasText: "AddAlarm" }).click();
  assert.equal(await input.inputValue(), "[AddAlarm(");
  const params = Object.keys(cat.tools.find((t) => t.name === "AddAlarm").input_parameters);
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=sandbox-suggest]").length === n, params.length);
  assert.deepEqual(await page.$$eval("[data-testid=sandbox-suggest]", (bs) => bs.map((b) => b.textContent)), params.map((p) => p + "="));
  await page.locator("[data-testid=sandbox-suggest]").first().click();
  assert.equal(await input.inputValue(), `[AddAlarm(${params[0]}='`);
  // Keyboard focus stays in the box, so typing goes on.
  await page.keyboard.type("x', ");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=sandbox-suggest]").length > 0);
  assert.deepEqual(await page.$$eval("[data-testid=sandbox-suggest]", (bs) => bs.map((b) => b.textContent)), params.slice(1).map((p) => p + "="));
  await page.close();
});

test("after a call, the databases it changed are shown as a diff of rows added, removed and changed", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/sandbox");
  const acc = await engineRequest(page, { op: "world", databases: ["Account"] });
  const [user, a] = Object.entries(acc.databases.Account)[0];
  const when = "2031-02-03 04:05:06";
  await run(page, `[AddAlarm(token='${a.token}', time='${when}')]`);
  await page.waitForSelector("[data-testid=diff-db][data-db=Alarm]");
  const added = page.locator("[data-testid=diff-db][data-db=Alarm] [data-testid=diff-row][data-kind=added]");
  assert.equal(await added.count(), 1, "one alarm row added");
  assert.ok((await added.textContent()).includes(when));
  assert.equal(await page.locator("[data-testid=diff-db]").count(), 1, "only the Alarm database changed");
  assert.equal(await added.evaluate((tr) => getComputedStyle(tr.querySelector("td")).backgroundColor !== "rgba(0, 0, 0, 0)"), true, "the added row is highlighted");

  await run(page, `[DeleteAlarm(token='${a.token}', time='${when}')]`);
  await page.waitForSelector("[data-testid=diff-db][data-db=Alarm] [data-testid=diff-row][data-kind=removed]");
  assert.ok((await page.locator("[data-testid=diff-row][data-kind=removed]").textContent()).includes(when));

  await run(page, `[ModifyPassword(token='${a.token}', old_password='${a.password}', new_password='n3w-Pass')]`);
  await page.waitForSelector("[data-testid=diff-db][data-db=Account] [data-testid=diff-row][data-kind=changed]");
  const changed = page.locator("[data-testid=diff-db][data-db=Account] [data-testid=diff-row][data-kind=changed]");
  assert.equal(await changed.getAttribute("data-key"), user);
  assert.ok((await changed.textContent()).includes("n3w-Pass"));
  assert.deepEqual(w.errors, []);
  await page.close();
});
