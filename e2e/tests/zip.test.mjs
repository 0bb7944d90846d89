// Importing a zip in a real Chromium: the archive is made here from a small dataset of our own (one
// world, two dialogues, one with a broken line), chosen through the Import page's zip input.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { crc32 } from "node:zlib";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { watch, open, engineRequest, session } from "../lib.mjs";

const s = session();
const tmp = mkdtempSync(path.join(tmpdir(), "apibank-zip-"));

after(async () => {
  rmSync(tmp, { recursive: true, force: true });
});

/** storedZip writes files (path -> text) as a zip archive without compression. */
function storedZip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBuf = Buffer.from(name, "utf8");
    const data = Buffer.from(text, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const turn = (o) => JSON.stringify(o);
const login = {
  role: "API", api_name: "GetUserToken", param_dict: { username: "tess", password: "kite42" },
  result: { api_name: "GetUserToken", input: { username: "tess", password: "kite42" }, output: { token: "t0k3n" }, exception: null },
};

test("importing a zip loads its dialogues, lists a broken line by file and line, and the rest scores", async () => {
  const files = {
    "mini/init_database/Account.json": JSON.stringify({ tess: { password: "kite42", token: "t0k3n", email: "tess@mail.com" } }),
    "mini/lv1-lv2-samples/level-1-given-desc/login.jsonl": [
      turn({ role: "User", text: "Log me in: tess, password kite42." }), turn(login), turn({ role: "AI", text: "You are in." }),
    ].join("\n"),
    "mini/lv1-lv2-samples/level-1-given-desc/broken.jsonl": [
      turn({ role: "User", text: "Hello" }), "{\"role\": \"AI\", \"text\": ", turn(login), turn({ role: "AI", text: "Done." }),
    ].join("\n"),
    "mini/notes.txt": "not part of the layout",
  };
  const zipPath = path.join(tmp, "mini.zip");
  writeFileSync(zipPath, storedZip(files));

  const page = await s.browser.context.newPage();
  const w = watch(page);
  await open(page, s.server.url, "/import");
  await page.getByTestId("import-zip").setInputFiles(zipPath);
  await page.waitForSelector("[data-testid=import-result]", { timeout: 30000 });

  const errors = await page.$$eval("[data-testid=import-error]", (els) => els.map((e) => e.textContent));
  assert.equal(errors.length, 1, "one problem: " + errors.join(" | "));
  assert.match(errors[0], /broken\.jsonl:2:/, "the broken line is located by file and line");
  const dls = await engineRequest(page, { op: "dialogues" });
  assert.deepEqual(dls.map((d) => d.file).sort(), ["broken.jsonl", "login.jsonl"], "both dialogues loaded (the broken one without its bad line)");

  // The imported data scores like any other: the gold login is right, a wrong password is not.
  const res = await engineRequest(page, {
    op: "score",
    preds: [
      turn({ file: "login.jsonl", id: 0, pred: "[GetUserToken(username='tess', password='kite42')]" }),
      turn({ file: "login.jsonl", id: 0, pred: "[GetUserToken(username='tess', password='kite43')]" }),
    ].join("\n"),
  });
  assert.deepEqual(res.results.map((r) => r.category), ["CORRECT", "HAS_EXCEPTION"]);
  assert.equal(res.report.state, "fresh", "imported data is judged in fresh state, as the original");
  assert.deepEqual(w.errors, []);
  await page.close();
});
