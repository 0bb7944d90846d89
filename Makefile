# API-Bank Playground. `make run` starts the main job, `make test` runs every test.
GO      ?= go
WASMENV := GOOS=wasip1 GOARCH=wasm
ENGINE  := web/engine.wasm
JSENV   := GOOS=js GOARCH=wasm
APP     := web/app.wasm

.PHONY: all wasm run test lint bench fuzz clean sizes app static test-browser screenshots bench-browser

all: wasm app

# The engine module: the same bytes the browser tab and wazero run.
wasm: $(ENGINE)

$(ENGINE): $(shell find . -name '*.go' -not -path '*/node_modules/*' -not -name '*_test.go') dataset/builtin.pack go.mod
	$(WASMENV) $(GO) build -buildmode=c-shared -trimpath -ldflags="-s -w" -o $@ ./wasm/engine

# The builtin data as the engine embeds it, packed from dataset/builtin (a test checks it is fresh).
dataset/builtin.pack: $(shell find dataset/builtin -type f)
	$(GO) generate ./dataset
	@touch $@  # the packer keeps an unchanged pack as it is; its date then says it is fresh

# The user interface: go-app components (app/) with their GOOS=js main (wasm/app).
app: $(APP)

$(APP): $(shell find app wasm/app -name '*.go' -not -name '*_test.go') go.mod
	$(JSENV) $(GO) build -trimpath -ldflags="-s -w" -o $@ ./wasm/app

# The main job: build everything and serve the playground at http://localhost:8080.
run: wasm app
	$(GO) run ./cmd/server --addr localhost:8080

# The same pages as a static site in dist/ (any static host).
static: wasm app
	rm -rf dist
	$(GO) run ./cmd/server --static dist

e2e/node_modules/.package-lock.json: e2e/package.json e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund

# The browser suite: real Chromium (/usr/bin/chromium) driven by playwright-core.
test-browser: wasm app e2e/node_modules/.package-lock.json
	cd e2e && node --test --test-concurrency=1 tests/

# A PNG of every page in screenshots/ for review.
screenshots: wasm app e2e/node_modules/.package-lock.json
	cd e2e && node screenshots.mjs

# First interactive (cold) and in-tab scoring times, in headless Chromium.
bench-browser: wasm app e2e/node_modules/.package-lock.json
	cd e2e && node bench.mjs

test: wasm app lint
	$(GO) test -count=1 ./...
	$(MAKE) test-browser

# staticcheck at a pinned version, on every GOOS target the code builds for (0 findings; each one
# kept on purpose carries a //lint:ignore with its reason).
STATICCHECK_VERSION := v0.8.2
STATICCHECK := bin/staticcheck-$(STATICCHECK_VERSION)

$(STATICCHECK):
	mkdir -p bin
	GOBIN=$(CURDIR)/bin/tmp-$(STATICCHECK_VERSION) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/tmp-$(STATICCHECK_VERSION)/staticcheck $@ && rmdir bin/tmp-$(STATICCHECK_VERSION)

lint: $(STATICCHECK)
	$(GO) vet ./...
	$(JSENV) $(GO) vet ./app/... ./wasm/app/... ./protocol/... ./model/... ./run/... ./internal/api/...
	$(WASMENV) $(GO) vet ./wasm/engine/
	$(STATICCHECK) ./...
	$(JSENV) $(STATICCHECK) ./app/... ./wasm/app/... ./protocol/... ./model/... ./run/... ./internal/api/...
	$(WASMENV) $(STATICCHECK) ./wasm/engine/

# Benchmarks: verdicts per second natively and under wazero (the oracle's predictions), fresh-world
# cost, module compile and instantiate times; the score API's load test (20,000 requests on
# loopback; a missed goal is reported and does not stop the rest); then the module's size.
bench: wasm app
	$(GO) test -run '^$$' -bench . -benchmem ./...
	-$(GO) run ./cmd/apiload
	$(MAKE) bench-browser
	@$(MAKE) --no-print-directory sizes

sizes: wasm app
	@printf 'engine.wasm raw %d bytes, gzip %d bytes\n' $$(wc -c < $(ENGINE)) $$(gzip -9 -c $(ENGINE) | wc -c)
	@printf 'app.wasm    raw %d bytes, gzip %d bytes\n' $$(wc -c < $(APP)) $$(gzip -9 -c $(APP) | wc -c)

clean:
	rm -f $(ENGINE) $(APP)
	rm -rf dist screenshots
