package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunServesScript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"models":["m1","m2"],"rules":[{"reply":{"content":"hi"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--script", path}, pw)
		pw.Close()
	}()
	first, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	base := strings.TrimSpace(first)
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") {
		t.Fatalf("first line %q is not the base URL", first)
	}
	res, err := http.Get(base + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	_ = json.NewDecoder(res.Body).Decode(&list)
	res.Body.Close()
	if len(list.Data) != 2 || list.Data[1].ID != "m2" {
		t.Errorf("models %+v", list)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\n\"rules\": [}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--script", filepath.Join(dir, "none.json")}, "no such file"},
		{[]string{"--script", bad}, bad + ":2:11: invalid character"},
		{[]string{"--addr", "256.0.0.1:1"}, "256.0.0.1"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--nope"}, "flag provided but not defined"},
		{[]string{"--gold", "builtin", "--seed", "010"}, "--seed 010: a seed is a whole number"},
		{[]string{"--gold", "builtin", "--seed", "-1"}, "--seed -1: a seed is a whole number"},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run %v: %v, want %q", tt.args, err, tt.want)
		}
	}
}
