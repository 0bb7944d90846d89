import { startServer, launch } from "./lib.mjs";
const server = await startServer();
const b = await launch();
const page = await b.context.newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send("Network.enable");
await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
await page.goto(server.url + "/web/icon.svg");
await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 60, downloadThroughput: 9e6 / 8, uploadThroughput: 9e6 / 8 });
const url = await page.evaluate(() => fetch("/").then(r => r.text()).then(t => t.match(/\/web\/app\.wasm\?v=\w+/)[0]));
for (const mode of ["arrayBuffer", "compileStreaming", "arrayBuffer"]) {
  const ms = await page.evaluate(async ([u, mode]) => {
    const t0 = performance.now();
    const r = await fetch(u + "&x=" + Math.random(), { cache: "no-store" });
    if (mode === "arrayBuffer") await r.arrayBuffer(); else await WebAssembly.compileStreaming(r);
    return performance.now() - t0;
  }, [url, mode]);
  console.log(mode, ms.toFixed(0));
}
await b.close(); await server.stop(); process.exit(0);
