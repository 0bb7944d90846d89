// Package app is the playground's user interface: go-app components for every page,
// over this tab's engine. It holds no benchmark logic: every number it shows comes from an engine
// request. The GOOS=js main in wasm/app starts it in the browser; cmd/server pre-renders the same
// pages and serves them.
package app

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// Tab is what the pages of one browser tab share: its engine, its saved data, and caches of what
// the engine has loaded.
type Tab struct {
	// Engine answers engine requests; nil while none runs (on the server's pre-render).
	Engine Engine
	// Store keeps the user's work across reloads.
	Store Store

	mu        sync.Mutex
	data      string // the loaded dataset's name ("" until known)
	dialogues []protocol.DialogueSummary
	byKey     map[string]*protocol.Dialogue
	samples   map[string][]protocol.SampleView
	imported  string // the name of the imported folder this tab can switch back to
	variants  variantState
}

// tab is this process's tab: one per browser tab (the wasm program), one for the server's pre-render.
var tab = &Tab{Store: NewMemoryStore()}

// Use sets the engine and store the pages use. The wasm main calls it once at start; tests call it
// with an in-process engine.
func Use(e Engine, s Store) {
	tab = &Tab{Engine: e, Store: s}
}

// Current returns the tab the pages use.
func Current() *Tab { return tab }

// dataChanged is the action sent when the tab loads another dataset: pages refetch what they show.
const dataChanged = "apibank/data-changed"

// DataName returns the loaded dataset's name, asking the engine the first time.
func (t *Tab) DataName() (string, error) {
	t.mu.Lock()
	name := t.data
	t.mu.Unlock()
	if name != "" {
		return name, nil
	}
	h, err := call[protocol.Hello](t.Engine, protocol.Request{Op: protocol.OpHello})
	if err != nil {
		return "", err
	}
	if h.Variant != nil {
		// A page's variant of the builtin data (see OnVariant): the tab's data is the builtin data.
		h.Data = builtinName
	}
	t.mu.Lock()
	t.data = h.Data
	t.mu.Unlock()
	return h.Data, nil
}

// Imported returns the name of the folder imported in this tab ("" when none).
func (t *Tab) Imported() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.imported
}

// Load loads a folder (path -> text) or, with files nil, the builtin data; on success the pages'
// caches are dropped.
func (t *Tab) Load(name string, files map[string]string) (protocol.Loaded, error) {
	req := protocol.Request{Op: protocol.OpLoad, Name: name, Files: files, Builtin: files == nil}
	res, err := call[protocol.Loaded](t.Engine, req)
	if err != nil {
		return res, err
	}
	t.mu.Lock()
	t.data, t.dialogues, t.byKey, t.samples = res.Name, nil, nil, nil
	t.variants.varied = false
	if files != nil {
		t.imported = res.Name
	}
	t.mu.Unlock()
	return res, nil
}

// LoadVariant loads the variant of the builtin data that seed names (0: the builtin data itself);
// on success the pages' caches are dropped.
func (t *Tab) LoadVariant(seed int64) (protocol.Loaded, error) {
	res, err := call[protocol.Loaded](t.Engine, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed})
	if err != nil {
		return res, err
	}
	t.mu.Lock()
	t.data, t.dialogues, t.byKey, t.samples = res.Name, nil, nil, nil
	t.mu.Unlock()
	return res, nil
}

// SwitchTo loads the builtin data (name "builtin") or the folder imported earlier in this tab.
func (t *Tab) SwitchTo(name string) (protocol.Loaded, error) {
	if name == "builtin" || name == "" {
		return t.Load("builtin", nil)
	}
	if sw, ok := t.Engine.(interface {
		LoadImported() (protocol.Loaded, error)
	}); ok {
		res, err := sw.LoadImported()
		if err != nil {
			return res, err
		}
		t.mu.Lock()
		t.data, t.dialogues, t.byKey, t.samples = res.Name, nil, nil, nil
		t.variants.varied = false
		t.mu.Unlock()
		return res, nil
	}
	return protocol.Loaded{}, errImportAgain
}

// SetImported records the name of a folder the engine restored on its own (after a reload).
func (t *Tab) SetImported(name string) {
	t.mu.Lock()
	t.imported = name
	t.mu.Unlock()
}

// Dialogues returns the loaded dialogues, cached.
func (t *Tab) Dialogues() ([]protocol.DialogueSummary, error) {
	t.mu.Lock()
	ds := t.dialogues
	t.mu.Unlock()
	if ds != nil {
		return ds, nil
	}
	ds, err := call[[]protocol.DialogueSummary](t.Engine, protocol.Request{Op: protocol.OpDialogues})
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.dialogues = ds
	t.mu.Unlock()
	return ds, nil
}

// protocol.Dialogue returns one dialogue, cached.
func (t *Tab) Dialogue(level, file string) (*protocol.Dialogue, error) {
	key := level + "/" + file
	t.mu.Lock()
	d := t.byKey[key]
	t.mu.Unlock()
	if d != nil {
		return d, nil
	}
	got, err := call[protocol.Dialogue](t.Engine, protocol.Request{Op: protocol.OpDialogue, Level: level, File: file})
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if t.byKey == nil {
		t.byKey = map[string]*protocol.Dialogue{}
	}
	t.byKey[key] = &got
	t.mu.Unlock()
	return &got, nil
}

// Samples returns the samples of a level ("" for all), cached.
func (t *Tab) Samples(level string) ([]protocol.SampleView, error) {
	t.mu.Lock()
	ss, ok := t.samples[level]
	t.mu.Unlock()
	if ok {
		return ss, nil
	}
	ss, err := call[[]protocol.SampleView](t.Engine, protocol.Request{Op: protocol.OpSamples, Level: level})
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if t.samples == nil {
		t.samples = map[string][]protocol.SampleView{}
	}
	t.samples[level] = ss
	t.mu.Unlock()
	return ss, nil
}

// Score judges prediction JSONL against the loaded data.
func (t *Tab) Score(preds, level, state string) (protocol.Batch, error) {
	return call[protocol.Batch](t.Engine, protocol.Request{Op: protocol.OpScore, Preds: preds, Level: level, State: state, Name: "predictions"})
}

// protocol.Prompt returns a sample's prompt in both forms.
func (t *Tab) Prompt(level, file string, id int) (protocol.Prompt, error) {
	return call[protocol.Prompt](t.Engine, protocol.Request{Op: protocol.OpPrompt, Level: level, File: file, Sample: &id})
}

// Call runs a sandbox call (text form, or native JSON) in this tab's world.
func (t *Tab) Call(text, catalog string) (protocol.CallResult, error) {
	return call[protocol.CallResult](t.Engine, protocol.Request{Op: protocol.OpCall, Call: jsonString(text), Catalog: catalog})
}

// protocol.World returns the sandbox's databases and history.
func (t *Tab) World() (protocol.World, error) {
	return call[protocol.World](t.Engine, protocol.Request{Op: protocol.OpWorld})
}

// Reset puts the sandbox back to the initial world.
func (t *Tab) Reset() error {
	_, err := call[map[string]bool](t.Engine, protocol.Request{Op: protocol.OpReset})
	return err
}

// refresh runs load in the background and hands its outcome to done on the UI goroutine.
func refresh[T any](ctx app.Context, load func() (T, error), done func(T, error)) {
	if tab.Engine == nil {
		return
	}
	ctx.Async(func() {
		v, err := load()
		ctx.Dispatch(func(app.Context) { done(v, err) })
	})
}
