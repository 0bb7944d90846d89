// csp.js: what the page's Content-Security-Policy forbids the UI to write, written another way.
// Sizes computed by the UI (a virtual table's canvas and offset): the policy allows no inline style
// attribute, which is what go-app's Style writes, so the UI sets data-px-height and data-px-top and
// this observer applies them through the CSSOM, which the policy allows.

function applySizes(el) {
  const h = el.getAttribute("data-px-height");
  if (h !== null) el.style.height = h + "px";
  const t = el.getAttribute("data-px-top");
  if (t !== null) el.style.top = t + "px";
}

/** applyPixelSizes keeps the data-px-height and data-px-top of every element of doc applied. */
export function applyPixelSizes(doc) {
  new MutationObserver((records) => {
    for (const m of records) {
      if (m.type === "attributes") applySizes(m.target);
      for (const n of m.addedNodes || []) {
        if (n.nodeType !== 1) continue;
        applySizes(n);
        for (const el of n.querySelectorAll("[data-px-height], [data-px-top]")) applySizes(el);
      }
    }
  }).observe(doc.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-px-height", "data-px-top"] });
}
