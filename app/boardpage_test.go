package app

import (
	"net/url"
	"testing"
)

// TestEntryInAddress: the board opens the entry its own links name (?entry=ID) and the one the link
// apibank submit prints names (#ID); anything else opens none.
func TestEntryInAddress(t *testing.T) {
	const id = "0123456789ab"
	tests := []struct {
		address, want string
	}{
		{"/board?entry=" + id, id},
		{"/board#" + id, id},
		{"https://example.org/board#" + id, id},
		{"/board#entry=" + id, id},
		{"/board?entry=" + id + "#fedcba987654", id}, // the query first
		{"/board?entry=nothex000000#" + id, id},
		{"/board", ""},
		{"/board#", ""},
		{"/board#main", ""},
		{"/board#" + id + "0", ""},
		{"/board?entry=ABC", ""},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.address)
		if err != nil {
			t.Fatal(err)
		}
		if got := entryInAddress(u); got != tt.want {
			t.Errorf("entryInAddress(%q) = %q, want %q", tt.address, got, tt.want)
		}
	}
	if got := entryInAddress(nil); got != "" {
		t.Errorf("entryInAddress(nil) = %q, want none", got)
	}
}
