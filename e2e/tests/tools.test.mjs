// The tool catalog page (issue 10): every tool of both catalogs with its description, parameters
// (name, type, required), returns, exceptions and an example that runs; searchable; deep-linkable;
// downloadable as OpenAI tools JSON; "Try it in the Sandbox". Expectations come from the engine's
// catalog answer in the tab.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { watch, open, engineRequest, session } from "../lib.mjs";

const s = session();

test("the Tools page shows every tool of both catalogs, each example runs, and the schemas download", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  for (const catalog of ["apis", "lv3_apis"]) {
    await open(page, s.server.url, catalog === "apis" ? "/tools" : "/tools?catalog=lv3_apis");
    const cat = await engineRequest(page, { op: "catalog", catalog, form: "native" });
    await page.waitForSelector("article[data-testid^=tool-]");
    const cards = await page.$$eval("article[data-testid^=tool-]", (as) => as.map((a) => a.dataset.testid.slice(5)));
    assert.deepEqual(cards, cat.tools.map((t) => t.name), `${catalog}: every tool, in the catalog's order`);
    // Every card read in one pass (a round trip per field made this test a minute long).
    const shown = await page.$$eval("article[data-testid^=tool-]", (as) =>
      as.map((a) => ({
        text: a.textContent,
        rows: [...a.querySelectorAll("[data-testid=param-row]")].map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent)),
        example: a.querySelector("[data-testid=tool-example]")?.textContent,
      })),
    );
    for (const [i, t] of cat.tools.entries()) {
      const { text, rows, example } = shown[i];
      assert.ok(text.includes(t.description), `${t.name}: its description`);
      const required = cat.schemas[i].function.parameters.required || [];
      const want = Object.entries(t.input_parameters).map(([n, p]) => [n, p.type, required.includes(n) ? "yes" : "no", p.description]);
      const outs = Object.entries(t.output_parameters).map(([n, p]) => [n, p.type, p.description]);
      assert.deepEqual(rows, [...want, ...outs], `${t.name}: parameters (name, type, required) and returns`);
      for (const e of cat.exceptions?.[t.name] || []) assert.ok(text.includes(e), `${t.name}: exception ${e}`);
      assert.equal(example, cat.examples[t.name]);
    }
    // Each example run by its button, as a user clicks them one after another; the results are
    // read once all have come.
    for (const t of cat.tools) await page.getByTestId("tool-" + t.name).getByTestId("tool-run").click();
    await page.waitForFunction((n) => document.querySelectorAll("article[data-testid^=tool-] [data-testid=tool-result]").length === n, cat.tools.length);
    const results = await page.$$eval("article[data-testid^=tool-]", (as) => as.map((a) => a.querySelector("[data-testid=tool-result]").textContent));
    for (const [i, t] of cat.tools.entries()) assert.ok(results[i].trim().startsWith("{"), `${t.name}: the example runs: ${results[i]}`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("tools-download").click()]);
    const got = JSON.parse(readFileSync(await download.path(), "utf8"));
    assert.deepEqual(got, cat.schemas, `${catalog}: the download is the engine's OpenAI tools JSON`);
    assert.equal(download.suggestedFilename(), `${catalog}.tools.json`);
  }
  assert.deepEqual(w.errors, []);
  await page.close();
});

test("the Tools page is searchable and deep-linkable, and Try it opens the Sandbox with the call", async () => {
  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/tools?name=AddAlarm");
  await page.waitForSelector("[data-testid=tool-AddAlarm]");
  assert.equal(await page.locator("article[data-testid^=tool-]").count(), 1, "a deep link shows its tool");
  await open(page, s.server.url, "/tools");
  const cat = await engineRequest(page, { op: "catalog", catalog: "apis" });
  await page.getByTestId("tools-search").fill("alarm");
  const want = cat.tools.filter((t) => (t.name + " " + t.description + " " + Object.keys(t.input_parameters).join(" ")).toLowerCase().includes("alarm")).map((t) => t.name);
  await page.waitForFunction((n) => document.querySelectorAll("article[data-testid^=tool-]").length === n, want.length);
  assert.deepEqual(await page.$$eval("article[data-testid^=tool-]", (as) => as.map((a) => a.dataset.testid.slice(5))), want);
  assert.match(page.url(), /q=alarm/, "the search is in the URL");

  // A level-3 tool's "Try it" opens the Sandbox on its catalog with the call typed in.
  const lv3 = await engineRequest(page, { op: "catalog", catalog: "lv3_apis" });
  const t = lv3.tools.find((x) => !cat.tools.some((y) => y.name === x.name)) || lv3.tools[0];
  await open(page, s.server.url, "/tools?name=" + t.name);
  await page.getByTestId("tool-" + t.name).getByTestId("tool-try").click();
  await page.waitForURL(/\/sandbox\?/);
  await page.waitForFunction((c) => document.querySelector("[data-testid=sandbox-input]").value === c, lv3.examples[t.name]);
  assert.equal(await page.getByTestId("catalog-select").inputValue(), "lv3_apis");
  await page.getByTestId("sandbox-run").click();
  await page.waitForSelector("[data-testid=sandbox-history]");
  assert.doesNotMatch(await page.getByTestId("sandbox-output").textContent(), /invalid tool name/);
  assert.deepEqual(w.errors, []);
  await page.close();
});
