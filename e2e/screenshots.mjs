// Saves a PNG of every page to screenshots/ (gitignored) for review, at desktop and phone widths,
// with some work done on the pages that show results. `make screenshots` runs it.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { root, startServer, launch, open, engineRequest, goldPredictions, jsonl, pasteAndScore } from "./lib.mjs";

const dir = path.join(root, "screenshots");
mkdirSync(dir, { recursive: true });
const server = await startServer();
const b = await launch();
try {
  const page = await b.context.newPage();
  const shot = async (name) => {
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(dir, name + ".png"), fullPage: true });
    console.log("screenshots/" + name + ".png");
  };
  for (const [p, name] of [["/", "home"], ["/dataset", "dataset"], ["/sample", "sample"], ["/import", "import"], ["/classroom", "classroom"]]) {
    await open(page, server.url, p);
    await page.waitForTimeout(300);
    await shot(name);
  }
  await open(page, server.url, "/score");
  const list = (await engineRequest(page, { op: "dialogues" })).slice(0, 12);
  const dls = [];
  for (const d of list) dls.push(await engineRequest(page, { op: "dialogue", level: d.level, file: d.file }));
  const lines = goldPredictions(dls);
  lines[0].pred = "I'd rather not call anything.";
  lines[2].pred = lines[2].pred.replace(/\)\]$/, ", extra='1')]");
  await pasteAndScore(page, jsonl(lines) + "not json\n");
  await page.click("[data-testid=verdict-row] >> nth=2 >> text=compare");
  await shot("score");
  await open(page, server.url, "/results");
  await shot("results");
  await open(page, server.url, "/sandbox");
  await page.click("[data-testid=sandbox-example] >> nth=0");
  await page.click("[data-testid=sandbox-run]");
  await page.waitForSelector("[data-testid=sandbox-history]");
  await shot("sandbox");
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, server.url, "/");
  await shot("phone-home");
  await open(page, server.url, "/score");
  await shot("phone-score");
} finally {
  await b.close();
  await server.stop();
}
