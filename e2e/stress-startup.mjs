// stress-startup.mjs (not part of the suite; node stress-startup.mjs [N]): opens /sandbox in N fresh Chromium profiles one after
// the other and reports how long each tab's engine took to get ready, and the bridge's status of
// any that did not within 60 s. Used to look for start-up hangs on a loaded machine.
import { startServer, launch } from "./lib.mjs";
const n = Number(process.argv[2] || 20);
const server = await startServer();
const times = [];
for (let i = 0; i < n; i++) {
  const b = await launch({ warmUps: true });
  const page = await b.context.newPage();
  const errors = [];
  page.on("console", (m) => (m.type() === "error" || m.type() === "warning") && errors.push(m.text()));
  const t0 = Date.now();
  await page.goto(server.url + "/sandbox");
  try {
    await page.waitForSelector("[data-testid=engine-status][data-state=ready]", { timeout: 60000 });
    times.push(Date.now() - t0);
    const st = await page.evaluate(() => window.apibankEngine.status());
    console.log(i, Date.now() - t0, "ms", st.restarts ? "restarts " + st.restarts + ": " + st.lastError : "", errors.join(" | "));
  } catch (e) {
    const st = await page.evaluate(() => (window.apibankEngine ? JSON.stringify(window.apibankEngine.status()) : "no bridge")).catch((e) => e.message);
    console.log(i, "NOT READY in 60 s:", st, errors.join(" | "));
  }
  await b.close();
}
times.sort((a, b) => a - b);
console.log("ready", times.length, "of", n, "median", times[times.length >> 1], "max", times.at(-1));
await server.stop();
