// A static host: `cmd/server --static DIR --db FILE` writes the pages, web/ and the board's read-only
// export (board.json, board-data/), served here by a plain file server with no API behind it, as a
// static host (GitHub Pages, an S3 bucket) serves them. The Board page reads board.json without
// asking for a live board first: no request to /api/v1/board, no console error. The entry shown
// is one a server judged (`apibank run` against the perfect model, submitted with `apibank submit`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { goBinary, launch, open, root, serverBinary, startFakeModel, startServer, watch, webSnapshot } from "../lib.mjs";

const s = { dir: mkdtempSync(path.join(tmpdir(), "apibank-static-")), host: null, url: "", entry: null };

/** types are the content types the file server gives, by extension. */
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm", ".svg": "image/svg+xml", ".png": "image/png", ".webmanifest": "application/manifest+json", ".jsonl": "application/x-ndjson" };

/** serveFiles serves dir as a static host does: a path is its file, or its .html page, or its index.html; anything else 404. */
function serveFiles(dir) {
  return createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, "http://x").pathname);
    for (const f of [p, p + ".html", path.posix.join(p, "index.html")]) {
      const file = path.join(dir, path.normalize(f));
      if (!file.startsWith(dir)) break;
      try {
        if (!statSync(file).isFile()) continue;
      } catch {
        continue;
      }
      res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("404 page not found\n");
  });
}

before(async () => {
  // A run of level 1 by the perfect model, submitted to a server with a database.
  const fake = await startFakeModel({}, ["--gold", "builtin"]);
  const out = path.join(s.dir, "run.jsonl");
  try {
    execFileSync(goBinary("apibank"), ["run", "--native", "--base-url", fake.url, "--model", "perfect", "--level", "level-1-given-desc", "--out", out], { stdio: ["ignore", "ignore", "inherit"] });
  } finally {
    await fake.stop();
  }
  const db = path.join(s.dir, "board.db");
  const server = await startServer(["--db", db]);
  try {
    for (const until = Date.now() + 120000; ; await new Promise((r) => setTimeout(r, 200))) {
      const h = await fetch(server.url + "/healthz");
      await h.text();
      if (h.status === 200) break;
      if (Date.now() > until) throw new Error(`the server's /healthz answered ${h.status} for 2 minutes`);
    }
    execFileSync(goBinary("apibank"), ["submit", out, "--board", server.url], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    s.entry = (await (await fetch(server.url + "/api/v1/board")).json()).entries[0];
  } finally {
    await server.stop();
  }
  // The export, served by the file server.
  const site = path.join(s.dir, "site");
  execFileSync(serverBinary(), ["--web", webSnapshot(), "--static", site, "--db", db], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  s.host = serveFiles(site);
  await new Promise((r) => s.host.listen(0, "127.0.0.1", r));
  s.url = `http://127.0.0.1:${s.host.address().port}`;
});

after(async () => {
  if (s.host) await new Promise((r) => s.host.close(r));
  rmSync(s.dir, { recursive: true, force: true });
});

test("on a static host the Board page reads the exported board.json, asks no API for a live board, and logs no error", async () => {
  assert.ok(s.entry, "the server judged the submitted run");
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const w = watch(page);
    const asked = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/api/")) asked.push(r.url());
    });
    await open(page, s.url, "/board?entry=" + s.entry.id);
    await page.waitForSelector("[data-testid=board-exported]");
    assert.match(await page.getByTestId("board-exported").textContent(), /read-only export of the board/);
    assert.equal(await page.locator("[data-testid=board-row]").count(), 1, "the one exported entry is listed");
    await page.waitForSelector(`[data-testid=board-entry][data-id="${s.entry.id}"] [data-testid=board-levels]`);
    assert.deepEqual(asked, [], "the pages of a static host ask no API");
    assert.deepEqual(w.errors, []);
    await page.close();
  } finally {
    await b.close();
  }
});
