package variant

import "testing"

// BenchmarkMake makes a whole variant of the builtin data, guard included (a new seed each time).
func BenchmarkMake(b *testing.B) {
	files := builtinFiles(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Make(files, uint64(i)+1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProve runs the whole proof (every verify check, fairness included) on a variant.
func BenchmarkProve(b *testing.B) {
	files := builtinFiles(b)
	out, _, err := Make(files, 7)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep, err := Prove(out); err != nil || !rep.OK {
			b.Fatal(err, rep.Failures)
		}
	}
}
