// storage.js: what this tab keeps of its engine's state, so that a restarted worker (engine.js) and
// a reloaded page get it back: the last load of an imported folder and the sandbox calls made since.
// The sandbox calls and which data is active live in sessionStorage (per tab: another tab has its
// own); an imported folder, too big for it, lives in IndexedDB under a key kept in sessionStorage.
// IndexedDB is bounded in time everywhere (within): one that never answers (blocked, or a browser's
// private mode) must not keep the engine from starting nor a load from being answered.

const SESSION_KEY = "apibank.engine";
/** KEEP_MS is how long a load's answer waits for its folder to be kept, and a reload for it to be read. */
export const KEEP_MS = 5000;

/** within rejects when p has not settled after ms (an IndexedDB that never answers, say). */
export function within(p, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(what + " did not answer within " + ms / 1000 + " s")), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function idb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("apibank", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("imports");
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** idbPut keeps value under key, and only the three most recent imports. */
export async function idbPut(key, value) {
  const db = await idb();
  await new Promise((resolve, reject) => {
    const tx = db.transaction("imports", "readwrite");
    const store = tx.objectStore("imports");
    store.put(value, key);
    const all = store.getAll();
    const keys = store.getAllKeys();
    keys.onsuccess = () => {
      all.onsuccess = () => {
        const items = keys.result.map((k, i) => ({ k, at: (all.result[i] || {}).at || 0 })).sort((a, b) => b.at - a.at);
        for (const old of items.slice(3)) store.delete(old.k);
      };
    };
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

/** idbGet reads the value kept under key (undefined when none). */
export async function idbGet(key) {
  const db = await idb();
  const v = await new Promise((resolve, reject) => {
    const req = db.transaction("imports").objectStore("imports").get(key);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  db.close();
  return v;
}

/** idbClear forgets every kept import. */
export async function idbClear() {
  const db = await idb();
  await new Promise((resolve) => {
    const tx = db.transaction("imports", "readwrite");
    tx.objectStore("imports").clear();
    tx.oncomplete = resolve;
    tx.onerror = resolve;
  });
  db.close();
}

/**
 * Kept is the tab's engine state that a restart or a reload rebuilds. store is what it writes to:
 * {session: a Web Storage (sessionStorage), put, get, clear (IndexedDB: idbPut, idbGet, idbClear)};
 * log is console by default. read is the promise of readBack (set by the page; engine.js waits for
 * it before a replay).
 */
export class Kept {
  constructor(store, log) {
    this.store = store;
    this.log = log || console;
    this.loadText = null; // the last load of an imported folder (null: builtin)
    this.variantText = null; // the last load of a variant of the builtin data, by its seed (null: none)
    this.sandbox = []; // sandbox call requests since the last load or reset
    this.importedText = null; // the last imported folder's load request (kept while builtin is active)
    this.importedName = "";
    this.tabKey = ""; // the IndexedDB key of the imported folder ("" while it is not written)
    this.read = Promise.resolve();
  }

  save() {
    try {
      const active = this.loadText ? "imported" : this.variantText ? "variant" : "builtin";
      this.store.session.setItem(SESSION_KEY, JSON.stringify({ sandbox: this.sandbox, imported: this.importedName, active, variant: this.variantText, key: this.tabKey }));
    } catch (err) {
      this.log.warn("apibank: could not save the sandbox history:", err.message);
    }
  }

  load() {
    try {
      return JSON.parse(this.store.session.getItem(SESSION_KEY) || "null");
    } catch (err) {
      return null;
    }
  }

  /**
   * readBack restores, after a reload, the state this tab saved. An IndexedDB that does not answer
   * within KEEP_MS must not keep the engine from starting: the folder is then not restored, nor the
   * sandbox calls made on it (they would change another world).
   */
  async readBack() {
    const saved = this.load();
    if (!saved) return;
    const calls = Array.isArray(saved.sandbox) ? saved.sandbox : [];
    this.tabKey = saved.key || "";
    if (saved.active === "variant" && typeof saved.variant === "string") this.variantText = saved.variant;
    if (this.tabKey) {
      try {
        const rec = await within(this.store.get(this.tabKey), KEEP_MS, "IndexedDB");
        if (rec && rec.text) {
          this.importedText = rec.text;
          this.importedName = rec.name || "";
          if (saved.active === "imported") this.loadText = rec.text;
        }
      } catch (err) {
        this.log.warn("apibank: the imported folder could not be read back:", err.message);
      }
    }
    if (saved.active === "imported" && !this.loadText) {
      if (calls.length > 0) this.log.warn("apibank: " + calls.length + " sandbox calls on the imported folder are not restored");
      return;
    }
    this.sandbox = calls;
  }

  /**
   * track keeps what a restart or a reload must rebuild, from a request that succeeded (its text and
   * its answer's); it resolves when that is kept (at once, but for a newly imported folder, which is
   * written to IndexedDB first: sessionStorage names it only once it is there). replaying: the
   * request is a replay of the kept state (nothing new to save).
   */
  track(reqText, respText, replaying) {
    // Only load, reset and call change what a restart must rebuild; skip parsing anything else
    // (a score answer can be megabytes).
    if (!/"op"\s*:\s*"(load|reset|call)"/.test(reqText)) return Promise.resolve();
    let req, resp;
    try {
      req = JSON.parse(reqText);
      resp = JSON.parse(respText);
    } catch (err) {
      return Promise.resolve();
    }
    if (!resp.ok) return Promise.resolve();
    switch (req.op) {
      case "load":
        this.loadText = req.builtin ? null : reqText;
        // A variant is rebuilt by its seed: a restart in the middle of a run on it must not go on
        // with the builtin data.
        this.variantText = req.builtin && req.seed ? reqText : null;
        this.sandbox = [];
        if (!req.builtin && reqText !== this.importedText) {
          this.importedText = reqText;
          this.importedName = (resp.result && resp.result.name) || "";
          const key = "import-" + Date.now() + "-" + Math.random().toString(36).slice(2);
          this.tabKey = ""; // until the folder is written, a save must not name the previous import
          // An IndexedDB that never answers must not hold the load's answer back: after KEEP_MS it
          // is answered, and not kept for a reload.
          return within(this.store.put(key, { text: reqText, name: this.importedName, at: Date.now() }), KEEP_MS, "IndexedDB")
            .then(() => {
              this.tabKey = key;
            })
            .catch((err) => this.log.warn("apibank: the imported folder is not kept for a reload:", err.message))
            .then(() => {
              if (!replaying) this.save();
            });
        }
        break;
      case "reset":
        this.sandbox = [];
        break;
      case "call":
        this.sandbox.push(reqText);
        break;
      default:
        return Promise.resolve();
    }
    if (!replaying) this.save();
    return Promise.resolve();
  }

  /**
   * takeSteps returns the requests that rebuild the kept state in a fresh engine (the folder's load,
   * then the sandbox calls) and empties the sandbox list: the replay tracks them again, one by one.
   */
  takeSteps() {
    const steps = [];
    if (this.loadText) steps.push(this.loadText);
    else if (this.variantText) steps.push(this.variantText);
    steps.push(...this.sandbox);
    this.sandbox = [];
    return steps;
  }

  /**
   * forget drops the kept state from the next restart on (a replay of it brought the engine down),
   * in this tab's session too, so a reload does not replay it again.
   */
  forget() {
    this.loadText = null;
    this.variantText = null;
    this.sandbox = [];
    this.save();
  }

  /** saved reports what a restart would restore and the name of the folder imported in this tab. */
  saved() {
    return { imported: this.loadText !== null, variant: this.variantText !== null, sandboxCalls: this.sandbox.length, importedName: this.importedName };
  }

  /** clear forgets this tab's saved sandbox history and every imported folder kept for reloads. */
  clear() {
    try {
      this.store.session.removeItem(SESSION_KEY);
    } catch (err) {}
    this.sandbox = [];
    this.store.clear().catch(() => {});
  }
}
