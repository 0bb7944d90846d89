package wasmsize

import (
	"strings"
	"testing"
)

func TestPackageOf(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"encoding_json.Marshal", "encoding_json"},
		{"runtime.main", "runtime"},
		{"runtime.main_x", "runtime"},
		{"fmt.__pp_.doPrintf", "fmt"},
		{"time.Time.Format", "time"},
		{"github.com_apibank_playground_apibank_app.__Page_.Render", "github.com_apibank_playground_apibank_app"},
		{"github.com_maxence_charriere_go_app_v10_pkg_app.init.0", "github.com_maxence_charriere_go_app_v10_pkg_app"},
		{"golang.org_x_sys_unix.Open", "golang.org_x_sys_unix"},
		{"slices.SortFunc_go.shape.int_", "slices"},
		{"type_.eq.runtime.hchan", "(other)"},
		{"go_buildid", "(other)"},
		{"go___struct___io.Reader___.Read", "(other)"},
		{"wasm_export_run", "(other)"},
		{"", "(unnamed)"},
	} {
		if got := PackageOf(c.name); got != c.want {
			t.Errorf("PackageOf(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// module assembles a module from sections (id, contents).
func module(sections ...[]byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		b = append(b, s[0])
		b = append(b, leb(len(s)-1)...)
		b = append(b, s[1:]...)
	}
	return b
}

func leb(n int) []byte {
	var out []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

func name(s string) []byte { return append(leb(len(s)), s...) }

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func TestParse(t *testing.T) {
	// Two imports (a function and a memory), then three bodies named by the name section: index 0
	// is the imported function, so the bodies are indices 1, 2 and 3.
	imports := cat([]byte{2}, leb(2),
		name("go"), name("debug"), []byte{0}, leb(0),
		name("env"), name("mem"), []byte{2, 1}, leb(1), leb(2))
	long := make([]byte, 200) // a body whose size needs two LEB bytes
	code := cat([]byte{10}, leb(3), leb(3), []byte{0, 0, 0x0b}, leb(len(long)), long, leb(1), []byte{0x0b})
	names := cat(name("name"), []byte{1}, leb(len(cat(leb(3), leb(1), name("fmt.Println"), leb(2), name("fmt.Sprintf"), leb(3), name("runtime.main")))),
		leb(3), leb(1), name("fmt.Println"), leb(2), name("fmt.Sprintf"), leb(3), name("runtime.main"))
	b := module(imports, code, append([]byte{0}, names...))
	m, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Total != len(b) || len(m.Funcs) != 3 {
		t.Fatalf("total %d funcs %d, want %d and 3", m.Total, len(m.Funcs), len(b))
	}
	want := []Func{{Name: "fmt.Println", Size: 3}, {Name: "fmt.Sprintf", Size: 200}, {Name: "runtime.main", Size: 1}}
	for i, f := range m.Funcs {
		if f.Name != want[i].Name || f.Size != want[i].Size {
			t.Errorf("func %d = %s %d, want %s %d", i, f.Name, f.Size, want[i].Name, want[i].Size)
		}
	}
	sum := 8
	for _, n := range m.Sections {
		sum += n
	}
	if sum != len(b) || m.Sections["code"] != len(code)+len(leb(len(code)-1)) {
		t.Errorf("sections %v do not add up to the module's %d bytes", m.Sections, len(b))
	}
	pkgs := m.ByPackage()
	if len(pkgs) != 2 || pkgs[0].Path != "fmt" || pkgs[0].Code != 203 || pkgs[0].Funcs != 2 || pkgs[1].Path != "runtime" || pkgs[1].Code != 1 {
		t.Errorf("by package = %+v, want fmt 203 bytes in 2, runtime 1", pkgs)
	}
	if pkgs[0].Gzip <= 0 {
		t.Errorf("fmt's gzip estimate is %d", pkgs[0].Gzip)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		what string
		b    []byte
		want string
	}{
		{"no magic", []byte("\x7fELF\x01\x00\x00\x00"), "no \\0asm magic"},
		{"section past the end", append(module(), 10, 50, 1), "offset 8: truncated"},
		{"body past its section", module([]byte{10, 1, 9, 0}), "code section at offset 8"},
		{"unknown import kind", module(cat([]byte{2}, leb(1), name("a"), name("b"), []byte{7})), "unknown kind 7"},
	} {
		_, err := Parse(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.what, err, c.want)
		}
	}
}
