// Saves a PNG of every page to screenshots/ (gitignored) for review, at desktop (1280 px) and phone
// (390 px) widths, with work done on the pages that show results: screenshots/<width>-<page>.png.
// `make screenshots` runs it.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { root, startServer, launch, open, ready, engineRequest, goldPredictions, goldText, jsonl, pasteAndScore } from "./lib.mjs";

const dir = path.join(root, "screenshots");
mkdirSync(dir, { recursive: true });
const server = await startServer();
const b = await launch();
try {
  const page = await b.context.newPage();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    const shot = async (name) => {
      await page.waitForTimeout(200);
      await page.screenshot({ path: path.join(dir, `${width}-${name}.png`), fullPage: true });
      console.log(`screenshots/${width}-${name}.png`);
    };
    await open(page, server.url, "/");
    await page.evaluate(() => localStorage.clear());
    const navPaths = await page.$$eval("nav.nav a[href]", (as) => as.map((a) => a.getAttribute("href")));
    for (const p of navPaths) {
      await open(page, server.url, p);
      await page.waitForTimeout(400);
      await shot(p === "/" ? "home" : p.slice(1));
    }
    const all = await engineRequest(page, { op: "dialogues" });
    const special = all.find((d) => d.special);
    const sp = (await engineRequest(page, { op: "samples", level: special.level, file: special.file })).find((x) => x.kind === "special");
    await open(page, server.url, `/sample?level=${encodeURIComponent(special.level)}&file=${encodeURIComponent(special.file)}&id=${sp.id}`);
    await page.waitForSelector("[data-testid=prompt-text]");
    await shot("sample-special");

    await open(page, server.url, "/score");
    const dls = [];
    for (const d of all.slice(0, 12)) dls.push(await engineRequest(page, { op: "dialogue", level: d.level, file: d.file }));
    const lines = goldPredictions(dls);
    lines[0].pred = "I'd rather not call anything.";
    lines[2].pred = lines[2].pred.replace(/\)\]$/, ", extra='1')]");
    lines.push({ ...lines[1] });
    await pasteAndScore(page, jsonl(lines) + "not json\n");
    await page.click("[data-testid=verdict-row] >> nth=2 >> text=compare");
    await shot("score-verdicts");
    await open(page, server.url, "/results");
    await page.waitForSelector("[data-testid=level-row]");
    await shot("results-batch");

    await open(page, server.url, "/sandbox");
    const acc = await engineRequest(page, { op: "world", databases: ["Account"] });
    const token = Object.values(acc.databases.Account)[0].token;
    await page.getByTestId("sandbox-input").fill(`[AddAlarm(token='${token}', time='2031-02-03 04:05:06')]`);
    await page.click("[data-testid=sandbox-run]");
    await page.waitForSelector("[data-testid=sandbox-diff]");
    await page.getByTestId("sandbox-input").fill("");
    await page.getByTestId("sandbox-input").type("[AddA");
    await page.waitForSelector("[data-testid=sandbox-suggest]");
    await shot("sandbox-diff");

    await open(page, server.url, "/tools?name=AddAlarm");
    await page.waitForSelector("[data-testid=tool-AddAlarm]");
    await page.getByTestId("tool-run").click();
    await page.waitForSelector("[data-testid=tool-result]");
    await shot("tools-AddAlarm");

    const scene = all.find((d) => d.level === "level-3");
    const d = await engineRequest(page, { op: "dialogue", level: "level-3", file: scene.file });
    await open(page, server.url, "/play?scene=" + encodeURIComponent(scene.file));
    await page.waitForSelector("[data-testid=play-request]");
    const first = d.turns.find((t) => t.role === "API");
    await page.getByTestId("play-input").fill(JSON.stringify({ name: first.api_name, arguments: first.param_dict }));
    await page.getByTestId("play-call").click();
    await page.waitForSelector("[data-testid=play-step]");
    await page.getByTestId("play-finish").click();
    await page.waitForSelector("[data-testid=play-outcome]");
    await page.getByTestId("play-show-plan").click();
    await shot("play-judged");

    await open(page, server.url, "/classroom");
    const ss = await engineRequest(page, { op: "samples", level: "level-1-given-desc" });
    const ex = ss.find((x) => x.kind === "call");
    const dd = await engineRequest(page, { op: "dialogue", level: ex.level, file: ex.file });
    const g = dd.turns.find((t) => t.line === ex.gold_line);
    const keys = Object.keys(g.param_dict);
    await page.getByTestId("classroom-input").fill(goldText({ api_name: g.api_name, param_dict: Object.fromEntries(keys.slice(0, -1).map((k) => [k, g.param_dict[k]])) }));
    await page.getByTestId("classroom-check").click();
    await page.waitForSelector("[data-testid=classroom-verdict]");
    await shot("classroom-hint");

    await page.goto(server.url + "/no/such/page");
    await ready(page);
    await shot("not-found");
  }
} finally {
  await b.close();
  await server.stop();
}
