import { startServer, launch, open } from "./lib.mjs";
import { readdirSync, readFileSync } from "node:fs";
function cpuBy() {
  const out = {};
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, "utf8");
      const r = s.slice(s.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      if (!cmd.includes("chromium")) continue;
      const m = cmd.match(/--type=([a-z-]+)/); const t = m ? m[1] : "browser";
      const u = cmd.match(/--utility-sub-type=([a-zA-Z.]+)/); const k = t + (u ? ":" + u[1].split(".").pop() : "");
      out[k] = (out[k] || 0) + (+r[11] + +r[12]) / 100;
    } catch {}
  }
  return out;
}
const diff = (a, b) => Object.entries(b).map(([k, v]) => `${k} ${(v - (a[k] || 0)).toFixed(1)}`).join(", ");
const server = await startServer();
const b = await launch();
for (let i = 0; i < 3; i++) {
  const c0 = cpuBy();
  const page = await b.context.newPage();
  const t0 = Date.now();
  await open(page, server.url, "/");
  const c1 = cpuBy();
  console.log(`page ${i}: open ${Date.now() - t0} ms; cpu ${diff(c0, c1)}`);
  await page.waitForTimeout(3000);
  console.log(`   +3s idle: ${diff(c1, cpuBy())}`);
  await page.close();
}
await b.close();
await server.stop();
process.exit(0);
