package tools_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// benchBase loads the original's databases (the large ones included), or skips.
func benchBase(b *testing.B) *tools.Base {
	dbs, err := tools.ReadInitDatabases(filepath.Join("..", "..", "shared", "apibank"))
	if errors.Is(err, os.ErrNotExist) {
		b.Skip("../shared/apibank not found: the world benchmarks need the reference data beside the repository")
	}
	if err != nil {
		b.Fatal(err)
	}
	return tools.NewBase(dbs)
}

// BenchmarkFreshWorld is the cost of a fresh world per evaluated call: copy-on-write, so it does not
// depend on the 3 MB of Wiki, ImageCaptioning and SearchEngine data.
func BenchmarkFreshWorld(b *testing.B) {
	base := benchBase(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = base.NewWorld()
	}
}

// sink keeps benchmark results alive so the compiler cannot drop the work.
var sink *tools.World

// BenchmarkFreshWorldCall is a fresh world plus one call that writes a database (AddAlarm copies the
// Alarm database on first write) and one that reads the largest (ImageCaption).
func BenchmarkFreshWorldCall(b *testing.B) {
	base := benchBase(b)
	add := value.MapOf("token", "a9s8d7f6g5h4j3k2l1", "time", "2023-03-20 07:00:00")
	img := value.MapOf("url", "http://l.yimg.com/g/images/spaceball.gif.jpg")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := base.NewWorld()
		if _, err := tools.APIs.Call(w, "AddAlarm", add); err != nil {
			b.Fatal(err)
		}
		if _, err := tools.APIs.Call(w, "ImageCaption", img); err != nil {
			b.Fatal(err)
		}
	}
}
