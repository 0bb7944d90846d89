// Shared harness of the browser tests, the benchmark and the screenshots: it starts cmd/server on a
// free port, launches Debian's Chromium through playwright-core with a fresh profile, and offers
// helpers to open pages and collect console errors.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, existsSync, cpSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const shared = path.resolve(root, "..", "shared", "apibank");
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * goBinary gives the path of one of the project's commands (server, apibank, fakemodel). make
 * test-browser builds them once for the whole suite and names their folder in APIBANK_E2E_BIN;
 * without it (a test file run alone) each is built once per test process, in a folder removed at
 * exit (a server binary is 19 MB: left behind, a few hundred runs filled a disk).
 */
const builtBinaries = new Map();
let binDir = null;
export function goBinary(name) {
  const given = process.env.APIBANK_E2E_BIN;
  if (given) {
    const p = path.join(given, name);
    if (!existsSync(p)) throw new Error(`APIBANK_E2E_BIN=${given} has no ${name}: run make test-browser, or unset it`);
    return p;
  }
  if (builtBinaries.has(name)) return builtBinaries.get(name);
  if (!binDir) {
    binDir = mkdtempSync(path.join(tmpdir(), "apibank-e2e-bin-"));
    process.on("exit", () => rmSync(binDir, { recursive: true, force: true }));
  }
  const out = path.join(binDir, name);
  execFileSync("go", ["build", "-o", out, `./cmd/${name}`], { cwd: root, stdio: "inherit" });
  builtBinaries.set(name, out);
  return out;
}

/** serverBinary is cmd/server's binary; the Makefile has already built web/. */
export function serverBinary() {
  for (const f of ["app.wasm", "engine.wasm"]) {
    if (!existsSync(path.join(root, "web", f))) throw new Error(`web/${f} is missing: run make app wasm (make test does)`);
  }
  return goBinary("server");
}

/**
 * webSnapshot copies web/ once per run, so the server and the CLI judge with the same engine bytes
 * even while web/engine.wasm is rebuilt during the run.
 */
let snapshot = null;
export function webSnapshot() {
  if (snapshot) return snapshot;
  snapshot = mkdtempSync(path.join(tmpdir(), "apibank-e2e-web-"));
  cpSync(path.join(root, "web"), snapshot, { recursive: true });
  process.on("exit", () => rmSync(snapshot, { recursive: true, force: true }));
  return snapshot;
}

/** cpuTicks is the CPU time (clock ticks, user + system) process pid has used, or -1 where /proc cannot say. */
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15 of stat)
  } catch {
    return -1;
  }
}

/** childrenByParent reads /proc once: each process's children, by its parent's pid. */
function childrenByParent() {
  const children = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

/** cmdline is a process's command line ("" once it has ended). */
export function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

/**
 * processesBelow lists roots and every process under them (their children, theirs, ...), or, with
 * a string, the processes whose command line holds it and every process under those.
 */
export function processesBelow(roots) {
  const children = childrenByParent();
  if (typeof roots === "string") roots = [...children.values()].flat().filter((pid) => cmdline(pid).includes(roots));
  const out = new Set();
  const todo = [...roots];
  while (todo.length > 0) {
    const pid = todo.pop();
    if (out.has(pid)) continue;
    out.add(pid);
    todo.push(...(children.get(pid) || []));
  }
  return [...out];
}

/**
 * whileBusy awaits launch (a browser's start, whose command line holds mark) for as long as the
 * browser's processes keep using CPU, as spawnAnnouncing waits for our commands: it rejects when
 * they have used none for 20 s (a start that hangs) or after 5 min, and then ends them. On this
 * shared machine a cold start of a browser under load takes tens of seconds while it works; a fixed
 * bound (puppeteer's 30 s) read such a start as a failure.
 */
export async function whileBusy(launch, what, mark) {
  let timer;
  const watch = new Promise((_, reject) => {
    const t0 = Date.now();
    let busyAt = t0;
    let ticks = 0;
    timer = setInterval(() => {
      const now = Date.now();
      const t = processesBelow(mark).reduce((sum, pid) => sum + Math.max(0, cpuTicks(pid)), 0);
      if (t > ticks) {
        ticks = t;
        busyAt = now;
      }
      if (now - busyAt > 20000 || now - t0 > 300000) {
        clearInterval(timer);
        for (const pid of processesBelow(mark)) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // gone already
          }
        }
        reject(new Error(`${what} did not start: ${now - busyAt > 20000 ? "its processes used no CPU for 20 s" : "not up after 5 min"}`));
      }
    }, 1000);
  });
  launch.catch(() => {}); // a launch given up on fails later, as its processes are ended: already said
  try {
    return await Promise.race([launch, watch]);
  } finally {
    clearInterval(timer);
  }
}

/**
 * spawnAnnouncing starts a command of ours that prints the URL it listens on as its first stdout
 * output (cmd/server, cmd/fakemodel) and resolves {proc, url, stderr} (the URL without a trailing
 * slash; stderr() is what the command has written there so far); it rejects, with the command's
 * stderr, when the command exits first, or is silent and has used no CPU for 20 s. A command still
 * working is waited for (cmd/server compresses the modules before it listens, which takes a minute
 * on a machine whose cores are shared with other jobs), up to 5 minutes.
 */
function spawnAnnouncing(what, bin, args) {
  const proc = spawn(bin, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = "";
    const t0 = Date.now();
    let busyAt = t0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = Date.now();
      const t = cpuTicks(proc.pid);
      if (t > ticks) {
        ticks = t;
        busyAt = now;
      }
      if (now - busyAt > 20000 || now - t0 > 300000) {
        clearInterval(timer);
        // Ended, not left running: its pipes would keep this test file's process alive after the
        // failure, and the suite would never finish.
        proc.kill("SIGKILL");
        reject(new Error(`${what} did not start: ${now - busyAt > 20000 ? "silent and idle for 20 s" : "not listening after 5 min"}: ` + stderr));
      }
    }, 1000);
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/(http:\/\/\S+)/);
      if (m) {
        clearInterval(timer);
        resolve({ proc, url: m[1].replace(/\/$/, ""), stderr: () => stderr });
      }
    });
    proc.on("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`${what} exited with ${code}: ${stderr}`));
    });
  });
}

/**
 * startServer runs cmd/server on a free port (with extra flags, if given) and resolves {url, log, stop}; log() is its access log so far.
 * Its API's time limit is a minute rather than 20 s: the suite runs several browsers and servers at once on a small machine, and a
 * board submission re-scores a whole run (a test that means to meet the limit sets its own, later flags win).
 */
export async function startServer(extra = []) {
  const bin = serverBinary();
  const { proc, url, stderr } = await spawnAnnouncing("server", bin, ["--addr", "127.0.0.1:0", "--web", webSnapshot(), "--api-timeout", "60s", ...extra]);
  return {
    url,
    log: stderr,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", resolve);
        proc.kill("SIGTERM");
      }),
  };
}

/**
 * launch starts Chromium with a fresh profile directory; close() removes it. opts.serviceWorkers
 * "block" keeps the site's service worker out (so page.route sees every request).
 *
 * Its pages run without the engine's idle warm-ups (the test hook warmUps: false) unless
 * opts.warmUps, or E2E_WARMUPS=1 for every test: a warm-up costs a page about as much CPU as its
 * start, after it is ready, and the suite opens hundreds of pages on a 2-core machine. The tests of
 * the warm-ups, and of what a warm engine gives, ask for them; every other test meets the engine as
 * a page asked at once after "ready" does, which the warm-ups are made never to hold up.
 */
export async function launch(opts = {}) {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: install Debian's chromium (make test does, through scripts/deps.sh)`);
  }
  const profile = mkdtempSync(path.join(tmpdir(), "apibank-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
    viewport: { width: 1200, height: 900 },
    acceptDownloads: true,
    serviceWorkers: opts.serviceWorkers || "allow",
  });
  if (!opts.warmUps && process.env.E2E_WARMUPS !== "1") {
    await context.addInitScript(() => {
      window.apibankTestHooks = Object.assign({ warmUps: false }, window.apibankTestHooks);
    });
  }
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * withWarmUps has page run the engine's idle warm-ups, as every page out of the tests does (see
 * launch): for a test of what a page holds or costs once its idle work is done.
 */
export async function withWarmUps(page) {
  await page.addInitScript(() => {
    window.apibankTestHooks = Object.assign({}, window.apibankTestHooks, { warmUps: true });
  });
}

/** watch records a page's console errors, uncaught exceptions and dialogs (alert). */
export function watch(page) {
  const errors = [];
  const dialogs = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push("console: " + m.text());
  });
  page.on("pageerror", (e) => errors.push("pageerror: " + e.message));
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return { errors, dialogs };
}

/**
 * ready waits until go-app has rendered the page and this tab's engine answers. The limit is
 * generous on purpose: on a loaded 2-core CI machine compiling the two modules alone has taken
 * over 30 s; how fast a first visit is, is measured by `make bench-browser`, not here.
 */
export async function ready(page) {
  try {
    await page.waitForSelector("[data-testid=engine-status][data-state=ready]", { timeout: 120000 });
    await page.waitForFunction(() => !document.getElementById("app-wasm-loader"), null, { timeout: 120000 });
  } catch (e) {
    // The badge alone cannot tell a stuck engine from a UI that never started: say both.
    const status = await page.evaluate(() => {
      const s = document.querySelector("[data-testid=engine-status]");
      const badge = s ? s.dataset.state + ": " + s.textContent : "no engine status on the page";
      const bridge = window.apibankEngine ? JSON.stringify(window.apibankEngine.status()) : "bridge.js has not run";
      const loader = document.getElementById("app-wasm-loader") ? "app.wasm loader still shown: " + document.getElementById("app-wasm-loader").innerText : "app.wasm running";
      return `${badge}; bridge ${bridge}; ${loader}`;
    }).catch(() => "the page did not answer");
    throw new Error(e.message + "\nengine status: " + status);
  }
}

/**
 * offlineReady waits until the site's service worker is activated and controls the page, and its
 * cache holds every URL the worker precaches (read from the worker's own script) and each of paths.
 * It polls from here: page.waitForFunction takes a predicate's returned Promise as a truthy answer
 * and returns at once, so an async predicate there waits for nothing. It throws, saying what is
 * missing, when that is still not so after timeout ms.
 */
export async function offlineReady(page, paths = [], timeout = 60000) {
  const deadline = Date.now() + timeout;
  let last = "";
  for (;;) {
    last = await page.evaluate(async (extra) => {
      const sw = navigator.serviceWorker.controller;
      if (!sw) return "no service worker controls the page";
      if (sw.state !== "activated") return "the service worker is " + sw.state;
      const script = await (await fetch(sw.scriptURL, { cache: "no-store" })).text();
      const m = script.match(/const resourcesToCache = (\[.*?\]);/s);
      if (!m) return "the service worker's script lists no resourcesToCache";
      const want = [...JSON.parse(m[1]), ...extra];
      const missing = [];
      for (const u of want) if (!(await caches.match(new URL(u, location.href).href))) missing.push(u);
      return missing.length ? "not cached yet: " + missing.join(" ") : "";
    }, paths).catch((e) => "the page did not answer: " + e.message);
    if (last === "") return;
    if (Date.now() > deadline) throw new Error(`the site is not ready offline after ${timeout} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** set gives an input a value as a user's edit does (input, then change). */
export async function set(page, testid, value) {
  await page.$eval(`[data-testid=${testid}]`, (el, v) => {
    el.value = v;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }, String(value));
}

/**
 * pagesLoad opens each path at base and checks it renders a heading, then navigates inside the app
 * (no reload) from the Dataset page to a sample; the console errors are the caller's to check.
 */
export async function pagesLoad(page, base, paths) {
  for (const p of paths) {
    await open(page, base, p);
    await page.waitForSelector("main h1");
    assert.ok((await page.textContent("main h1")).trim().length > 0, p + " has a heading");
  }
  await page.click("nav >> text=Dataset");
  await page.waitForSelector("[data-testid=dialogue-row]");
  await page.click("[data-testid=dialogue-row] a");
  await page.waitForSelector("[data-testid=prompt-text]");
}

/** open navigates to a path and waits for ready. */
export async function open(page, base, p) {
  await page.goto(base + p);
  await ready(page);
}

/**
 * visit moves a page whose app is already running to p (a path, with its query) as a click on one of
 * its links does: go-app's router mounts p's page in the same document, with no reload, no new
 * download or compile of the modules and the same engine worker. go-app sets the address once the
 * page is mounted, so the address is what is waited for; then, as open does, the engine being ready.
 * Tests that walk many pages use it: a full load a page costs seconds of the machine's CPU.
 */
export async function visit(page, p) {
  await page.evaluate((to) => window.goappNav(to), p);
  await page.waitForFunction((to) => {
    const u = new URL(to, location.href);
    return decodeURIComponent(location.pathname + location.search) === decodeURIComponent(u.pathname + u.search);
  }, p);
  await ready(page);
}

/** engineRequest sends a protocol request from the page through the tab's bridge. */
export async function engineRequest(page, req) {
  return answer(await page.evaluate(async (text) => window.apibankEngine.request(text), JSON.stringify(Object.assign({ v: 1 }, req))));
}

/** answer is the result of a bridge answer r ({ok, text} or {ok: false, error}); an error throws, prefixed with where. */
function answer(r, where = "") {
  if (!r.ok) throw new Error(where + r.error);
  const resp = JSON.parse(r.text);
  if (!resp.ok) throw new Error(where + resp.error.message);
  return resp.result;
}

/**
 * fullDialogues fetches the full form (turns included) of each listed dialogue ({level, file}, as the
 * dialogues op lists them) through the tab's bridge, one request after another in the page, in one
 * round trip from here (hundreds of page.evaluate calls cost tests tens of seconds).
 */
export async function fullDialogues(page, list) {
  const texts = list.map((d) => JSON.stringify({ v: 1, op: "dialogue", level: d.level, file: d.file }));
  const rs = await page.evaluate(async (ts) => {
    const out = [];
    for (const t of ts) out.push(await window.apibankEngine.request(t));
    return out;
  }, texts);
  return rs.map((r, i) => answer(r, `${list[i].level}/${list[i].file}: `));
}

/** pyStr renders a JSON value as Python's str() does, for the text form of gold calls. */
export function pyStr(v) {
  if (typeof v === "string") return v;
  return pyRepr(v);
}

function pyRepr(v) {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === "string") return v.includes("'") && !v.includes('"') ? `"${v}"` : `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]";
  return "{" + Object.entries(v).map(([k, x]) => pyRepr(k) + ": " + pyRepr(x)).join(", ") + "}";
}

/** goldText is a gold API turn in the original text form: [Name(key='value', ...)]. */
export function goldText(turn) {
  const args = Object.entries(turn.param_dict || {}).map(([k, v]) => `${k}='${pyStr(v)}'`);
  return `[${turn.api_name}(${args.join(", ")})]`;
}

/**
 * textCarries tells whether the original text format can write a call exactly: its parser cuts a
 * value at the first quote of either kind, drops empty values, and reads no lists or objects.
 */
export function textCarries(params) {
  return Object.values(params || {}).every((v) =>
    typeof v === "string" ? v !== "" && !/['"\n]/.test(v) : v === null || typeof v !== "object");
}

/** goldCall is a perfect prediction of a gold API turn: the text form where it carries the call, else native. */
export function goldCall(turn) {
  return textCarries(turn.param_dict) ? goldText(turn) : JSON.stringify({ name: turn.api_name, arguments: turn.param_dict });
}

/**
 * goldPredictions makes the gold prediction lines of dialogues (one per call sample, and the gold
 * reply for each reply sample) straight from their turns, numbered as the original numbers samples.
 * Parallel API turns (`parallel: true`) join the call set of the API turn before them: one sample,
 * predicted as a text list [A(...), B(...)] where the text form carries every call, else a JSON list.
 */
export function goldPredictions(dialogues, { replies = true } = {}) {
  const lines = [];
  for (const d of dialogues) {
    let k = 0;
    d.turns.forEach((t, i) => {
      if (t.role !== "API" || t.parallel) return;
      let last = i;
      while (d.turns[last + 1] && d.turns[last + 1].role === "API" && d.turns[last + 1].parallel) last++;
      const set = d.turns.slice(i, last + 1);
      let pred = goldCall(t);
      if (set.length > 1) {
        pred = set.every((c) => textCarries(c.param_dict))
          ? "[" + set.map((c) => goldText(c).slice(1, -1)).join(", ") + "]"
          : JSON.stringify(set.map((c) => ({ name: c.api_name, arguments: c.param_dict })));
      }
      lines.push({ level: d.level, file: d.file, id: 2 * k, pred, tool: t.api_name, turn: t, set });
      const next = d.turns[last + 1];
      if (replies && next && next.role === "AI") lines.push({ level: d.level, file: d.file, id: 2 * k + 1, pred: next.text });
      k++;
    });
  }
  return lines;
}

/** jsonl writes prediction lines as the original's format. */
export function jsonl(lines) {
  return lines.map((l) => JSON.stringify({ level: l.level, file: l.file, id: l.id, pred: l.pred })).join("\n") + "\n";
}

/** cli runs the project's CLI (on the run's engine snapshot) and returns its stdout; exit status 1 (bad input lines) is expected. */
export function cli(args) {
  try {
    return execFileSync(goBinary("apibank"), [...args, "--wasm", path.join(webSnapshot(), "engine.wasm")], { cwd: root, encoding: "utf8", maxBuffer: 256 << 20, stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    if (err.status === 1 && err.stdout) return err.stdout;
    throw new Error(`apibank ${args.join(" ")}: ${err.stderr || err.message}`);
  }
}

/** pasteAndScore fills the bulk box, scores it, and waits for this run's verdicts. */
export async function pasteAndScore(page, text) {
  const runs = () => page.evaluate(() => Number((document.querySelector("[data-testid=verdicts]") || { dataset: {} }).dataset.run || 0));
  const before = await runs();
  // A paste: the whole text at once (Playwright's fill types it as input, seconds for big files).
  await page.$eval("[data-testid=bulk-predictions]", (el, t) => {
    el.value = t;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }, text);
  await page.getByTestId("score-button").click();
  await page.waitForFunction((n) => Number((document.querySelector("[data-testid=verdicts]") || { dataset: {} }).dataset.run || 0) > n, before, { timeout: 60000 });
}

/** verdicts reads the verdict rows: line -> category ("REPLY" for reply samples). */
export async function verdicts(page) {
  return page.$$eval("[data-testid=verdict-row]", (rows) => rows.map((r) => [Number(r.dataset.line), r.dataset.category]));
}

/**
 * session starts the server and Chromium before a test file's tests and stops both after them. With
 * APIBANK_E2E_TARGET=worker in the environment the server is the Worker on workerd (startWorker), so
 * a test file runs unchanged against the public demo. opts.db gives the server a SQLite file of its
 * own (--db, in a temporary folder removed after): the classes and the board are served, as the
 * Worker always serves them. opts.warmUps keeps the engine's idle warm-ups on (see launch).
 */
export function session(opts = {}) {
  const s = { server: null, browser: null, dir: null };
  before(async () => {
    let extra = [];
    if (opts.db && process.env.APIBANK_E2E_TARGET !== "worker") {
      s.dir = mkdtempSync(path.join(tmpdir(), "apibank-e2e-db-"));
      extra = ["--db", path.join(s.dir, "site.db")];
    }
    s.server = process.env.APIBANK_E2E_TARGET === "worker" ? await startWorker() : await startServer(extra);
    s.browser = await launch({ warmUps: opts.warmUps });
  });
  after(async () => {
    if (s.browser) await s.browser.close();
    if (s.server) await s.server.stop();
    if (s.dir) rmSync(s.dir, { recursive: true, force: true });
  });
  return s;
}

/** workerDir is the Worker's wrangler project: wrangler.jsonc, its pinned wrangler, build/ (make worker). */
export const workerDir = path.join(root, "worker");

/**
 * wranglerEnv is the environment wrangler runs in for the tests: no telemetry, no error reports, no
 * update check (the banner does it), no fetch of Cloudflare's Request.cf data, no colours.
 */
export function wranglerEnv() {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  };
}

/** wranglerBin is the pinned wrangler's entry point; a missing install or build is an error saying what to run. */
export function wranglerBin() {
  const bin = path.join(workerDir, "node_modules", "wrangler", "bin", "wrangler.js");
  if (!existsSync(bin)) throw new Error("worker/node_modules is missing: run `cd worker && npm ci` (make test-browser does)");
  for (const f of ["build/app.wasm", "build/worker.mjs", "build/assets/index.html"]) {
    if (!existsSync(path.join(workerDir, f))) throw new Error(`worker/${f} is missing: run make worker (make test-browser does)`);
  }
  return bin;
}

/**
 * startWorker runs the Worker locally on workerd (`wrangler dev` on 127.0.0.1, a free port, its
 * state in a temporary folder) and resolves {url, pid, output, persist, stop}. pid is wrangler's; its
 * process group holds workerd, and stop ends that group (the one this call started). opts.persist
 * names the state folder to use instead (the local D1 in it is kept: a second startWorker on it is
 * the same Worker restarted; the caller removes it), and opts.vars sets Worker variables
 * ({CLASS_ANSWERS_PER_STUDENT: "4"}: `--var NAME:VALUE`).
 */
export async function startWorker(opts = {}) {
  const bin = wranglerBin();
  const persist = opts.persist || mkdtempSync(path.join(tmpdir(), "apibank-wrangler-"));
  const vars = Object.entries(opts.vars || {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const args = [bin, "dev", "--ip", "127.0.0.1", "--port", "0", "--inspector-port", "0", "--persist-to", persist, "--show-interactive-dev-session=false", ...vars];
  const proc = spawn(process.execPath, args, { cwd: workerDir, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const output = { text: "" };
  proc.stderr.on("data", (d) => (output.text += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("wrangler dev did not start in 60 s: " + output.text)), 60000);
    proc.stdout.on("data", (d) => {
      output.text += d;
      const m = output.text.match(/Ready on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on("exit", (code) => reject(new Error(`wrangler dev exited with ${code}: ${output.text}`)));
  });
  return {
    url,
    pid: proc.pid,
    output,
    persist,
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          if (!opts.persist) rmSync(persist, { recursive: true, force: true });
          resolve();
        };
        if (proc.exitCode !== null) return done();
        proc.once("exit", done);
        try {
          process.kill(-proc.pid, "SIGTERM");
        } catch {
          done();
        }
      }),
  };
}

/** workerdPids lists the workerd processes under wrangler's (the runtime that runs the Worker). */
export function workerdPids(root) {
  const parent = new Map();
  const name = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      name.set(Number(d), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(d), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const under = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...name].filter(([pid, n]) => n === "workerd" && under(pid)).map(([pid]) => pid);
}

/** cpuMillis is the CPU time (user + system) the processes have used so far, in ms. */
export function cpuMillis(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** listeningPorts are the TCP ports on which the processes pids listen (Linux: /proc/PID/fd and /proc/net/tcp). */
function listeningPorts(pids) {
  const inodes = new Set();
  for (const pid of pids) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // the process ended while we looked
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        // the descriptor closed while we looked
      }
    }
  }
  const ports = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === "0A" && inodes.has(f[9])) ports.push(parseInt(f[1].split(":")[1], 16));
    }
  }
  return ports;
}

/**
 * workerdDirect finds the address at which the workerd that runs the Worker under `wrangler dev`
 * (startWorker's) answers by itself: wrangler dev puts a proxy of its own (a second workerd, for
 * reloads) in front of it, which a deployed Worker does not have. It is the one of that runtime's
 * sockets, other than the proxy's, where /healthz answers in the API's JSON; undefined when none
 * does (not on Linux, or wrangler changed).
 */
export async function workerdDirect(worker) {
  const proxy = Number(new URL(worker.url).port);
  for (const port of listeningPorts(workerdPids(worker.pid))) {
    if (port === proxy) continue;
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000), headers: { Connection: "close" } });
      const body = await r.text();
      if ((r.headers.get("content-type") || "").startsWith("application/json") && /"status"|"error"/.test(body)) return `http://127.0.0.1:${port}`;
    } catch {
      // not an HTTP socket (the inspector's, a debug port)
    }
  }
  return undefined;
}

/**
 * startFakeModel runs cmd/fakemodel (the scripted OpenAI-compatible server) on a free port, with
 * args added to its command line (["--gold", "builtin"]: the perfect model), and resolves {url (its
 * /v1 base URL), origin, script(s), requests(), reset(), stop()}.
 */
export async function startFakeModel(script, args = []) {
  const { proc, url } = await spawnAnnouncing("fakemodel", goBinary("fakemodel"), ["--addr", "127.0.0.1:0", ...args]);
  const origin = new URL(url).origin;
  const post = async (p, body) => {
    const r = await fetch(origin + p, { method: "POST", body: body === undefined ? "" : JSON.stringify(body) });
    if (!r.ok) throw new Error(`fakemodel ${p}: HTTP ${r.status} ${await r.text()}`);
  };
  const fake = {
    url,
    origin,
    script: (s) => post("/_fake/script", s),
    reset: () => post("/_fake/reset"),
    requests: async () => (await fetch(origin + "/_fake/requests")).json(),
    /** batch answers a batch input file as a provider does and returns its output file. */
    batch: async (input) => {
      const r = await fetch(origin + "/_fake/batch", { method: "POST", body: input });
      if (!r.ok) throw new Error(`fakemodel /_fake/batch: HTTP ${r.status} ${await r.text()}`);
      return r.text();
    },
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", resolve);
        proc.kill("SIGTERM");
      }),
  };
  if (script) await fake.script(script);
  return fake;
}

/**
 * traceTasks records, through the DevTools protocol (a Chromium trace), every task the page's main
 * thread (thread "worker": its Web Workers' threads) runs from now until the returned stop() is
 * called; stop resolves the tasks as
 * {at, wall, cpu} in ms (at from the first task). wall is how long the thread was in the task;
 * cpu how long of that it ran (the trace's thread time; its wall time where a trace has none): on a
 * loaded machine the difference is the time the thread waited for a core.
 */
export async function traceTasks(page, thread = "main") {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { recordMode: "recordAsMuchAsPossible", includedCategories: ["toplevel", "disabled-by-default-devtools.timeline"] },
  });
  return async () => {
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
    return threadTasks(events, thread === "worker" ? "DedicatedWorker thread" : "CrRendererMain");
  };
}

/**
 * threadTasks picks the threads named name (CrRendererMain: the page's main thread; DedicatedWorker
 * thread: its Web Workers) of the page's process out of a trace's events and lists their tasks.
 */
function threadTasks(events, name) {
  const started = events.filter((e) => e.name === "TracingStartedInBrowser").at(-1);
  const frame = started && (started.args.data.frames || []).find((f) => f.isOutermostMainFrame);
  if (!frame) throw new Error("the trace names no main frame (TracingStartedInBrowser)");
  // A worker's thread may live in another renderer process than its page's frame: workers are
  // matched by name in any process (the tests close their other pages).
  const mine = (e) => name !== "CrRendererMain" || e.pid === frame.processId;
  const threads = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args.name === name && mine(e)).map((e) => `${e.pid}/${e.tid}`));
  if (!threads.size) throw new Error(`the trace has no ${name} thread for the page (its frame's process ${frame.processId})`);
  const runs = events
    // A worker's script runs in the timeline's RunTask events, not all inside the scheduler's
    // ThreadControllerImpl::RunTask: both count, one nested in the other once.
    .filter((e) => threads.has(`${e.pid}/${e.tid}`) && e.ph === "X" && (e.name === "ThreadControllerImpl::RunTask" || (name !== "CrRendererMain" && e.name === "RunTask")))
    .sort((a, b) => a.ts - b.ts);
  const tasks = [];
  const ends = new Map(); // a thread's last task end
  for (const e of runs) {
    const thread = `${e.pid}/${e.tid}`;
    if (e.ts < (ends.get(thread) ?? -Infinity)) continue; // a task nested in another (a nested run loop) counts in its outer task
    ends.set(thread, e.ts + e.dur);
    tasks.push({ ts: e.ts, wall: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000 });
  }
  const t0 = tasks.length ? tasks[0].ts : 0;
  return tasks.map((t) => ({ at: (t.ts - t0) / 1000, wall: t.wall, cpu: t.cpu }));
}

/** runProgress reads the Run page's progress hook: done, total, failed, state and the run's id. */
export async function runProgress(page) {
  return page.$eval("[data-testid=run-progress]", (el) => ({
    done: Number(el.dataset.done), total: Number(el.dataset.total), failed: Number(el.dataset.failed), state: el.dataset.state, id: el.dataset.id,
  }));
}

/** runFinished waits until the run the Run page shows has ended and is not the run `before`, and reads its progress. */
export async function runFinished(page, before = "", timeout = 180000) {
  await page.waitForFunction((b) => {
    const el = document.querySelector("[data-testid=run-progress]");
    return el && el.dataset.state !== "running" && el.dataset.id !== b;
  }, before, { timeout, polling: 100 });
  return runProgress(page);
}

/**
 * fillRunForm fills the Run page's form as a user does: a custom endpoint (baseURL, key, model),
 * the form (text or native), the levels ticked, and the run's settings (timeout in seconds, "" for the
 * default).
 */
export async function fillRunForm(page, { baseURL, key, model, form = "text", levels = ["level-1-given-desc"], limit = "", concurrency = 4, stream = false, retries = 0, trials = 1, timeout = "" }) {
  await page.getByTestId("run-preset").selectOption("custom");
  await set(page, "run-base-url", baseURL);
  await set(page, "run-api-key", key);
  await set(page, "run-model", model);
  await page.getByTestId("run-form").selectOption(form);
  for (const box of await page.$$("[data-testid=run-level]")) {
    const want = levels.includes(await box.getAttribute("value"));
    if ((await box.isChecked()) !== want) await box.click();
  }
  await set(page, "run-limit", limit);
  await set(page, "run-concurrency", concurrency);
  await set(page, "run-retries", retries);
  await set(page, "run-trials", trials);
  await set(page, "run-timeout", timeout);
  const streamBox = page.getByTestId("run-stream");
  if ((await streamBox.isChecked()) !== stream) await streamBox.click();
}

/** overflow says whether the page scrolls sideways, and which elements stick out past the viewport. */
export async function overflow(page) {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const wide = [];
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= vw + 0.5) continue;
      // An element inside a box that scrolls on its own is fine: the box is what must fit.
      let p = el.parentElement, clipped = false;
      while (p && p !== document.body) {
        const ox = getComputedStyle(p).overflowX;
        if (ox === "auto" || ox === "scroll" || ox === "hidden") { clipped = p.getBoundingClientRect().right <= vw + 0.5; break; }
        p = p.parentElement;
      }
      if (!clipped) wide.push(`${el.tagName.toLowerCase()}.${el.className || ""}[${el.dataset.testid || ""}] right=${Math.round(r.right)}`);
    }
    // Text runs past its box where a word (a URL, a file name) cannot break.
    const tw = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n; (n = tw.nextNode());) {
      const rg = document.createRange();
      rg.selectNodeContents(n);
      const r = rg.getBoundingClientRect();
      if (r.width > 0 && r.right > vw + 0.5) wide.push(`text in ${n.parentElement.tagName.toLowerCase()}.${n.parentElement.className} ${JSON.stringify(n.textContent.slice(0, 30))} right=${Math.round(r.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, wide: wide.slice(0, 6) };
  });
}

/**
 * fits fails unless the page, at its viewport's width, does not scroll sideways and no table breaks a
 * word over lines (see brokenWords; where says which state).
 */
export async function fits(page, where) {
  await page.waitForTimeout(100);
  const o = await overflow(page);
  assert.ok(o.scrollWidth <= o.innerWidth, `${where}: the page is ${o.scrollWidth} px wide at ${o.innerWidth} px: ${o.wide.join(", ")}`);
  assert.deepEqual(await brokenWords(page), [], `${where}: a table breaks these words over lines at ${o.innerWidth} px`);
}

/**
 * brokenWords lists the words of the page's tables (but the verdicts, which become cards on a phone)
 * that are drawn over more than one line: a word broken letter by letter in a squeezed column. A word
 * here runs between spaces, hyphens, dashes and slashes (where a line may break); code and pre break
 * anywhere on purpose and are left out.
 */
export async function brokenWords(page) {
  return page.evaluate(() => {
    const out = [];
    for (const cell of document.querySelectorAll("table:not(.verdicts) td, table:not(.verdicts) th")) {
      const tw = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n; (n = tw.nextNode());) {
        if (n.parentElement.closest("code, pre") || n.parentElement.getClientRects().length === 0) continue;
        const re = /[^\s\-\/\u2013\u2014]{2,}/g; // en and em dashes break too
        for (let m; (m = re.exec(n.textContent));) {
          const rg = document.createRange();
          rg.setStart(n, m.index);
          rg.setEnd(n, m.index + m[0].length);
          const tops = new Set([...rg.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) out.push(`${JSON.stringify(m[0])} in ${cell.tagName.toLowerCase()} of ${JSON.stringify(cell.closest("table").textContent.slice(0, 40))}`);
        }
      }
    }
    return out.slice(0, 8);
  });
}

let axeSource = "";

/** axe runs axe-core in the page (evaluated, so the site's script policy does not apply) and returns the serious and critical violations. */
export async function axe(page) {
  axeSource ||= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(axeSource);
  const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations
    .filter((x) => x.impact === "serious" || x.impact === "critical")
    .map((x) => `${x.id} (${x.impact}): ${x.help} — ${x.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`));
  return v;
}

/**
 * tabMemory measures a tab's memory through the DevTools protocol: the page's and each of its
 * dedicated workers' (the engine's) JS heap in use (Runtime.getHeapUsage) plus their WebAssembly
 * memories (every WebAssembly.Memory in their heaps, found with Runtime.queryObjects: app.wasm's on
 * the page, engine.wasm's in its worker), which the JS heap does not count. It returns
 * sample({ wasm }), which resolves to { total, parts: [{ type, url, heap, wasm }] } in bytes, and
 * stop(). Finding the memories walks the heap, which crashed a renderer busy with a run: sample with
 * wasm false while it runs (a WebAssembly memory never shrinks, so its size at the end is its peak).
 */
/** measure reads a JS realm's heap in use and (withWasm) the bytes of its WebAssembly memories, through the DevTools protocol (send). */
async function measure(send, withWasm) {
  const heap = (await send("Runtime.getHeapUsage")).usedSize;
  if (!withWasm) return { heap, wasm: 0 };
  const proto = await send("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype" });
  const found = await send("Runtime.queryObjects", { prototypeObjectId: proto.result.objectId });
  const sum = await send("Runtime.callFunctionOn", {
    objectId: found.objects.objectId,
    functionDeclaration: "function () { return this.reduce((n, m) => n + m.buffer.byteLength, 0); }",
    returnByValue: true,
  });
  await send("Runtime.releaseObject", { objectId: found.objects.objectId });
  await send("Runtime.releaseObject", { objectId: proto.result.objectId });
  return { heap, wasm: sum.result.value };
}

/**
 * pageHolds is what a page holds: its JS heap after a garbage collection, and its WebAssembly
 * memory (app.wasm's Go heap at its peak: Go never gives memory back to the page).
 */
export async function pageHolds(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("HeapProfiler.collectGarbage");
    return await measure((method, params = {}) => cdp.send(method, params), true);
  } finally {
    await cdp.detach();
  }
}

export async function tabMemory(page) {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map(); // sessionId -> targetInfo
  const pending = new Map();
  let next = 0;
  cdp.on("Target.attachedToTarget", (e) => {
    if (e.targetInfo.type === "worker") workers.set(e.sessionId, e.targetInfo);
  });
  cdp.on("Target.detachedFromTarget", (e) => workers.delete(e.sessionId));
  cdp.on("Target.receivedMessageFromTarget", (e) => {
    const m = JSON.parse(e.message);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${m.error.message} (${JSON.stringify(m.error)})`));
    else p.resolve(m.result);
  });
  // Workers are reached through the page's session: Playwright has no session of a worker's own.
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  // A worker that ends (the tab replaces its engine worker at times) answers nothing more: its
  // calls give up after 5 s, and it is left out of the sample.
  const inWorker = (sessionId) => (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        workers.delete(sessionId);
        reject(new Error(`worker ${sessionId}: no answer to ${method}`));
      }, 5000);
      const done = (f) => (v) => {
        clearTimeout(timer);
        f(v);
      };
      pending.set(id, { resolve: done(resolve), reject: done(reject) });
      cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(done(reject));
    });
  const onPage = (method, params = {}) => cdp.send(method, params);
  return {
    sample: async ({ wasm = true } = {}) => {
      const parts = [{ type: "page", url: page.url(), ...(await measure(onPage, wasm)) }];
      for (const [sessionId, info] of workers) {
        try {
          parts.push({ type: "worker", url: info.url, ...(await measure(inWorker(sessionId), wasm)) });
        } catch (err) {
          if (workers.has(sessionId)) throw err; // a worker that ended meanwhile is not measured
        }
      }
      return { total: parts.reduce((n, p) => n + p.heap + p.wasm, 0), parts };
    },
    stop: () => cdp.detach(),
  };
}

/**
 * readRunStore reads the tab's run store (IndexedDB "apibank-runs") as the tab keeps it: each run's
 * summary in "runs" (or the run whole, as runs were kept before), its records in "landed" (by run
 * ID, NUL, task key), its full verdicts in "verdicts". It returns every run put back together whole
 * (runs: the run's export), what "runs" keeps (kept), the records by key (records, and their keys:
 * landed), and every stored value's text (raw). With id, it returns {runs} alone, holding that run
 * alone: a run of long answers is tens of MB, which the page need not send to the test twice over.
 */
export async function readRunStore(page, id) {
  return page.evaluate(async (only) => {
    const db = await new Promise((resolve, reject) => {
      const req = indexedDB.open("apibank-runs");
      req.onerror = () => reject(req.error);
      req.onsuccess = () => resolve(req.result);
    });
    const names = ["runs", "landed", "verdicts"].filter((n) => db.objectStoreNames.contains(n));
    const got = names.length === 0 ? {} : await new Promise((resolve, reject) => {
      const tx = db.transaction(names, "readonly");
      const reqs = names.map((n) => [n, tx.objectStore(n).getAllKeys(), tx.objectStore(n).getAll()]);
      tx.oncomplete = () => resolve(Object.fromEntries(reqs.map(([n, k, v]) => [n, { keys: k.result, values: v.result }])));
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    const table = async (n) => {
      const m = new Map();
      const t = got[n] || { keys: [], values: [] };
      for (let i = 0; i < t.keys.length; i++) m.set(t.keys[i], typeof t.values[i] === "string" ? t.values[i] : await t.values[i].text());
      return m;
    };
    const [runs, landed, verdicts] = [await table("runs"), await table("landed"), await table("verdicts")];
    const whole = [];
    for (const [id, text] of runs) {
      if (only && id !== only) continue;
      const kept = JSON.parse(text);
      if (!kept.summary) {
        whole.push(kept);
        continue;
      }
      const r = kept.run;
      r.predictions = [];
      r.responses = {};
      r.episodes = [];
      for (const k of kept.order || []) {
        const l = JSON.parse(landed.get(id + "\u0000" + k));
        if (l.episode) r.episodes.push(l.episode);
        else {
          r.predictions.push(l.pred);
          if (!l.no_response) r.responses[k] = l.response;
        }
      }
      if (verdicts.has(id)) r.batch = JSON.parse(verdicts.get(id));
      whole.push(r);
    }
    if (only) return { runs: whole };
    return {
      runs: whole,
      kept: [...runs.values()].map((t) => JSON.parse(t)),
      landed: [...landed.keys()],
      records: Object.fromEntries([...landed].map(([k, t]) => [k, JSON.parse(t)])),
      raw: [...runs.values(), ...landed.values(), ...verdicts.values()].join("\n"),
    };
  }, id || "");
}

/** savedRun reads a model run whole as the tab keeps it in IndexedDB (readRunStore), by ID. */
export async function savedRun(page, id) {
  const run = (await readRunStore(page, id)).runs.find((r) => r.id === id);
  if (!run) throw new Error(`run ${id} is not in IndexedDB`);
  return run;
}
