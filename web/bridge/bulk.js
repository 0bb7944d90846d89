// bulk.js: bulk scoring and the large texts held out of text boxes.
//
// Bulk scoring happens in the worker (engine-worker.js bulk): the page posts the prediction text as
// a Blob (a handle: no copy, no splitting, no encoding on this thread), gets progress messages and
// the tallies back, moves a <progress> element as chunks are done, and asks for the few verdict rows
// in view (rows). The worker keeps the rows compactly; after a restart it no longer has them and
// rows scores the kept Blob again.
//
// Large texts in a text box: a textarea holding megabytes costs the page long tasks at every layout,
// paint and hit test (and hundreds of MB of line boxes and shaped text), so a paste or an input of
// data-hold-large characters or more into a textarea marked with that attribute is taken out of the
// box into a Blob kept here; the box then stays empty and the element gets an "apibank-held" event.
// bulk scores the held text; window.apibankHeld tells the UI what is held.

/** Held keeps the texts taken out of text boxes, by element id: {blob, size (characters), name}. */
export class Held {
  constructor() {
    this.texts = new Map();
  }

  /** hold takes text out of element el (it stays empty) and tells the element. */
  hold(el, text, name) {
    this.texts.set(el.id, { blob: new Blob([text]), size: text.length, name });
    el.value = "";
    el.dispatchEvent(new CustomEvent("apibank-held", { bubbles: true }));
  }

  /** listen holds large pastes and inputs into the marked text boxes of doc. */
  listen(doc) {
    const limit = (el) => {
      const n = Number(el && el.dataset && el.dataset.holdLarge);
      return n > 0 ? n : 0;
    };
    doc.addEventListener(
      "paste",
      (ev) => {
        const el = ev.target;
        const n = limit(el);
        if (!n || !ev.clipboardData) return;
        const text = ev.clipboardData.getData("text/plain");
        if (text.length < n) return;
        ev.preventDefault(); // the box never lays out the text
        this.hold(el, text, "pasted text");
      },
      true
    );
    doc.addEventListener(
      "input",
      (ev) => {
        const el = ev.target;
        const n = limit(el);
        if (!n || !el.id) return;
        if (el.value.length >= n) this.hold(el, el.value, "pasted text");
        else if (el.value !== "" && this.texts.delete(el.id)) el.dispatchEvent(new CustomEvent("apibank-held", { bubbles: true }));
      },
      true
    );
  }

  /** api is window.apibankHeld. */
  api(doc) {
    return {
      /** info returns {size, name} of the text held for element id, or null. */
      info: (id) => {
        const h = this.texts.get(id);
        return h ? { size: h.size, name: h.name } : null;
      },
      /** hold keeps text for element id (a file read by the UI, say) as a paste would be kept. */
      hold: (id, text, name) => {
        const el = doc.getElementById(id);
        if (el) this.hold(el, text, name || "file");
      },
      /** drop forgets the text held for element id. */
      drop: (id) => {
        this.texts.delete(id);
      },
    };
  }
}

/**
 * bulkScorer returns bulk and rows over engine (engine.js), for the texts of held and the elements
 * of doc.
 */
export function bulkScorer(engine, held, doc) {
  let lastBulk = null; // {blob, opts, run}: the last bulk run, to fetch its rows or score it again

  // once scores blob once in the worker, moving the progress bar as chunks are scored.
  async function once(blob, opts, progress) {
    const t0 = performance.now();
    progress(0, blob.size);
    const scratch = !!opts.scratch;
    const r = await engine.post({ type: "bulk", blob, level: opts.level || "", state: opts.state || "", name: opts.name || "predictions", scratch, episodes: !!opts.episodes }, progress);
    if (!r.ok) return { ok: false, error: r.error || "the engine refused", restarted: !!r.restarted };
    if (!scratch) lastBulk = { blob, opts, run: r.run };
    else engine.setStatus({ bulkWarm: true });
    engine.setStatus({ engineMemory: r.engineMemory || 0 });
    return Object.assign({}, r, { ms: performance.now() - t0 });
  }

  // bulk scores the prediction text held for opts.element, else the text of that textarea, else
  // opts.text; a run cut short by a worker restart is run once more from the start (the stream died
  // with the worker).
  async function bulk(opts) {
    const el = opts.element ? doc.getElementById(opts.element) : null;
    const kept = opts.element ? held.texts.get(opts.element) : null;
    const blob = kept ? kept.blob : new Blob([el ? el.value : opts.text || ""]);
    // The <progress> element is looked up at each step: the UI may render it after the run starts.
    let shown = -1;
    const progress = (done, total) => {
      const p = opts.progress ? doc.getElementById(opts.progress) : null;
      if (!p) return;
      // One step a percent at most: each change of the bar is a paint.
      const pct = Math.floor((100 * done) / Math.max(1, total));
      if (pct === shown) return;
      shown = pct;
      p.max = Math.max(1, total);
      p.value = done;
    };
    if (!opts.scratch) lastBulk = null;
    let r = await once(blob, opts, progress);
    if (!r.ok && r.restarted) r = await once(blob, opts, progress);
    return r;
  }

  // rows resolves verdict rows [from, from+count) of the last bulk run with their predictions:
  // {ok, rows (JSON array text), preds} or {ok: false, error}. When the worker was restarted since
  // the run, the run is scored again from the kept text first.
  async function rows(from, count) {
    if (!lastBulk) return { ok: false, error: "no batch has been scored in this tab yet" };
    let r = await engine.post({ type: "rows", run: lastBulk.run, from, count });
    if (!r.ok && (r.gone || r.restarted) && lastBulk) {
      const again = await once(lastBulk.blob, lastBulk.opts, () => {});
      if (!again.ok) return again;
      r = await engine.post({ type: "rows", run: lastBulk.run, from, count });
    }
    return r;
  }

  return { bulk, rows };
}
