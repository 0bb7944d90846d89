module github.com/apibank-playground/apibank

go 1.25.0

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/maxence-charriere/go-app/v10 v10.1.11
	github.com/ncruces/go-sqlite3 v0.32.0
	github.com/norunners/vert v0.0.0-20221203075838-106a353d42dd
	github.com/syumai/workers v0.32.0
	github.com/tetratelabs/wazero v1.12.0
)

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
)

// go-app with its wasm build kept free of net/http (third_party/go-app/PATCH.md).
replace github.com/maxence-charriere/go-app/v10 v10.1.11 => ./third_party/go-app
