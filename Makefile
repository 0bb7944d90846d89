# API-Bank Playground. `make run` starts the main job, `make test` runs every test; both need only Go
# and Node.js (npm): what else they need (wasm-opt, playwright-core, wrangler from their lock files;
# on Debian, Chromium through apt-get) is installed where missing.
GO      ?= go
WASMENV := GOOS=wasip1 GOARCH=wasm
ENGINE  := web/engine.wasm
JSENV   := GOOS=js GOARCH=wasm
APP     := web/app.wasm

.PHONY: all precompressed wasm run test tracked-sizes deps lint bench bench-class bench-board baseline fuzz clean sizes size-budget app static test-browser screenshots bench-browser worker worker-size test-go test-browser-shared test-browser-alone test-browser-worker browser-ready

all: wasm app

# The engine module: the same bytes the browser tab and wazero run.
wasm: $(ENGINE)

# Go's output is then shrunk by binaryen's wasm-opt -Oz: 8% of the raw size, which keeps the module
# within its 6 MB budget (see RATIONALE "The engine's size"). wasm-opt is the npm package binaryen
# (compiled to WebAssembly, run with Node), pinned by scripts/binaryen/package-lock.json and
# installed from it on first use: no system package, and the same version, so the same bytes,
# on every machine. A wasm-opt found on the PATH is never used. Its output is kept in the user's
# cache under the input's bytes, the flags and the version (scripts/binaryen/wasm-opt.mjs): a change
# to a Go file that leaves the engine's bytes as they were costs no second run of minutes.
BINARYEN := scripts/binaryen/node_modules/.package-lock.json
WASMOPT := node scripts/binaryen/wasm-opt.mjs
WASMOPT_FLAGS := -Oz --enable-sign-ext --enable-nontrapping-float-to-int --enable-bulk-memory --enable-mutable-globals
$(ENGINE): $(shell find . -name '*.go' -not -path '*/node_modules/*' -not -name '*_test.go') dataset/builtin.pack variant/builtin.learned go.mod $(BINARYEN)
	@mkdir -p bin
	$(WASMENV) $(GO) build -buildmode=c-shared -trimpath -ldflags="-s -w" -o bin/engine-go.wasm ./wasm/engine
	$(WASMOPT) bin/engine-go.wasm $@ $(WASMOPT_FLAGS)

$(BINARYEN): scripts/binaryen/package.json scripts/binaryen/package-lock.json
	@command -v npm >/dev/null || { echo "npm not found: building the engine module needs Node.js 20+ with npm" >&2; exit 1; }
	cd scripts/binaryen && npm ci --no-audit --no-fund

# The builtin data as the engine embeds it, packed from dataset/builtin with its counts
# (dataset/builtin.stats; a test checks both are fresh).
# What a variant learns from the builtin data (variant/builtin.learned) is written again with it.
dataset/builtin.pack: $(shell find dataset/builtin -type f)
	$(GO) generate ./dataset
	$(GO) generate ./variant
	@touch $@  # the packer keeps an unchanged pack as it is; its date then says it is fresh

# The user interface: go-app components (app/) with their GOOS=js main (wasm/app).
app: $(APP)

$(APP): $(shell find . -name '*.go' -not -path '*/node_modules/*' -not -name '*_test.go') go.mod
	$(JSENV) $(GO) build -trimpath -ldflags="-s -w" -o $@ ./wasm/app

# The main job: build everything and serve the playground at http://localhost:8080 (ADDR=host:port
# for another address), with the classes kept in CLASSES_DB (a file in the user's state folder unless
# given). BOARD_SEASON=S makes the board rank season S: the variant of the data of seed S (runs made
# with apibank run --seed S); 0, the default, ranks the builtin data itself.
ADDR ?= localhost:8080
CLASSES_DB ?= $(or $(XDG_STATE_HOME),$(HOME)/.local/state)/apibank/classes.db
BOARD_SEASON ?= 0
run: wasm app
	$(GO) run ./cmd/server --addr $(ADDR) --db "$(CLASSES_DB)" --board-season $(BOARD_SEASON)

# The two modules' best brotli and gzip forms beside them (web/*.wasm.br, .gz): slow to make (brotli
# at its best setting), so made once per build, not at every start-up; cmd/server and the static
# export send them when they decode to the module they sit beside.
PRECOMPRESSED := $(APP).br $(APP).gz $(ENGINE).br $(ENGINE).gz
precompressed: $(PRECOMPRESSED)
$(PRECOMPRESSED) &: $(APP) $(ENGINE)
	$(GO) run ./cmd/server --precompress --web web

# The same pages as a static site in dist/ (any static host), each web/ file with its .br and .gz,
# and the board of CLASSES_DB (when it exists) as board.json, ranked on season BOARD_SEASON: a
# read-only board page.
static: wasm app precompressed
	rm -rf dist
	$(GO) run ./cmd/server --static dist $(if $(wildcard $(CLASSES_DB)),--db "$(CLASSES_DB)") --board-season $(BOARD_SEASON)

e2e/node_modules/.package-lock.json: e2e/package.json e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund

# The public demo on Cloudflare Workers (worker/wrangler.jsonc): in worker/build/, our entry module
# (worker/src/worker.mjs: one Go instance an isolate, not one a request) beside syumai/workers' copy
# of Go's wasm_exec.js (from its workers-assets-gen), cmd/worker as the Worker's module (GOOS=js, the
# engine compiled in) and the static export of the pages as the Worker's static assets.
WORKER := worker/build
worker: wasm app
	rm -rf $(WORKER)
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o $(WORKER)
	cp worker/src/worker.mjs $(WORKER)/worker.mjs && rm -f $(WORKER)/runtime.mjs
	@# Stamped with the build of engine.wasm (board.Build: its SHA-256's first 16 hex digits), the
	@# module made from the same source: the Worker's board entries and the server's name one build.
	$(JSENV) $(GO) build -trimpath -ldflags="-s -w -X main.engineBuild=$$(sha256sum $(ENGINE) | cut -c1-16)" -o $(WORKER)/app.wasm ./cmd/worker
	$(GO) run ./cmd/server --static $(WORKER)/assets --static-api
	@# The pages link web/ files by content-hashed URLs (?v=), as cmd/server gives them: cached for a year.
	printf '/web/*\n  Cache-Control: public, max-age=31536000, immutable\n' >> $(WORKER)/assets/_headers
	@printf 'worker module raw %d bytes, gzip %d bytes (Workers: 3 MB compressed free, 10 MB paid)\n' $$(wc -c < $(WORKER)/app.wasm) $$(gzip -9 -c $(WORKER)/app.wasm | wc -c)

worker/node_modules/.package-lock.json: worker/package.json worker/package-lock.json
	cd worker && npm ci --no-audit --no-fund

# The upload as wrangler would make it (no login, nothing sent): its total and gzip sizes.
worker-size: worker worker/node_modules/.package-lock.json
	cd worker && WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true npx wrangler deploy --dry-run --outdir build/dry-run

# The system packages the browser suites need (Chromium, Firefox ESR, WebKitWebDriver, Xvfb),
# installed where missing: on Debian as root through apt-get, elsewhere scripts/browsers.sh says what
# to install.
deps:
	@sh scripts/browsers.sh

# The browser suite: real Chromium (/usr/bin/chromium) driven by playwright-core, and a smoke run in
# Firefox ESR and WebKit (e2e/tests/engines.test.mjs).
# The commands the tests start (server, apibank, fakemodel) are built once, in bin/e2e, not once per
# test file.
# Three test files run at once, each with its own server and browser (most of a browser test's time
# is waiting for a page), except those that hold the machine to a budget of time (a task's CPU time,
# a wall time, a watchdog's): they run after the others, the two whose budget is CPU time (bulk,
# then run-timing) one after the other beside the watchdogs' file (startup), which mostly waits.
# A budget of memory holds beside other files (hostile).
# The files that start wrangler dev (the Worker's own, and the playground's and the class's tests
# again against the Worker: worker-playground, worker-classroom) run last, three at once: each has its
# own wrangler on a free port with its own local D1.
# The Go tests run before them, not beside the first phase: that phase keeps both cores busy, and
# side by side the two took longer than one after the other.
E2E_BIN := $(CURDIR)/bin/e2e
E2E_CPU_BUDGET := bulk run-timing
E2E_WATCHDOGS := startup
E2E_ALONE := $(E2E_CPU_BUDGET) $(E2E_WATCHDOGS)
E2E_WORKER := worker worker-class worker-board worker-playground worker-classroom
E2E_ALONE_FILES := $(E2E_ALONE:%=tests/%.test.mjs)
E2E_WORKER_FILES := $(E2E_WORKER:%=tests/%.test.mjs)
E2E_SHARED_FILES = $(filter-out $(E2E_ALONE_FILES) $(E2E_WORKER_FILES),$(patsubst e2e/%,%,$(sort $(wildcard e2e/tests/*.test.mjs))))
test-browser: browser-ready
	$(MAKE) test-browser-shared
	$(MAKE) test-browser-alone
	$(MAKE) test-browser-worker

# What every phase needs: the browsers, both modules, the Worker's build, the npm packages, and the
# commands the tests start.
browser-ready: deps wasm app worker e2e/node_modules/.package-lock.json worker/node_modules/.package-lock.json
	$(GO) build -o $(E2E_BIN)/ ./cmd/server ./cmd/apibank ./cmd/fakemodel

test-browser-shared:
	cd e2e && APIBANK_E2E_BIN=$(E2E_BIN) node --test --test-concurrency=3 $(E2E_SHARED_FILES)

test-browser-alone:
	cd e2e && { APIBANK_E2E_BIN=$(E2E_BIN) node --test --test-concurrency=1 $(E2E_CPU_BUDGET:%=tests/%.test.mjs) & \
	  cpu=$$!; APIBANK_E2E_BIN=$(E2E_BIN) node --test $(E2E_WATCHDOGS:%=tests/%.test.mjs); dogs=$$?; \
	  wait $$cpu; test $$? -eq 0 && test $$dogs -eq 0; }

test-browser-worker:
	cd e2e && APIBANK_E2E_BIN=$(E2E_BIN) node --test --test-concurrency=3 $(E2E_WORKER_FILES)

# A PNG of every page in screenshots/ for review.
screenshots: deps wasm app e2e/node_modules/.package-lock.json
	cd e2e && node screenshots.mjs

# The class answers endpoint with 30 students answering at once, on cmd/server (SQLite) and on the
# Worker (workerd, local D1), by one client, rounds interleaved (also in make bench).
bench-class: wasm app worker e2e/node_modules/.package-lock.json worker/node_modules/.package-lock.json
	cd e2e && node bench-class.mjs

# A whole run of every level submitted to the board and judged again, on cmd/server and on the
# Worker (workerd, local D1), submissions interleaved (also in make bench).
bench-board: wasm app worker e2e/node_modules/.package-lock.json worker/node_modules/.package-lock.json
	$(GO) build -o $(E2E_BIN)/ ./cmd/server ./cmd/apibank ./cmd/fakemodel
	cd e2e && APIBANK_E2E_BIN=$(E2E_BIN) node bench-board.mjs

# First interactive (cold) and in-tab scoring times, in headless Chromium; then a phone's first visit;
# then a first visit in WebKit.
bench-browser: deps wasm app precompressed e2e/node_modules/.package-lock.json
	cd e2e && node bench.mjs
	@# A first visit on a phone network (390 px, 9 Mbit/s, 60 ms round trips), then a second one.
	cd e2e && ONLY=phone node bench.mjs
	@# A first visit in WebKit on loopback (MiniBrowser through WebKitWebDriver under Xvfb).
	cd e2e && ONLY=webkit node bench.mjs

test: wasm app lint size-budget tracked-sizes
	$(MAKE) test-go
	$(MAKE) test-browser

# The Go tests alone.
test-go:
	$(GO) test -count=1 ./...

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
	$(JSENV) $(GO) vet ./app/... ./wasm/app/... ./protocol/... ./model/... ./run/... ./api/... ./cmd/worker/ ./class/wire/
	$(WASMENV) $(GO) vet ./wasm/engine/
	$(STATICCHECK) ./...
	$(JSENV) $(STATICCHECK) ./app/... ./wasm/app/... ./protocol/... ./model/... ./run/... ./api/... ./cmd/worker/ ./class/wire/
	$(WASMENV) $(STATICCHECK) ./wasm/engine/

# Benchmarks: verdicts per second natively and under wazero (the oracle's predictions, one score op
# and streamed), the CLI end to end (per prediction, start-up, 1,000,000 predictions and pairs with
# peak memory; a full `apibank run` against the hostile fake model with its peak RSS), fresh-world
# cost, module compile and instantiate times; the score API's load test
# (20,000 requests on loopback; a missed goal is reported and does not stop the rest); the class
# answers endpoint with 30 students at once on the server and on the Worker (bench-class); a whole
# run submitted to the board on both (bench-board); then the module's size. BASELINE=<git revision> also measures that revision's CLI in the same run (its
# figures named base-..., and this build's speed-ups over it).
# Every figure is also written to $(BENCH_REPORT), the benchmark report RATIONALE.md points to, under
# a header naming the revision, the machine and its load: a step's output is tee'd into a draft that
# replaces the report only once every step has run (bash's pipefail keeps a failing step failing).
BASELINE ?=
BASELINE_DIR := $(or $(TMPDIR),/tmp)/apibank-baseline-$(BASELINE)
BENCH_REPORT := docs/BENCHMARKS.md
BENCH_DRAFT  := $(BENCH_REPORT).draft
bench_section = printf '\n\#\# %s\n\n```\n' '$(1)' >> $(BENCH_DRAFT)
bench_end     = printf '```\n' >> $(BENCH_DRAFT)
bench: SHELL := /bin/bash
bench: .SHELLFLAGS := -o pipefail -c
bench: wasm app precompressed worker e2e/node_modules/.package-lock.json worker/node_modules/.package-lock.json
	$(if $(BASELINE),$(MAKE) --no-print-directory baseline)
	@mkdir -p $(dir $(BENCH_REPORT))
	@{ echo '# Benchmarks'; echo; \
	  echo 'Written by `make bench` (see the Makefile); do not edit. Wall times vary with the load of a shared'; \
	  echo 'machine: compare builds measured in the same run (`make bench BASELINE=<revision>`), not across reports.'; \
	  echo; \
	  echo "- revision: $$(git describe --always --dirty 2>/dev/null || echo unknown)$(if $(BASELINE), against baseline $(BASELINE))"; \
	  echo "- date: $$(date -u '+%Y-%m-%d %H:%M UTC')"; \
	  echo "- $$($(GO) version)"; \
	  echo "- CPU: $$(nproc) cores, $$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"; \
	  echo "- load average at the start: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"; \
	} > $(BENCH_DRAFT)
	@$(call bench_section,Go benchmarks (go test -bench . -benchmem ./...))
	APIBANK_BENCH_BASELINE=$(if $(BASELINE),$(BASELINE_DIR)) $(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./... 2>&1 | tee -a $(BENCH_DRAFT)
	@$(call bench_end)
	@$(call bench_section,Score API load test (go run ./cmd/apiload))
	-$(GO) run ./cmd/apiload 2>&1 | tee -a $(BENCH_DRAFT)
	@$(call bench_end)
	@$(call bench_section,Class answers: 30 students at once on the server and on the Worker (make bench-class))
	-cd e2e && node bench-class.mjs 2>&1 | tee -a ../$(BENCH_DRAFT)
	@$(call bench_end)
	@$(call bench_section,Board submissions judged again on the server and on the Worker (make bench-board))
	$(GO) build -o $(E2E_BIN)/ ./cmd/server ./cmd/apibank ./cmd/fakemodel
	-cd e2e && APIBANK_E2E_BIN=$(E2E_BIN) node bench-board.mjs 2>&1 | tee -a ../$(BENCH_DRAFT)
	@$(call bench_end)
	@$(call bench_section,In the browser (make bench-browser))
	cd e2e && node bench.mjs 2>&1 | tee -a ../$(BENCH_DRAFT)
	cd e2e && ONLY=phone node bench.mjs 2>&1 | tee -a ../$(BENCH_DRAFT)
	cd e2e && ONLY=webkit node bench.mjs 2>&1 | tee -a ../$(BENCH_DRAFT)
	@$(call bench_end)
	@$(call bench_section,Module sizes (make sizes))
	@{ $(SIZES); } | tee -a $(BENCH_DRAFT)
	@$(call bench_end)
	@mv $(BENCH_DRAFT) $(BENCH_REPORT) && echo "wrote $(BENCH_REPORT)"

# The CLI and engine module of revision $(BASELINE), built apart (for make bench BASELINE=...), the
# module as $(ENGINE) is built (wasm-opt included: the bytes that ship, measured beside ours).
baseline: $(BINARYEN)
	rm -rf $(BASELINE_DIR) && mkdir -p $(BASELINE_DIR)
	git archive $(BASELINE) | tar -x -C $(BASELINE_DIR)
	cd $(BASELINE_DIR) && $(WASMENV) $(GO) build -buildmode=c-shared -trimpath -ldflags="-s -w" -o bin/engine-go.wasm ./wasm/engine
	$(WASMOPT) $(BASELINE_DIR)/bin/engine-go.wasm $(BASELINE_DIR)/web/engine.wasm $(WASMOPT_FLAGS)
	cd $(BASELINE_DIR) && $(GO) build -o bin/apibank ./cmd/apibank

# The modules' sizes (also in make bench's report), then, in make sizes, their size profile by
# package (cmd/wasmsize): the Go linker's output built again without -s, whose name section says
# which package each function is from (the code sizes are the shipped ones; wasm-opt shrinks the
# engine's a little further). SIZES_TOP packages each.
SIZES = printf 'engine.wasm raw %d bytes, gzip %d bytes\n' $$(wc -c < $(ENGINE)) $$(gzip -9 -c $(ENGINE) | wc -c); \
	printf 'app.wasm    raw %d bytes, gzip %d bytes\n' $$(wc -c < $(APP)) $$(gzip -9 -c $(APP) | wc -c)
SIZES_TOP ?= 40
sizes: wasm app
	@$(SIZES)
	@mkdir -p bin
	@$(WASMENV) $(GO) build -buildmode=c-shared -trimpath -o bin/engine-names.wasm ./wasm/engine
	@$(JSENV) $(GO) build -trimpath -o bin/app-names.wasm ./wasm/app
	@$(GO) run ./cmd/wasmsize -top $(SIZES_TOP) bin/app-names.wasm bin/engine-names.wasm

# The download budgets, each a little above what the modules are now: app.wasm at most 11.23 MB raw
# and 2.681 MB gzip (the Board page took 0.4 MB raw, 68 KB gzip of what go-app's patch saved; the
# Score page's level-3 replay 84 KB raw, 16 KB gzip; the level-3 milestone credit and final answers
# on the Play, Runs and Board pages 28 KB raw, 1 KB gzip; the How we judge page, its examples' text,
# and the Sample page's audit badge, needs and accepted sets 80 KB raw, 21 KB gzip),
# engine.wasm at most 5.92 MB raw and 1.83 MB gzip (fair verdicts on our data took 219 KB raw, 75 KB
# gzip: the Python-literal reading of text calls, special cases' needs, the fair reading and effect
# check of calls, level-3 episodes judged by value with final answers and milestones, the fairness
# checks of validate, and the audited data; then 5.95 MB raw: a variant's moved formula numbers took
# 30 KB raw, 8 KB gzip; then 5.98 MB raw and 1.838 MB gzip: variants a careful grader signs took 30
# KB raw, 10 KB gzip: a day or a month written alone settled from the date it names, a part of the day
# a turn names kept, first names keeping their gender, near misses served unchanged, and the idle
# collection of a tab's warm-up; then 5.991 MB raw and 1.840 MB gzip: a careful reading's variant fixes
# took 11 KB raw, 2.5 KB gzip: a special case's needs that name a date's day or month alone moved with
# it and proven, a formula's calendar counts and a reading's whole units kept, meals' hours kept;
# then 6.020 MB raw and 1.848 MB gzip: a second careful reading's fixes took 30 KB raw, 8.5 KB gzip: a
# record a dialogue names with its time as written keeps its time with that dialogue's (its records
# read by user, only where a dialogue names one: a variant as fast as before), a day in history
# written with a month's name stays, an account named from its holder's full name moves; then 6.034
# MB raw and 1.853 MB gzip: a third careful reading's fixes took 12.5 KB raw, 4.6 KB gzip: a record a
# dialogue served with its dates as written names keeps its date and time (records moved each in
# its place), a dialogue whose one value is a time kept out of a part of the day it names, names
# drawn near their length, a formula's numbers near what they were, "early" a part of the day);
# over either, make test fails. The gzip budgets are
# what a visitor downloads (see RATIONALE, "app.wasm's size and the first load"); they move down but
# for a new page or view.
APP_MAX_RAW     := 11230000
APP_MAX_GZIP    := 2681000
ENGINE_MAX_RAW  := 6034000
ENGINE_MAX_GZIP := 1853000
size-budget: app wasm
	@over=0; for f in "$(APP) $(APP_MAX_RAW) $(APP_MAX_GZIP)" "$(ENGINE) $(ENGINE_MAX_RAW) $(ENGINE_MAX_GZIP)"; do \
	  set -- $$f; raw=$$(wc -c < $$1); gz=$$(gzip -9 -c $$1 | wc -c); \
	  printf '%s raw %d bytes (budget %d), gzip %d bytes (budget %d)\n' $$1 $$raw $$2 $$gz $$3; \
	  if [ $$raw -gt $$2 ] || [ $$gz -gt $$3 ]; then echo "$$1 is over its size budget" >&2; over=1; fi; \
	done; exit $$over

# Nothing built is committed: a tracked file over 1 MB that is not data we wrote fails the tests.
tracked-sizes:
	@sh scripts/check-tracked-sizes.sh

# Every fuzz target of every package, FUZZTIME each (Go fuzzes one target a run), one after the
# other; a failing input is written under the package's testdata/fuzz and the run stops there.
FUZZTIME ?= 10s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "$$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -f $(ENGINE) $(APP) $(PRECOMPRESSED)
	rm -rf dist screenshots
