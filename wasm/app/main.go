//go:build js && wasm

// Command app is the playground's user interface in the browser (GOOS=js), built by `make app` to
// web/app.wasm. It registers the pages, connects them to this tab's engine (web/engine.wasm in a
// Web Worker, through web/bridge.js) and the tab's localStorage, and starts go-app.
package main

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/app"
)

func main() {
	app.Routes()
	var eng app.Engine
	var clearHook func()
	if be, err := app.NewBrowserEngine(); err == nil {
		eng, clearHook = be, func() { be.ClearSaved(); app.ClearRuns() }
	} else {
		goapp.Log(err)
	}
	app.UseRuns(app.NewIndexedDBRunStore(), app.NewKeyVault())
	app.Use(eng, app.NewBrowserStore(app.NewLocalStorage(), app.Budget, clearHook))
	goapp.RunWhenOnBrowser()
}
