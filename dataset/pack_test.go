package dataset

import (
	"bytes"
	"os"
	"testing"
)

// TestBuiltinPackFresh: the embedded pack holds exactly the files of dataset/builtin.
func TestBuiltinPackFresh(t *testing.T) {
	files, err := ReadFS(os.DirFS("builtin"), ".")
	if err != nil {
		t.Fatal(err)
	}
	packed, err := Unpack(builtinPack)
	if err != nil {
		t.Fatal(err)
	}
	if len(packed) != len(files) {
		t.Fatalf("builtin.pack has %d files, dataset/builtin %d: run `go generate ./dataset`", len(packed), len(files))
	}
	for p, b := range files {
		if !bytes.Equal(packed[p], b) {
			t.Fatalf("builtin.pack is stale for %s: run `go generate ./dataset`", p)
		}
	}
}

func TestPackRoundTrip(t *testing.T) {
	in := Files{"a/b.json": []byte(`{"x":1}`), "c.txt": nil, "d": bytes.Repeat([]byte("xyz"), 10000)}
	var b bytes.Buffer
	if err := Pack(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := Unpack(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range in {
		if !bytes.Equal(out[p], c) {
			t.Errorf("%s: round trip changed the content", p)
		}
	}
	if _, err := Unpack(b.Bytes()[:b.Len()/2]); err == nil {
		t.Error("a truncated pack must fail")
	}
}
