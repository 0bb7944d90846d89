// Command worker is the public demo of the playground on Cloudflare Workers: the same /api/v1 as
// cmd/server, with the engine compiled in, served through github.com/syumai/workers. The pages and
// web/ are not served from here: wrangler's static assets feature hands them out (worker/
// wrangler.jsonc points at the static export of cmd/server), and only requests no file matches reach
// this program, which answers /healthz and /api/v1.
//
// It is built for GOOS=js GOARCH=wasm by `make worker` and run locally on workerd by
// `cd worker && npx wrangler dev`; the README says how to deploy it. On Workers every request runs
// in a new Go instance (the syumai/workers glue starts one per request), so every request gets a
// fresh engine session by construction.
package main
