// The playground's browser tests again, against the Worker on workerd (wrangler dev) instead of
// cmd/server: the same file, with the Worker as its server (APIBANK_E2E_TARGET=worker, read when the
// file's session starts), so the tab meets the public demo as it meets the server. A file of its own,
// so that it runs beside the Worker's other files rather than after them.
process.env.APIBANK_E2E_TARGET = "worker";
await import("./playground.test.mjs");
