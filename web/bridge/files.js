// files.js: files in and out of the tab. In: what the Import and Score pages read from a file input
// or a drop, a dropped folder walked to its files; text files come as text, zips as bytes. A drop is
// read here, in the event itself (the browser forbids reading it later), then the element gets an
// "apibank-drop" event and the page takes the files (window.apibankFiles). Out: a text saved as a
// file (window.apibankDownload).

const TEXT = /\.(jsonl|json|txt)$/i;
const ZIP = /\.zip$/i;

async function readFile(file, path) {
  if (ZIP.test(path)) return { path, bytes: new Uint8Array(await file.arrayBuffer()) };
  if (TEXT.test(path)) return { path, text: await file.text() };
  return null;
}

/** fromList reads the files of a FileList (an input's; a folder's files carry their relative path). */
export async function fromList(list) {
  const out = [];
  for (const f of Array.from(list || [])) {
    const r = await readFile(f, f.webkitRelativePath || f.name);
    if (r) out.push(r);
  }
  return out;
}

function entryFile(entry) {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function readDir(reader) {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

/** walk reads the files under a dropped entry (a file, or a folder to its depth) into out. */
export async function walk(entry, out) {
  if (entry.isFile) {
    const path = entry.fullPath.replace(/^\//, "");
    const r = await readFile(await entryFile(entry), path);
    if (r) out.push(r);
    return;
  }
  const reader = entry.createReader();
  for (;;) {
    const batch = await readDir(reader);
    if (batch.length === 0) break;
    for (const e of batch) await walk(e, out);
  }
}

/** listenForDrops reads drops on doc's [data-drop] elements; it returns window.apibankFiles. */
export function listenForDrops(doc) {
  let lastDrop = Promise.resolve([]);
  doc.addEventListener("dragover", (ev) => {
    if (ev.target.closest && ev.target.closest("[data-drop]")) ev.preventDefault();
  });
  doc.addEventListener("drop", (ev) => {
    const target = ev.target.closest && ev.target.closest("[data-drop]");
    if (!target) return;
    ev.preventDefault();
    const items = Array.from(ev.dataTransfer.items || []);
    const entries = items.map((it) => (it.webkitGetAsEntry ? it.webkitGetAsEntry() : null)).filter(Boolean);
    const files = Array.from(ev.dataTransfer.files || []);
    lastDrop = (async () => {
      const out = [];
      if (entries.length > 0) {
        for (const e of entries) await walk(e, out);
        return out;
      }
      return fromList(files);
    })();
    target.dispatchEvent(new CustomEvent("apibank-drop"));
  });
  return {
    /** fromInput reads the files of an <input type=file> (a folder's with webkitdirectory). */
    fromInput: (input) => fromList(input.files),
    /** takeDrop returns the files of the last drop on a [data-drop] element. */
    takeDrop: () => lastDrop,
  };
}

/** download saves text as a file named name of type mime (window.apibankDownload). */
export function download(name, mime, text) {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
