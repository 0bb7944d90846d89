//go:build js && wasm

// Command app is the playground's user interface in the browser (GOOS=js), built by `make app` to
// web/app.wasm. It registers the pages, connects them to this tab's engine (web/engine.wasm in a
// Web Worker, through web/bridge.js) and the tab's localStorage, and starts go-app.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "github.com/apibank-playground/apibank/app"
)

func main() {
	ui.Routes()
	var eng ui.Engine
	var clearHook func()
	if be, err := ui.NewBrowserEngine(); err == nil {
		eng, clearHook = be, be.ClearSaved
	} else {
		app.Log(err)
	}
	ui.Use(eng, ui.NewBrowserStore(ui.NewLocalStorage(), ui.Budget, clearHook))
	app.RunWhenOnBrowser()
}
