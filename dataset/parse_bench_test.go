package dataset

import "testing"

// BenchmarkParseBuiltin loads the builtin data and parses all of it: the parse a variant's guard
// pays for its rewritten files.
func BenchmarkParseBuiltin(b *testing.B) {
	files, err := BuiltinFiles()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d, _, _ := Load("x", files)
		d.Dialogues()
		d.Scenes()
	}
}
