// Command worker is the public demo of the playground on Cloudflare Workers: the same /api/v1 as
// cmd/server, with the engine compiled in, served through github.com/syumai/workers. The pages and
// web/ are not served from here: wrangler's static assets feature hands them out (worker/
// wrangler.jsonc points at the static export of cmd/server), and only requests no file matches reach
// this program, which answers /healthz and /api/v1.
//
// It is built for GOOS=js GOARCH=wasm by `make worker` and run locally on workerd by
// `cd worker && npx wrangler dev`; docs/DEPLOY.md says how to deploy it. The entry module
// (worker/src/worker.mjs) starts one Go instance an isolate and hands it every request (bridge);
// every request still gets a fresh engine session (freshSessions), so no state passes from one
// request to another but the read-only builtin data.
package main
