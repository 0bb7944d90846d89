//go:build js && wasm

package app

import (
	"errors"
	"sync"
	"syscall/js"
)

// idbKV is the tab's run storage: IndexedDB database "apibank-runs" with three object stores,
// "runs" (a run's summary by ID, or a run kept whole as runs were kept before), "landed" (a
// record by run ID and task key) and "verdicts" (a run's full verdicts by ID). Values are JSON
// text: strings, and Blobs for verdicts (see put).
type idbKV struct {
	once sync.Once
	db   js.Value
	err  error
}

const (
	idbName = "apibank-runs"
	// idbVersion 2 added the "verdicts" store, when a run's summary was parted from its records.
	idbVersion = 2
)

// NewIndexedDBRunStore returns the tab's run store; the database opens at its first use. When
// IndexedDB is unavailable (a private window of some browsers) every method says so.
func NewIndexedDBRunStore() *RunStore { return &RunStore{kv: &idbKV{}} }

// defaultRunStore is where the tab keeps runs: IndexedDB.
func defaultRunStore() *RunStore { return NewIndexedDBRunStore() }

// openDB opens the database (once; it blocks, as every method does), creating the stores it lacks.
func (s *idbKV) openDB() {
	factory := js.Global().Get("indexedDB")
	if !factory.Truthy() {
		s.err = errors.New("this browser offers no IndexedDB: runs cannot be kept across reloads")
		return
	}
	req := factory.Call("open", idbName, idbVersion)
	up := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		names := db.Get("objectStoreNames")
		for _, n := range runTables {
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

// do runs one request on a store, in a transaction of its own, and waits for its result; a thrown
// error (the quota, a closed database) is returned.
func (s *idbKV) do(name, mode string, f func(js.Value) js.Value) (v js.Value, err error) {
	s.once.Do(s.openDB)
	if s.err != nil {
		return js.Value{}, s.err
	}
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("IndexedDB refused the request (is the disk full?)")
		}
	}()
	return idbWait(f(s.db.Call("transaction", name, mode).Call("objectStore", name)))
}

// prefixRange is the key range of the keys that start with prefix.
func prefixRange(prefix string) js.Value {
	return js.Global().Get("IDBKeyRange").Call("bound", prefix, prefix+"\uffff")
}

func (s *idbKV) put(table, key string, value []byte) error {
	var v any = string(value)
	if table == tableVerdicts {
		// A run's verdicts are hundreds of KB: kept as a Blob, which IndexedDB stores by
		// reference, where a string that long is serialised on the page's thread.
		u8 := js.Global().Get("Uint8Array").New(len(value))
		js.CopyBytesToJS(u8, value)
		v = js.Global().Get("Blob").New([]any{u8}, map[string]any{"type": "application/json"})
	}
	_, err := s.do(table, "readwrite", func(st js.Value) js.Value { return st.Call("put", v, key) })
	return err
}

func (s *idbKV) get(table, key string) ([]byte, bool, error) {
	v, err := s.do(table, "readonly", func(st js.Value) js.Value { return st.Call("get", key) })
	if err != nil || v.IsUndefined() {
		return nil, false, err
	}
	b, err := storedText(v)
	return b, err == nil, err
}

func (s *idbKV) all(table string) ([][]byte, error) {
	return s.values(table, func(st js.Value) js.Value { return st.Call("getAll") })
}

func (s *idbKV) under(table, prefix string) ([][]byte, error) {
	return s.values(table, func(st js.Value) js.Value { return st.Call("getAll", prefixRange(prefix)) })
}

// values reads the values a getAll request answers.
func (s *idbKV) values(table string, f func(js.Value) js.Value) ([][]byte, error) {
	all, err := s.do(table, "readonly", f)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, all.Length())
	for i := 0; i < all.Length(); i++ {
		b, err := storedText(all.Index(i))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func (s *idbKV) count(table, prefix string) (int, error) {
	n, err := s.do(table, "readonly", func(st js.Value) js.Value { return st.Call("count", prefixRange(prefix)) })
	if err != nil {
		return 0, err
	}
	return n.Int(), nil
}

func (s *idbKV) drop(table, key string) error {
	_, err := s.do(table, "readwrite", func(st js.Value) js.Value { return st.Call("delete", key) })
	return err
}

func (s *idbKV) dropUnder(table, prefix string) error {
	_, err := s.do(table, "readwrite", func(st js.Value) js.Value { return st.Call("delete", prefixRange(prefix)) })
	return err
}

func (s *idbKV) clear(table string) error {
	_, err := s.do(table, "readwrite", func(st js.Value) js.Value { return st.Call("clear") })
	return err
}

// storedText is a stored value's JSON: a string, or a Blob (how verdicts are kept, and how whole
// runs were kept before).
func storedText(v js.Value) ([]byte, error) {
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
