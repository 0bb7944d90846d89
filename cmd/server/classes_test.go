package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// classServer is run() serving the real engine module and a class store in db, until stop.
type classServer struct {
	base string
	logs *syncBuffer
	stop func()
}

func startClassServer(t testing.TB, db string, extra ...string) *classServer {
	t.Helper()
	engine, err := os.ReadFile(filepath.Join("..", "..", "web", "engine.wasm"))
	if err != nil {
		t.Fatalf("web/engine.wasm is missing: run `make wasm` (make test does): %v", err)
	}
	web := testWeb(t)
	if err := os.WriteFile(filepath.Join(web, "engine.wasm"), engine, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	args := append([]string{"--addr", "127.0.0.1:0", "--web", web, "--log", "json", "--db", db}, extra...)
	go func() { done <- run(ctx, args, out, logs) }()
	s := &classServer{logs: logs}
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("server: %v", err)
			}
		})
	}
	t.Cleanup(s.stop)
	for start := time.Now(); s.base == "" && time.Since(start) < 30*time.Second; time.Sleep(20 * time.Millisecond) {
		if m := regexp.MustCompile(`http://[^ \n]+/`).FindString(out.String()); m != "" {
			s.base = strings.TrimSuffix(m, "/")
		}
	}
	if s.base == "" {
		t.Fatalf("the server printed no address; its log:\n%s", logs)
	}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(s.base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			break
		}
		if time.Since(start) > 60*time.Second {
			t.Fatal("the API did not become ready within a minute")
		}
	}
	return s
}

// do sends a JSON request and decodes a JSON answer into out (when not nil).
func (s *classServer) do(t testing.TB, method, path, key, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

// firstCall is the first call sample (id 0) of the builtin data's first level-1 dialogue and its
// gold call in the native form, read from the dialogue file.
func firstCall(t testing.TB) (file string, id int, gold string) {
	t.Helper()
	dir := filepath.Join("..", "..", "dataset", "builtin", "lv1-lv2-samples", "level-1-given-desc")
	es, err := os.ReadDir(dir)
	if err != nil || len(es) == 0 {
		t.Fatalf("the builtin data: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, es[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		var turn struct {
			Role      string          `json:"role"`
			APIName   string          `json:"api_name"`
			ParamDict json.RawMessage `json:"param_dict"`
		}
		if json.Unmarshal([]byte(line), &turn) == nil && turn.Role == "API" {
			call, _ := json.Marshal(map[string]any{"name": turn.APIName, "arguments": turn.ParamDict})
			return es[0].Name(), 0, string(call)
		}
	}
	t.Fatalf("%s has no API turn", es[0].Name())
	return
}

// TestClassesServed: the server with --db judges a class's answers with its engine under wazero,
// ignores a forged verdict, never logs the teacher's key, and keeps the class across a restart.
func TestClassesServed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state", "classes.db")
	s := startClassServer(t, db)
	var made struct {
		Class      string `json:"class"`
		TeacherKey string `json:"teacher_key"`
	}
	if code := s.do(t, "POST", "/api/v1/classes", "", `{"name":"served"}`, &made); code != 201 || made.TeacherKey == "" {
		t.Fatalf("create: %d %+v", code, made)
	}
	file, id, _ := firstCall(t)
	// Each student answers their own variant of the exercise: Ann's gold is her variant's.
	gold, err := goldmodel.GoldCall(wire.ExerciseSeed(wire.ClassScope(made.Class), "Ann", "level-1-given-desc", file, id), "level-1-given-desc", file, id)
	if err != nil {
		t.Fatal(err)
	}
	answer := func(student, text, claim string) map[string]any {
		var v map[string]any
		body, _ := json.Marshal(map[string]any{"student": student, "level": "level-1-given-desc", "file": file, "id": id, "answer": text})
		if claim != "" {
			body = []byte(strings.TrimSuffix(string(body), "}") + "," + claim + "}")
		}
		if code := s.do(t, "POST", "/api/v1/classes/"+made.Class+"/answers", "", string(body), &v); code != 200 {
			t.Fatalf("answer: %d %v", code, v)
		}
		return v
	}
	if v := answer("Ann", gold, ""); v["verdict"] != "CORRECT" || v["correct"] != true {
		t.Errorf("the gold call: %v", v)
	}
	if v := answer("Bo", "[GetUserToken(username='nobody', password='x')]", `"verdict":"CORRECT","correct":true`); v["correct"] != false || v["parity"] != false {
		t.Errorf("a forged verdict: %v", v)
	}
	var view struct {
		Students []struct {
			Student string
			Answers []struct {
				Verdict string
				Correct bool
			}
		}
	}
	if code := s.do(t, "GET", "/api/v1/classes/"+made.Class, made.TeacherKey, "", &view); code != 200 || len(view.Students) != 2 || view.Students[1].Answers[0].Correct {
		t.Fatalf("the teacher's view: %d %+v", code, view)
	}
	if code := s.do(t, "GET", "/api/v1/classes/"+made.Class, "", "", nil); code != 401 {
		t.Errorf("without the key: %d", code)
	}
	s.stop()
	logs := s.logs.String()
	if !strings.Contains(logs, `"path":"/api/v1/classes/`+made.Class+`"`) || !strings.Contains(logs, "parity failure") {
		t.Errorf("the access log lacks the class requests or the parity failure:\n%s", logs)
	}
	if strings.Contains(logs, made.TeacherKey) || strings.Contains(logs, made.TeacherKey[:12]) {
		t.Errorf("the log holds the teacher's key:\n%s", logs)
	}

	s = startClassServer(t, db)
	if code := s.do(t, "GET", "/api/v1/classes/"+made.Class, made.TeacherKey, "", &view); code != 200 || len(view.Students) != 2 {
		t.Fatalf("after a restart: %d %+v", code, view)
	}
}

// BenchmarkClassAnswers measures the answers endpoint on loopback with a class of 30 students
// answering at once (each sends its next answer as soon as the last is judged): the requests a
// second it holds, the engine under wazero and SQLite writes included.
func BenchmarkClassAnswers(b *testing.B) {
	// The class limits are lifted: this measures what the endpoint holds, not the limits.
	s := startClassServer(b, filepath.Join(b.TempDir(), "classes.db"), "--class-answers-per-class", "1000000000", "--class-answers-per-student", "1000000000")
	var made struct {
		Class string `json:"class"`
	}
	if code := s.do(b, "POST", "/api/v1/classes", "", `{"name":"bench"}`, &made); code != 201 {
		b.Fatalf("create: %d", code)
	}
	file, id, gold := firstCall(b)
	const students = 30
	var next, failed atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range students {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"student": fmt.Sprintf("student %02d", i), "level": "level-1-given-desc", "file": file, "id": id, "answer": gold})
			for next.Add(1) <= int64(b.N) {
				req, _ := http.NewRequest("POST", s.base+"/api/v1/classes/"+made.Class+"/answers", strings.NewReader(string(body)))
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "answers/s")
	if n := failed.Load(); n > 0 {
		b.Errorf("%d of %d answers failed", n, b.N)
	}
}
