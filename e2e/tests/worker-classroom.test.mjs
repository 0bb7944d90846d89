// The class's browser tests again, against the Worker on workerd (wrangler dev), its classes in the
// local D1 instead of cmd/server's SQLite: the same file, with the Worker as its server
// (APIBANK_E2E_TARGET=worker, read when the file's session starts).
process.env.APIBANK_E2E_TARGET = "worker";
await import("./class.test.mjs");
