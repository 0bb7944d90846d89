package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this package's main in a child process (TestShutdownOnSignal): with
// APIBANK_SERVER_MAIN set, the test binary is the server, its arguments taken from that variable.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("APIBANK_SERVER_MAIN"); ok {
		os.Args = append([]string{"server"}, strings.Split(args, "\x1f")...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestShutdownOnSignal starts the real main in a child process, and stops it with SIGTERM (and
// SIGINT) while a response is being written to a slow reader: the process exits 0 after that
// response is complete, and logs its stop.
func TestShutdownOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			web := testWeb(t)
			// A large enough engine that its response is still in flight when the signal comes.
			big := make([]byte, 16<<20)
			for i := range big {
				big[i] = byte(i * 7919 >> 3)
			}
			if err := os.WriteFile(web+"/engine.wasm", big, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "APIBANK_SERVER_MAIN="+strings.Join([]string{"--addr", "127.0.0.1:0", "--web", web, "--log", "json", "--api=false"}, "\x1f"))
			stdout, _ := cmd.StdoutPipe()
			var stderr syncBuffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					cmd.Process.Kill()
				}
			})
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil {
				t.Fatalf("no address on stdout: %v; stderr: %s", err, stderr.String())
			}
			base := regexp.MustCompile(`http://\S+/`).FindString(line)
			if base == "" {
				t.Fatalf("stdout %q names no address", line)
			}
			resp, err := http.Get(base)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET /: %v %v", resp, err)
			}
			resp.Body.Close()
			// A slow reader of the identity engine: the first bytes, then the signal, then the rest.
			req, _ := http.NewRequest("GET", base+"web/engine.wasm", nil)
			resp, err = (&http.Transport{DisableCompression: true}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			first := make([]byte, 1<<10)
			if _, err := io.ReadFull(resp.Body, first); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			rest, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || len(first)+len(rest) != len(big) {
				t.Errorf("the response in flight got %d of %d bytes (%v)", len(first)+len(rest), len(big), err)
			}
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("the server exited with %v; stderr: %s", err, stderr.String())
				}
			case <-time.After(15 * time.Second):
				t.Fatal("the server did not exit after the signal")
			}
			var msgs []string
			for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("a log line is not JSON: %q", l)
				}
				msgs = append(msgs, m["msg"].(string))
			}
			want := []string{"listening", "request", "shutting down", "request", "stopped"}
			if strings.Join(msgs, ",") != strings.Join(want, ",") {
				t.Errorf("log messages %v, want %v", msgs, want)
			}
		})
	}
}
