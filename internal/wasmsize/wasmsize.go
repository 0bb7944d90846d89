// Package wasmsize reads a WebAssembly module's code and name sections and tells how many bytes of
// code each Go package contributes: the size profile behind `make sizes`, which shows what a module
// links and what a cut would save. It needs the module's "name" section, which Go writes unless the
// link strips it (-ldflags=-s) and which wasm-opt drops: profile the Go linker's unstripped output.
package wasmsize

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Func is one function body of the module.
type Func struct {
	// Name is the function's symbol from the name section ("" when the section lacks it).
	Name string
	// Size is the body's length in bytes, its size prefix excluded.
	Size int
	body []byte
}

// Module is what Parse reads from a module.
type Module struct {
	// Total is the module's length in bytes.
	Total int
	// Sections maps a section's name ("code", "data", "custom:name", ...) to its bytes, headers included.
	Sections map[string]int
	// Funcs are the defined functions (imports excluded), in index order.
	Funcs []Func
}

var sectionNames = map[byte]string{1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount"}

// Parse reads a module's sections, its function bodies and their names.
func Parse(b []byte) (*Module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module (no \\0asm magic)")
	}
	m := &Module{Total: len(b), Sections: map[string]int{}}
	r := &reader{b: b, off: 8}
	imported := 0
	var names map[int]string
	for r.off < len(b) {
		start := r.off
		id := r.byte()
		size := r.uint()
		if r.err != nil || r.off+size > len(b) {
			return nil, fmt.Errorf("section at offset %d: truncated", start)
		}
		s := &reader{b: b[:r.off+size], off: r.off}
		r.off += size
		name := sectionNames[id]
		switch id {
		case 0:
			cname := s.string()
			name = "custom:" + cname
			if cname == "name" {
				names = s.funcNames()
			}
		case 2:
			imported = s.funcImports()
		case 10:
			for n := s.uint(); n > 0 && s.err == nil; n-- {
				l := s.uint()
				body := s.bytes(l)
				m.Funcs = append(m.Funcs, Func{Size: l, body: body})
			}
		}
		if name == "" {
			name = fmt.Sprintf("section-%d", id)
		}
		if s.err != nil {
			return nil, fmt.Errorf("%s section at offset %d: %v", name, start, s.err)
		}
		m.Sections[name] += r.off - start
	}
	for i := range m.Funcs {
		m.Funcs[i].Name = names[imported+i]
	}
	return m, nil
}

// Package is the code one Go package (or group of symbols) contributes.
type Package struct {
	// Path is the import path, or a group in parentheses for symbols of no package.
	Path string
	// Funcs counts the package's function bodies.
	Funcs int
	// Code is the bytes of its function bodies.
	Code int
	// Gzip is the size of those bodies gzip-compressed together, apart from the rest: an estimate of
	// what the package adds to a compressed download.
	Gzip int
}

// ByPackage sums the module's function bodies by Go package, largest first.
func (m *Module) ByPackage() []Package {
	idx := map[string]int{}
	var out []Package
	var bodies [][]byte
	for _, f := range m.Funcs {
		p := PackageOf(f.Name)
		i, ok := idx[p]
		if !ok {
			i = len(out)
			idx[p] = i
			out = append(out, Package{Path: p})
			bodies = append(bodies, nil)
		}
		out[i].Funcs++
		out[i].Code += f.Size
		bodies[i] = append(bodies[i], f.body...)
	}
	for i := range out {
		out[i].Gzip = gzipSize(bodies[i])
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Code != out[b].Code {
			return out[a].Code > out[b].Code
		}
		return out[a].Path < out[b].Path
	})
	return out
}

// PackageOf returns the Go package of a function's name as the Go linker writes it in the name
// section: every character but letters, digits, '_' and '.' turned into '_', so
// "github.com/x/y.(*T).M" reads "github.com_x_y.__T_.M" and is in "github.com_x_y", and
// "encoding/json.Marshal" reads "encoding_json.Marshal", in "encoding_json". Package paths are kept in
// that form (a '_' may have been '/', '-' or '_'). The linker's own symbols ("type:.eq..." and
// "go:..." ones) fall in "(other)", and a function without a name in "(unnamed)".
func PackageOf(name string) string {
	switch {
	case name == "":
		return "(unnamed)"
	case strings.HasPrefix(name, "type_."), strings.HasPrefix(name, "go_buildid"), strings.HasPrefix(name, "go_struct"),
		strings.HasPrefix(name, "go___"), strings.HasPrefix(name, "go_shape"):
		return "(other)"
	}
	from := 0
	if u := strings.IndexByte(name, '_'); u >= 0 && isHost(name[:u]) {
		from = u // a module path's first element is a host name: its dots are not the package's end
	}
	dot := strings.IndexByte(name[from:], '.')
	if dot < 0 {
		return "(other)"
	}
	return name[:from+dot]
}

// isHost tells whether a path's first element is a host name ("github.com", "golang.org"), as module
// paths outside the standard library begin, rather than a package and a symbol ("fmt.__pp_" of
// "fmt.(*pp).doPrintf", "runtime.main" of "runtime.main_x").
func isHost(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 {
		return false
	}
	switch s[dot+1:] {
	case "com", "org", "net", "io", "dev", "in", "co", "me":
		return true
	}
	return false
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

// reader reads the module's LEB128 numbers, names and vectors, keeping the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = errors.New("unexpected end")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// uint reads an unsigned LEB128 of at most 32 bits.
func (r *reader) uint() int {
	v, shift := 0, 0
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= int(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
		shift += 7
		if shift > 28 {
			r.err = errors.New("LEB128 number too long")
			return 0
		}
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.off+n > len(r.b) {
		r.err = errors.New("unexpected end")
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

func (r *reader) string() string { return string(r.bytes(r.uint())) }

// limits skips a table's or memory's limits.
func (r *reader) limits() {
	if flags := r.byte(); flags&1 != 0 {
		r.uint()
		r.uint()
	} else {
		r.uint()
	}
}

// funcImports reads the import section and counts the imported functions: they take the first
// function indices, before the module's own.
func (r *reader) funcImports() int {
	n := 0
	for count := r.uint(); count > 0 && r.err == nil; count-- {
		r.string()
		r.string()
		switch kind := r.byte(); kind {
		case 0:
			r.uint()
			n++
		case 1:
			r.byte()
			r.limits()
		case 2:
			r.limits()
		case 3:
			r.byte()
			r.byte()
		default:
			if r.err == nil {
				r.err = fmt.Errorf("import of unknown kind %d", kind)
			}
		}
	}
	return n
}

// funcNames reads the name section's function names (subsection 1) by function index.
func (r *reader) funcNames() map[int]string {
	names := map[int]string{}
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		size := r.uint()
		end := r.off + size
		if id == 1 {
			for n := r.uint(); n > 0 && r.err == nil; n-- {
				i := r.uint()
				names[i] = r.string()
			}
		}
		if r.err == nil {
			r.off = end
		}
	}
	return names
}
