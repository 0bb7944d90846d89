//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"
)

// idbRuns is the RunStore of the tab: IndexedDB database "apibank-runs" with two object stores,
// "runs" (a saved run's JSON text by ID) and "landed" (a landed sample's JSON text by run ID and
// task key). Values are strings, so what is kept is exactly the JSON a file export writes.
type idbRuns struct {
	once sync.Once
	db   js.Value
	err  error
}

const (
	idbName   = "apibank-runs"
	idbRunsOS = "runs"
	idbLanded = "landed"
)

// NewIndexedDBRunStore returns the tab's run store; the database opens at its first use. When
// IndexedDB is unavailable (a private window of some browsers) every method says so.
func NewIndexedDBRunStore() RunStore { return &idbRuns{} }

// openDB opens the database (once; it blocks, as every method does).
func (s *idbRuns) openDB() {
	factory := js.Global().Get("indexedDB")
	if !factory.Truthy() {
		s.err = errors.New("this browser offers no IndexedDB: runs cannot be kept across reloads")
		return
	}
	req := factory.Call("open", idbName, 1)
	up := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		names := db.Get("objectStoreNames")
		for _, n := range []string{idbRunsOS, idbLanded} {
			if !names.Call("contains", n).Bool() {
				db.Call("createObjectStore", n)
			}
		}
		return nil
	})
	req.Set("onupgradeneeded", up)
	db, err := idbWait(req)
	up.Release()
	if err != nil {
		s.err = errors.New("IndexedDB refused to open the run store: " + err.Error())
		return
	}
	s.db = db
}

// idbWait waits for an IDBRequest and returns its result.
func idbWait(req js.Value) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 1)
	ok := js.FuncOf(func(js.Value, []js.Value) any { done <- outcome{v: req.Get("result")}; return nil })
	bad := js.FuncOf(func(js.Value, []js.Value) any {
		msg := "request failed"
		if e := req.Get("error"); e.Truthy() {
			msg = e.Get("message").String()
		}
		done <- outcome{err: errors.New(msg)}
		return nil
	})
	req.Set("onsuccess", ok)
	req.Set("onerror", bad)
	o := <-done
	ok.Release()
	bad.Release()
	return o.v, o.err
}

// store opens one object store in a transaction of its own.
func (s *idbRuns) store(name, mode string) (st js.Value, err error) {
	s.once.Do(s.openDB)
	if s.err != nil {
		return js.Value{}, s.err
	}
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("IndexedDB: the run store cannot be used now")
		}
	}()
	return s.db.Call("transaction", name, mode).Call("objectStore", name), nil
}

// do runs one request on a store and waits for its result; a thrown error (the quota) is returned.
func (s *idbRuns) do(name, mode string, f func(js.Value) js.Value) (v js.Value, err error) {
	st, err := s.store(name, mode)
	if err != nil {
		return js.Value{}, err
	}
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("IndexedDB refused the request (is the disk full?)")
		}
	}()
	return idbWait(f(st))
}

func (s *idbRuns) Put(r *SavedRun) error {
	b, err := encodeRun(r, nextTask) // a finished run is megabytes: encoded in steps
	if err != nil {
		return err
	}
	// Kept as a Blob: IndexedDB stores its bytes by reference, where a string of megabytes is
	// serialised on the page's thread (a task of 100-200 ms measured at the end of a level-1 run).
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	blob := js.Global().Get("Blob").New([]any{u8}, map[string]any{"type": "application/json"})
	_, err = s.do(idbRunsOS, "readwrite", func(st js.Value) js.Value { return st.Call("put", blob, r.ID) })
	return err
}

// runText is a stored run's JSON: a Blob (how Put keeps runs), or a string (how runs were kept
// before).
func runText(v js.Value) ([]byte, error) {
	if v.Type() == js.TypeString {
		return []byte(v.String()), nil
	}
	if !v.InstanceOf(js.Global().Get("Blob")) {
		return nil, errors.New("a stored run is neither text nor a Blob")
	}
	var buf js.Value
	done := make(chan error, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any { buf = args[0]; done <- nil; return nil })
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any { done <- errors.New("reading a stored run failed"); return nil })
	v.Call("arrayBuffer").Call("then", then, catch)
	err := <-done
	then.Release()
	catch.Release()
	if err != nil {
		return nil, err
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	out := make([]byte, u8.Length())
	js.CopyBytesToGo(out, u8)
	return out, nil
}

func (s *idbRuns) Runs() ([]*SavedRun, error) {
	all, err := s.do(idbRunsOS, "readonly", func(st js.Value) js.Value { return st.Call("getAll") })
	if err != nil {
		return nil, err
	}
	var out []*SavedRun
	for i := 0; i < all.Length(); i++ {
		text, err := runText(all.Index(i))
		if err != nil {
			return nil, err
		}
		var r SavedRun
		if json.Unmarshal(text, &r) == nil && r.Format == runFormat {
			out = append(out, &r)
		}
	}
	return out, nil
}

// landedRange is the key range of one run's landed samples.
func landedRange(id string) js.Value {
	return js.Global().Get("IDBKeyRange").Call("bound", id+"\x00", id+"\x01")
}

func (s *idbRuns) Delete(id string) error {
	if _, err := s.do(idbRunsOS, "readwrite", func(st js.Value) js.Value { return st.Call("delete", id) }); err != nil {
		return err
	}
	_, err := s.do(idbLanded, "readwrite", func(st js.Value) js.Value { return st.Call("delete", landedRange(id)) })
	return err
}

func (s *idbRuns) Land(id string, l Landed) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = s.do(idbLanded, "readwrite", func(st js.Value) js.Value { return st.Call("put", string(b), landedKey(id, l.Key)) })
	return err
}

func (s *idbRuns) LandedOf(id string) (map[string]Landed, error) {
	all, err := s.do(idbLanded, "readonly", func(st js.Value) js.Value { return st.Call("getAll", landedRange(id)) })
	if err != nil {
		return nil, err
	}
	out := map[string]Landed{}
	for i := 0; i < all.Length(); i++ {
		var l Landed
		if json.Unmarshal([]byte(all.Index(i).String()), &l) == nil {
			out[l.Key] = l
		}
	}
	return out, nil
}

func (s *idbRuns) Clear() error {
	for _, n := range []string{idbRunsOS, idbLanded} {
		if _, err := s.do(n, "readwrite", func(st js.Value) js.Value { return st.Call("clear") }); err != nil {
			return err
		}
	}
	return nil
}

// keyVault is where the tab keeps the API key: sessionStorage (this tab, until it closes), and
// localStorage only when the user asked to be remembered on this device.
type keyVault struct{}

const (
	keySession  = "apibank-run-key"
	keyRemember = "apibank-run-key-remembered"
)

func storageOf(name string) (v js.Value) {
	defer func() {
		if recover() != nil {
			v = js.Null()
		}
	}()
	return js.Global().Get(name)
}

func (keyVault) Load() (key string, remembered bool) {
	if l := storageOf("localStorage"); l.Truthy() {
		if v := l.Call("getItem", keyRemember); v.Type() == js.TypeString {
			return v.String(), true
		}
	}
	if s := storageOf("sessionStorage"); s.Truthy() {
		if v := s.Call("getItem", keySession); v.Type() == js.TypeString {
			return v.String(), false
		}
	}
	return "", false
}

func (keyVault) Save(key string, remember bool) {
	defer func() { _ = recover() }() // a full or refused storage keeps the key in memory only
	s, l := storageOf("sessionStorage"), storageOf("localStorage")
	if s.Truthy() {
		if key == "" {
			s.Call("removeItem", keySession)
		} else {
			s.Call("setItem", keySession, key)
		}
	}
	if l.Truthy() {
		if remember && key != "" {
			l.Call("setItem", keyRemember, key)
		} else {
			l.Call("removeItem", keyRemember)
		}
	}
}

// NewKeyVault returns the tab's key storage.
func NewKeyVault() KeyVault { return keyVault{} }

// EngineIdentity is the engine file this tab runs (its name carries a hash of its bytes).
func EngineIdentity() string {
	a := js.Global().Get("apibankAssets")
	if a.Truthy() && a.Get("engine").Type() == js.TypeString {
		return a.Get("engine").String()
	}
	return "engine.wasm"
}

// download saves text as a file through web/bridge.js.
func download(name, mime string, body []byte) bool {
	f := js.Global().Get("apibankDownload")
	if !f.Truthy() {
		return false
	}
	f.Invoke(name, mime, string(body))
	return true
}
