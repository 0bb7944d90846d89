// An assignment link: exercises picked on the Classroom page, named on the Teach page, carried in
// the link's fragment; with the server stopped (after one visit), the link opens just that set and
// the tab judges its answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { watch, open, ready, offlineReady, session } from "../lib.mjs";

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
