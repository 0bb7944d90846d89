package app

import (
	"net"
	"strings"
	"testing"
)

// TestLANEndpointNote: only plain http to another host gets the note, and the note names the
// endpoint's origin and both ways out.
func TestLANEndpointNote(t *testing.T) {
	for _, tc := range []struct {
		url  string
		note bool
	}{
		{"http://192.168.1.20:11434/v1", true},
		{"http://teacher-pc.local:8000/v1/", true},
		{"http://10.0.0.5/v1", true},
		{"https://192.168.1.20:11434/v1", false},
		{"https://api.openai.com/v1", false},
		{"http://localhost:11434/v1", false},
		{"http://LOCALHOST:11434/v1", false},
		{"http://127.0.0.1:8080/v1", false},
		{"http://127.1.2.3:8080/v1", false},
		{"http://[::1]:8080/v1", false},
		{"http://ollama.localhost:11434/v1", false},
		{"", false},
		{"not a url", false},
	} {
		got := LANEndpointNote(tc.url)
		if (got != "") != tc.note {
			t.Errorf("%q: note %q, want a note: %v", tc.url, got, tc.note)
			continue
		}
		if got == "" {
			continue
		}
		for _, want := range []string{"https", "--allow-endpoint " + strings.TrimRight(tc.url, "/"), "refuses http://"} {
			if !strings.Contains(got, want) {
				t.Errorf("%q: the note lacks %q: %s", tc.url, want, got)
			}
		}
	}
}

// TestLoopbackHostAsNet: loopbackHost reads an address as net.ParseIP and IsLoopback do (the UI
// uses net/netip so as not to link package net).
func TestLoopbackHostAsNet(t *testing.T) {
	for _, h := range []string{"127.0.0.1", "127.255.0.9", "128.0.0.1", "0.0.0.0", "::1", "::", "::2", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
		"0:0:0:0:0:0:0:1", "::1%eth0", "fe80::1%lo", "127.000.000.001", "127.1", "1.2.3.4.5", "[::1]", "", "::ffff:7f00:1", "::127.0.0.1"} {
		ip := net.ParseIP(h)
		want := ip != nil && ip.IsLoopback()
		if got := loopbackHost(h); got != want {
			t.Errorf("loopbackHost(%q) = %v; net.ParseIP(%q).IsLoopback() = %v", h, got, h, want)
		}
	}
}
