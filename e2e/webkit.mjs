// WebKit (Debian webkit2gtk-driver) driven by plain WebDriver over HTTP: WebKitWebDriver starting
// MiniBrowser under Xvfb. Shared by the WebKit smoke run (tests/engines.test.mjs) and the WebKit first
// visit of bench.mjs.
import { spawn } from "node:child_process";
import net from "node:net";

export const WEBDRIVER = process.env.WEBKIT_WEBDRIVER || "/usr/bin/WebKitWebDriver";
export const MINIBROWSER = process.env.MINIBROWSER || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
export const XVFB = process.env.XVFB || "/usr/bin/Xvfb";

/** freePort is a TCP port free on loopback now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** xvfb starts a virtual X display; resolves {display, stop}. */
export async function xvfb() {
  const proc = spawn(XVFB, ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let err = "";
  proc.stderr.on("data", (d) => (err += d));
  const display = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("Xvfb did not start in 20 s: " + err)), 20000);
    proc.stdio[3].once("data", (d) => {
      clearTimeout(timer);
      resolve(":" + String(d).trim());
    });
    proc.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}: ${err}`)));
  });
  return { display, stop: () => stopProc(proc) };
}

/** stopProc ends a process the caller started and resolves when it is gone. */
export function stopProc(proc) {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once("exit", () => resolve());
    proc.kill("SIGTERM");
  });
}

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/**
 * webDriver starts WebKitWebDriver on display and opens a MiniBrowser session (automation mode: a
 * profile of its own, nothing kept from an earlier session) against the server at site; resolves a
 * driver {goto(path), js(fn, ...args), click(selector), errors(), quit()}: js runs fn in the page and
 * resolves its result (a promise awaited), errors() what the pages reported since their load.
 */
export async function webDriver(display, site) {
  const port = await freePort();
  const proc = spawn(WEBDRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const wd = async (method, p, body) => {
    const r = await fetch(base + p, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const j = await r.json();
    if (!r.ok) throw new Error(`WebDriver ${method} ${p}: ${JSON.stringify(j.value)}`);
    return j.value;
  };
  // The driver listens a moment after it starts.
  for (let i = 0; ; i++) {
    try {
      await wd("GET", "/status");
      break;
    } catch (err) {
      if (i > 100) throw new Error("WebKitWebDriver did not answer in 20 s: " + out);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const caps = { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } };
  const { sessionId } = await wd("POST", "/session", { capabilities: { alwaysMatch: caps } });
  const s = `/session/${sessionId}`;
  await wd("POST", `${s}/timeouts`, { script: 120000 });
  // What a page reports after load: errors, rejections, CSP violations and console.error.
  const listen = () => {
    if (window.apibankErrors) return;
    const errs = (window.apibankErrors = []);
    addEventListener("error", (e) => errs.push("error: " + e.message));
    addEventListener("unhandledrejection", (e) => errs.push("unhandledrejection: " + ((e.reason && e.reason.message) || e.reason)));
    document.addEventListener("securitypolicyviolation", (e) => errs.push("CSP: " + e.violatedDirective + " " + e.blockedURI));
    const ce = console.error;
    console.error = (...a) => {
      errs.push("console.error: " + a.join(" "));
      ce.apply(console, a);
    };
  };
  const errors = [];
  const js = async (fn, ...args) => {
    // An async function's promise is awaited through execute/async's callback.
    const script = `const done = arguments[arguments.length - 1]; Promise.resolve((${fn}).apply(null, Array.from(arguments).slice(0, -1))).then((v) => done({ v }), (e) => done({ e: String(e && e.stack || e) }));`;
    const r = await wd("POST", `${s}/execute/async`, { script, args });
    if (r.e) throw new Error("in WebKit: " + r.e);
    return r.v;
  };
  const collect = async () => errors.push(...(await js(() => (window.apibankErrors || []).splice(0))));
  return {
    errors: async () => {
      await collect();
      return errors;
    },
    goto: async (p) => {
      await collect().catch(() => {});
      await wd("POST", `${s}/url`, { url: site + p });
      await js(listen);
    },
    js,
    click: async (sel) => {
      const el = await wd("POST", `${s}/element`, { using: "css selector", value: sel });
      await wd("POST", `${s}/element/${el[ELEMENT]}/click`, {});
    },
    quit: async () => {
      await wd("DELETE", s).catch(() => {});
      await stopProc(proc);
    },
  };
}

