# API-Bank Playground. `make run` starts the main job, `make test` runs every test.
GO      ?= go
WASMENV := GOOS=wasip1 GOARCH=wasm
ENGINE  := web/engine.wasm

.PHONY: all wasm run test bench fuzz clean sizes

all: wasm

# The engine module: the same bytes the browser tab and wazero run.
wasm: $(ENGINE)

$(ENGINE): $(shell find . -name '*.go' -not -path '*/node_modules/*' -not -name '*_test.go') dataset/builtin.pack go.mod
	$(WASMENV) $(GO) build -buildmode=c-shared -trimpath -ldflags="-s -w" -o $@ ./wasm/engine

# The builtin data as the engine embeds it, packed from dataset/builtin (a test checks it is fresh).
dataset/builtin.pack: $(shell find dataset/builtin -type f)
	$(GO) generate ./dataset

# Until the browser playground lands, the main job replays the builtin gold calls under wazero.
run: wasm
	$(GO) run ./cmd/apibank replay

test: wasm
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# Benchmarks: verdicts per second natively and under wazero (the oracle's predictions), fresh-world
# cost, module compile and instantiate times; then the module's size.
bench: wasm
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@$(MAKE) --no-print-directory sizes

sizes: wasm
	@printf 'engine.wasm raw %d bytes, gzip %d bytes\n' $$(wc -c < $(ENGINE)) $$(gzip -9 -c $(ENGINE) | wc -c)

clean:
	rm -f $(ENGINE)
