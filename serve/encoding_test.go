package serve

import "testing"

func TestNegotiate(t *testing.T) {
	all := []string{Brotli, Gzip, Identity}
	tests := []struct {
		header string
		have   []string
		want   string
		ok     bool
	}{
		{"", all, Identity, true},
		{"br", all, Brotli, true},
		{"gzip", all, Gzip, true},
		{"gzip, deflate, br, zstd", all, Brotli, true},
		{"gzip;q=1.0, br;q=0.5", all, Gzip, true},
		{"gzip;q=0.5", all, Gzip, true}, // named beats the implicit identity
		{"br;q=0.001", all, Brotli, true},
		{"BR", all, Brotli, true},
		{" gzip ; q=0.8 , br ; Q=0.9 ", all, Brotli, true},
		{"*", all, Brotli, true},
		{"*;q=0.5, gzip;q=0.9", all, Gzip, true},
		{"identity", all, Identity, true},
		{"br;q=0, gzip;q=0", all, Identity, true},
		{"identity;q=0", all, "", false},
		{"*;q=0", all, "", false},
		{"*;q=0, identity", all, Identity, true},
		{"identity;q=0, gzip", all, Gzip, true},
		{"br;q=bad, gzip", all, Gzip, true},
		{"br;q=2", all, Identity, true},
		{"br, br;q=0", all, Identity, true},
		{"zstd", all, Identity, true},
		{"br", []string{Gzip, Identity}, Identity, true},
		{"gzip", []string{Identity}, Identity, true},
		{"br", []string{Brotli, Identity}, Brotli, true},
	}
	for _, tt := range tests {
		got, ok := Negotiate(tt.header, tt.have)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Negotiate(%q, %v) = %q, %v; want %q, %v", tt.header, tt.have, got, ok, tt.want, tt.ok)
		}
	}
}
