package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// infoShared is the reference data folder (the original's databases and dialogues), read by tests
// only.
const infoShared = "../../shared/apibank"

var (
	infoBaseOnce sync.Once
	infoBaseVal  *Base
	infoBaseErr  error
)

// infoBase returns a Base of the original init databases plus the Dictionary and Translate tables
// harvested from the gold calls, loaded once for all tests; it skips when the data is absent.
func infoBase(t *testing.T) *Base {
	t.Helper()
	infoBaseOnce.Do(func() {
		dbs, err := readInitDatabases(infoShared)
		if err != nil {
			infoBaseErr = err
			return
		}
		turns, err := infoGoldTurns()
		if err != nil {
			infoBaseErr = err
			return
		}
		var calls []Recorded
		for _, tr := range turns {
			calls = append(calls, Recorded{Tool: tr.name, Params: tr.params, Result: tr.result})
		}
		Harvest(dbs, calls)
		infoBaseVal = NewBase(dbs)
	})
	if infoBaseErr != nil {
		t.Skipf("../shared/apibank not found: %v", infoBaseErr)
	}
	return infoBaseVal
}

// infoTurn is one gold API turn of a level-1/2 dialogue.
type infoTurn struct {
	level  string
	file   string
	name   string
	params *value.Map
	result *value.Map
}

// infoGoldTurns reads every API turn of the level-1/2 dialogues (some lines hold two JSON objects).
func infoGoldTurns() ([]infoTurn, error) {
	files, err := filepath.Glob(filepath.Join(infoShared, "lv1-lv2-samples", "*", "*.jsonl"))
	if err != nil || len(files) == 0 {
		return nil, errors.New("no dialogue files")
	}
	var out []infoTurn
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err == io.EOF {
				break
			} else if err != nil {
				return nil, err
			}
			v, err := value.Decode(raw)
			if err != nil {
				return nil, err
			}
			m, _ := v.(*value.Map)
			if m.String("role") != "API" {
				continue
			}
			p, _ := m.Get("param_dict")
			r, _ := m.Get("result")
			pm, _ := p.(*value.Map)
			rm, _ := r.(*value.Map)
			if pm == nil {
				pm = value.NewMap(0)
			}
			out = append(out, infoTurn{level: filepath.Base(filepath.Dir(f)), file: filepath.Base(f), name: m.String("api_name"), params: pm, result: rm})
		}
	}
	return out, nil
}

// infoCall calls a tool of cat natively and fails the test when the call escapes.
func infoCall(t *testing.T, cat *Catalog, w *World, name string, kv ...any) *value.Map {
	t.Helper()
	env, err := cat.CallNative(w, name, value.MapOf(kv...))
	if err != nil {
		t.Fatalf("%s%v escaped: %v", name, kv, err)
	}
	return env
}

// infoWant checks an envelope's output and exception.
func infoWant(t *testing.T, env *value.Map, out, exc any) {
	t.Helper()
	o, _ := env.Get("output")
	e, _ := env.Get("exception")
	if !value.Equal(o, out) || !value.Equal(e, exc) {
		t.Errorf("got output %s exception %s; want output %s exception %s\nenvelope %s",
			value.Repr(o), value.Repr(e), value.Repr(out), value.Repr(exc), value.Repr(env))
	}
}

// infoEnv builds an envelope {api_name, input, output, exception}.
func infoEnv(name string, in *value.Map, out, exc any) *value.Map {
	return value.MapOf("api_name", name, "input", in, "output", out, "exception", exc)
}

// infoCheck runs name's check in cat on copies of the envelopes.
func infoCheck(t *testing.T, cat *Catalog, name string, r, g *value.Map) (bool, error) {
	t.Helper()
	tool, ok := cat.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tool.Check(value.Clone(r).(*value.Map), value.Clone(g).(*value.Map))
}

// infoErrText returns the text and kind of an escaping error ("" when nil).
func infoErrText(err error) (string, Kind) {
	var e *Error
	if errors.As(err, &e) {
		return e.Text, e.Kind
	}
	if err != nil {
		return err.Error(), ""
	}
	return "", ""
}

type infoCase struct {
	name string
	args []any
	out  any
	exc  any
}

func infoRun(t *testing.T, tool string, cases []infoCase) {
	t.Helper()
	b := infoBase(t)
	for _, c := range cases {
		t.Run(tool+"/"+c.name, func(t *testing.T) {
			infoWant(t, infoCall(t, APIs, b.NewWorld(), tool, c.args...), c.out, c.exc)
		})
	}
}

func TestInfoDocumentQA(t *testing.T) {
	const doc = "https://www.example.com/article-1.txt"
	infoRun(t, "DocumentQA", []infoCase{
		{"known url", []any{"url", " " + doc + " ", "question", "Who wrote this article?"}, "The question is too difficult to answer.", nil},
		{"empty question", []any{"url", doc, "question", "  "}, nil, "The question is empty."},
		{"empty question first", []any{"url", "nope", "question", ""}, nil, "The question is empty."},
		{"unknown url", []any{"url", "https://x/y.txt", "question", "What?"}, nil, "The document of this url failed to be processed."},
		{"non-text url", []any{"url", int64(3), "question", "What?"}, nil, "'int' object has no attribute 'strip'"},
	})
	r := infoEnv("DocumentQA", value.MapOf("url", doc+" ", "question", " Q"), "The question is too difficult to answer.", nil)
	g := infoEnv("DocumentQA", value.MapOf("url", doc, "question", "Q"), "The question is too difficult to answer.", nil)
	if ok, err := infoCheck(t, APIs, "DocumentQA", r, g); !ok || err != nil {
		t.Errorf("stripped inputs should match: %v %v", ok, err)
	}
	g.Set("input", value.MapOf("url", doc, "question", "Other"))
	if ok, _ := infoCheck(t, APIs, "DocumentQA", r, g); ok {
		t.Error("different questions should not match")
	}
	if _, err := infoCheck(t, APIs, "DocumentQA", r, infoEnv("DocumentQA", value.MapOf("question", "Q"), nil, nil)); err == nil || err.Error() != "'url'" {
		t.Errorf("missing url: want KeyError 'url', got %v", err)
	}
}

func TestInfoImageCaption(t *testing.T) {
	const url = "http://l7.alamy.com/zooms/278b12a987734ec285da7155397e0d0a/an-airplane-takes-off-from-terminal-1-at-manchester-international-h4b040.jpg"
	infoRun(t, "ImageCaption", []infoCase{
		{"known", []any{"url", url}, "an airplane takes off taken on a cloudy autumn evening", nil},
		{"stripped", []any{"url", "  " + url + "\n"}, "an airplane takes off taken on a cloudy autumn evening", nil},
		{"first match wins", []any{"url", "https://i.pinimg.com/736x/66/01/6c/66016c3ba27c0e04f39e2bd81a934e3e--anita-ekberg-bob-hope.jpg"}, "author : a life in photography -- in pictures", nil},
		{"bad suffix", []any{"url", "http://x/a.gif"}, nil, "The url should end with .jpg, .jpeg or .png."},
		{"suffix case-sensitive", []any{"url", "http://x/a.JPG"}, nil, "The url should end with .jpg, .jpeg or .png."},
		{"unknown", []any{"url", "http://x/a.png"}, nil, "The image of this url failed to be processed."},
	})
	// The index keeps the first caption of a repeated url.
	b := infoBase(t)
	items, _ := b.dbs["ImageCaptioning"].([]any)
	seen := map[string]bool{}
	for _, it := range items {
		m := it.(*value.Map)
		u := m.String("url")
		if seen[u] {
			continue
		}
		seen[u] = true
		if c, _ := b.captions().find(u); !value.Equal(c.value(), m.String("caption")) {
			t.Fatalf("index of %s: %v, want the first caption %q", u, c.value(), m.String("caption"))
		}
	}
	// Default check: the raw input is compared.
	r := infoEnv("ImageCaption", value.MapOf("url", " a.jpg"), nil, "x")
	g := infoEnv("ImageCaption", value.MapOf("url", "a.jpg"), nil, "x")
	if ok, _ := infoCheck(t, APIs, "ImageCaption", r, g); ok {
		t.Error("default check compares the unstripped url")
	}
}

func TestInfoSpeechRecognition(t *testing.T) {
	infoRun(t, "SpeechRecognition", []infoCase{
		{"known", []any{"url", " https://example.com/voice1.wav "}, "Hello, how are you doing today?", nil},
		{"bad suffix", []any{"url", "https://example.com/voice1.mp3"}, nil, "The url should end with .wav."},
		{"unknown", []any{"url", "https://example.com/none.wav"}, nil, "The audio of this url failed to be processed."},
	})
}

func TestInfoQueryHistoryToday(t *testing.T) {
	b := infoBase(t)
	env := infoCall(t, APIs, b.NewWorld(), "QueryHistoryToday", "date", "04-21")
	out, _ := env.Get("output")
	list, _ := out.([]any)
	if len(list) == 0 || !strings.HasPrefix(list[0].(string), "Title: First Game of the New York Yankees, Date: 1903-04-21, Description: ") {
		t.Fatalf("04-21: %s", value.Repr(out))
	}
	for _, d := range []string{"4-21", "2023-04-21", " 04-21 ", "23-04-21", "2023-4-21"} {
		e := infoCall(t, APIs, b.NewWorld(), "QueryHistoryToday", "date", d)
		infoWant(t, e, out, nil)
	}
	infoRun(t, "QueryHistoryToday", []infoCase{
		{"not in db", []any{"date", "01-01"}, nil, "The date is not in the database."},
		{"bad date", []any{"date", "2023-02-30"}, nil, "time data '2023-02-30' does not match format '%m-%d'"},
		{"feb 29 in 1900", []any{"date", "02-29"}, nil, "day is out of range for month"},
		{"leap year", []any{"date", "2024-02-29"}, nil, "The date is not in the database."},
		{"garbage", []any{"date", "today"}, nil, "time data 'today' does not match format '%m-%d'"},
	})
	r := infoEnv("QueryHistoryToday", value.MapOf("date", "2023-04-21"), out, nil)
	g := infoEnv("QueryHistoryToday", value.MapOf("date", "04-21"), out, nil)
	if ok, err := infoCheck(t, APIs, "QueryHistoryToday", r, g); !ok || err != nil {
		t.Errorf("normalised dates should match: %v %v", ok, err)
	}
	bad := infoEnv("QueryHistoryToday", value.MapOf("date", "xx"), nil, "e")
	if ok, _ := infoCheck(t, APIs, "QueryHistoryToday", bad, bad); ok {
		t.Error("an unparsable date equals nothing, not even itself")
	}
	if _, err := infoCheck(t, APIs, "QueryHistoryToday", value.MapOf("api_name", "QueryHistoryToday", "input", value.MapOf("date", "04-21")), g); err == nil || err.Error() != "'output'" {
		t.Errorf("missing output should raise KeyError 'output', got %v", err)
	}
}

func TestInfoQueryStock(t *testing.T) {
	infoRun(t, "QueryStock", []infoCase{
		{"known", []any{"stock_code", " aapl ", "date", "2022-01-03"}, 184.5, nil},
		{"integer price", []any{"stock_code", "AAPL", "date", "2022-01-10"}, int64(183), nil},
		{"empty code", []any{"stock_code", " ", "date", "bad"}, nil, "The stock code cannot be empty."},
		{"bad date", []any{"stock_code", "AAPL", "date", "2022-13-01"}, nil, "time data '2022-13-01' does not match format '%Y-%m-%d'"},
		{"unknown code", []any{"stock_code", "XXX", "date", "2022-01-03"}, nil, "The stock code does not exist."},
		{"unknown date", []any{"stock_code", "AAPL", "date", "2021-01-03"}, nil, "The stock price of this date is not maintained."},
	})
	r := infoEnv("QueryStock", value.MapOf("stock_code", "aapl ", "date", "2022-1-3"), 184.5, nil)
	g := infoEnv("QueryStock", value.MapOf("stock_code", "AAPL", "date", "2022-01-03"), 184.5, nil)
	if ok, err := infoCheck(t, APIs, "QueryStock", r, g); !ok || err != nil {
		t.Errorf("normalised inputs should match: %v %v", ok, err)
	}
	// All four input fields are read before anything is compared.
	g2 := infoEnv("QueryStock", value.MapOf("stock_code", "MSFT"), 184.5, nil)
	if _, err := infoCheck(t, APIs, "QueryStock", r, g2); err == nil || err.Error() != "'date'" {
		t.Errorf("want KeyError 'date', got %v", err)
	}
}

func TestInfoWiki(t *testing.T) {
	b := infoBase(t)
	env := infoCall(t, APIs, b.NewWorld(), "Wiki", "keyword", " Artificial_Intelligence ")
	out, _ := env.Get("output")
	m, _ := out.(*value.Map)
	if m == nil || strings.Join(m.Keys(), ",") != "url,summary" || m.String("url") != "https://en.wikipedia.org/wiki/Artificial_intelligence" {
		t.Fatalf("Wiki output %s", value.Repr(out))
	}
	infoRun(t, "Wiki", []infoCase{{"unknown", []any{"keyword", "nothing here"}, nil, "Keyword not found."}})
	g := infoEnv("Wiki", value.MapOf("keyword", "x"), out, nil)
	r := infoEnv("Wiki", value.MapOf("keyword", "y"), out, nil)
	if ok, err := infoCheck(t, APIs, "Wiki", r, g); !ok || err != nil {
		t.Errorf("input is not compared: %v %v", ok, err)
	}
	r.Set("api_name", "Dictionary")
	if ok, err := infoCheck(t, APIs, "Wiki", r, g); ok || err != nil {
		t.Errorf("a different api_name is simply incorrect: %v %v", ok, err)
	}
}

func TestInfoDictionary(t *testing.T) {
	meanings := []any{value.MapOf("partOfSpeech", "noun", "definitions", []any{})}
	w := NewBase(map[string]any{"Dictionary": value.MapOf("ice cream", meanings)}).NewWorld()
	infoWant(t, infoCall(t, APIs, w, "Dictionary", "keyword", " Ice_Cream "), meanings, nil)
	infoWant(t, infoCall(t, APIs, w, "Dictionary", "keyword", "gelato"), nil, "Failed.")
	infoWant(t, infoCall(t, APIs, NewBase(nil).NewWorld(), "Dictionary", "keyword", "ice cream"), nil, "Failed.")
	g := infoEnv("Dictionary", value.MapOf("keyword", "a"), meanings, nil)
	if ok, _ := infoCheck(t, APIs, "Dictionary", infoEnv("Dictionary", value.MapOf("keyword", "b"), meanings, nil), g); !ok {
		t.Error("same output should match")
	}
	// The response must be named Dictionary itself, whatever the gold says.
	if ok, _ := infoCheck(t, APIs, "Dictionary", infoEnv("Wiki", value.MapOf(), meanings, nil), infoEnv("Wiki", value.MapOf(), meanings, nil)); ok {
		t.Error("a response not named Dictionary is incorrect")
	}
}

func TestInfoTranslate(t *testing.T) {
	tbl := value.MapOf(
		"es", value.MapOf("Hello", "Hola"),
		"en", value.MapOf("Hola", "Hello"),
		"zh-tw", value.MapOf("Hello", "哈囉"),
		"zh-cn", value.MapOf("Hello", "你好"),
		"ms", value.MapOf("Hello", "Helo"),
	)
	w := NewBase(map[string]any{"Translate": tbl}).NewWorld()
	cases := []struct {
		args []any
		out  any
		exc  any
	}{
		{[]any{"src", "Hello", "tgt_lang", "es"}, "Hola", nil},
		{[]any{"src", "Hello", "tgt_lang", "Spanish"}, "Hola", nil},
		{[]any{"src", "Hola"}, "Hello", nil},
		{[]any{"src", "Hola", "src_lang", "spanish"}, "Hello", nil},
		{[]any{"src", "Hello", "tgt_lang", "Chinese (Traditional)"}, "哈囉", nil},
		{[]any{"src", "Hello", "tgt_lang", "chinese"}, "你好", nil},
		{[]any{"src", "Hello", "tgt_lang", "Malayalam"}, "Helo", nil}, // "malay" comes first
		{[]any{"src", "Hello", "tgt_lang", "Klingon"}, nil, "Language not supported."},
		{[]any{"src", "Hello", "src_lang", "auto", "tgt_lang", "es"}, nil, "Language not supported."},
		{[]any{"src", "Hello", "tgt_lang", ""}, nil, "Language not supported."},
		{[]any{"src", "Hello", "tgt_lang", nil}, nil, "'NoneType' object has no attribute 'lower'"},
		{[]any{"src", "Goodbye", "tgt_lang", "es"}, nil, "Translation not available offline."},
	}
	for _, c := range cases {
		env := infoCall(t, APIs, w, "Translate", c.args...)
		infoWant(t, env, c.out, c.exc)
	}
	// The input holds only the given arguments, in the order given.
	env := infoCall(t, APIs, w, "Translate", "tgt_lang", "es", "src", "Hello")
	in, _ := env.Get("input")
	if got := strings.Join(in.(*value.Map).Keys(), ","); got != "src,tgt_lang" {
		t.Errorf("input keys %s", got)
	}
	env = infoCall(t, APIs, w, "Translate", "src", "Hello", "tgt_lang", "es", "src_lang", "en")
	in, _ = env.Get("input")
	if got := strings.Join(in.(*value.Map).Keys(), ","); got != "src,tgt_lang,src_lang" {
		t.Errorf("input keys %s", got)
	}
	if _, err := APIs.CallNative(w, "Translate", value.MapOf("tgt_lang", "es")); err == nil || !strings.Contains(err.Error(), "missing 1 required positional argument: 'src'") {
		t.Errorf("missing src: %v", err)
	}
	// Check: api_name, src, output, exception.
	g := infoEnv("Translate", value.MapOf("src", "Hello", "tgt_lang", "es"), "Hola", nil)
	if ok, _ := infoCheck(t, APIs, "Translate", infoEnv("Translate", value.MapOf("src", "Hello", "tgt_lang", "spanish"), "Hola", nil), g); !ok {
		t.Error("languages are not compared")
	}
	if ok, _ := infoCheck(t, APIs, "Translate", infoEnv("Translate", value.MapOf("src", "Hello "), "Hola", nil), g); ok {
		t.Error("src is compared exactly")
	}
	if _, err := infoCheck(t, APIs, "Translate", infoEnv("Translate", value.MapOf(), "Hola", nil), g); err == nil || err.Error() != "'src'" {
		t.Errorf("missing src: want KeyError, got %v", err)
	}
	// The language table has googletrans' 107 entries.
	if len(googleLanguages) != 107 {
		t.Errorf("%d languages", len(googleLanguages))
	}
	for _, c := range []struct{ in, want string }{{"", "en"}, {"French", "fr"}, {"he", "he"}, {"hebrew", "iw"}, {"zh-CN", "zh-cn"}} {
		if got, ok := translateTarget(c.in); !ok || got != c.want {
			t.Errorf("translateTarget(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestInfoSearchEngine(t *testing.T) {
	b := infoBase(t)
	db, _ := b.Database("SearchEngine")
	samples, _ := db.(*value.Map).Get("sample_queries")
	sm := samples.(*value.Map)
	if sm.Len() != 5 {
		t.Fatalf("%d sample queries", sm.Len())
	}
	for _, q := range sm.Keys() {
		want, _ := sm.Get(q)
		env := infoCall(t, APIs, b.NewWorld(), "SearchEngine", "keyword", q)
		infoWant(t, env, want, nil)
	}
	// Nothing in the vocabulary: all scores tie and numpy's order gives documents 0 and 51.
	raw, _ := db.(*value.Map).Get("raw_documents")
	docs := raw.([]any)
	env := infoCall(t, APIs, b.NewWorld(), "SearchEngine", "keyword", "zzzz qqqq")
	infoWant(t, env, []any{docs[0], docs[51]}, nil)
	infoWant(t, infoCall(t, APIs, b.NewWorld(), "SearchEngine", "keyword", int64(5)), nil, "'int' object has no attribute 'lower'")

	// A database without stored tokens is tokenised from title and abstract, giving the same ranking.
	noTok := value.MapOf("raw_documents", raw)
	w2 := NewBase(map[string]any{"SearchEngine": noTok}).NewWorld()
	for _, q := range sm.Keys() {
		want, _ := sm.Get(q)
		infoWant(t, infoCall(t, APIs, w2, "SearchEngine", "keyword", q), want, nil)
	}
	infoWant(t, infoCall(t, APIs, NewBase(nil).NewWorld(), "SearchEngine", "keyword", "ai"), []any{}, nil)

	// Check: order-insensitive over the two results, api_name and exception compared.
	two := []any{docs[0], docs[1]}
	rev := []any{docs[1], docs[0]}
	g := infoEnv("SearchEngine", value.MapOf("keyword", "a"), two, nil)
	if ok, err := infoCheck(t, APIs, "SearchEngine", infoEnv("SearchEngine", value.MapOf("keyword", "b"), rev, nil), g); !ok || err != nil {
		t.Errorf("reordered results should match: %v %v", ok, err)
	}
	if ok, err := infoCheck(t, APIs, "SearchEngine", infoEnv("SearchEngine", nil, []any{docs[0], docs[2]}, nil), g); ok || err != nil {
		t.Errorf("different results: %v %v", ok, err)
	}
	if ok, err := infoCheck(t, APIs, "SearchEngine", infoEnv("Wiki", nil, two, nil), g); ok || err != nil {
		t.Errorf("different api_name: %v %v", ok, err)
	}
	if ok, err := infoCheck(t, APIs, "SearchEngine", infoEnv("SearchEngine", nil, nil, "x"), g); ok || err != nil {
		t.Errorf("different exception is decided before the outputs: %v %v", ok, err)
	}
	_, err := infoCheck(t, APIs, "SearchEngine", infoEnv("SearchEngine", nil, nil, nil), g)
	if txt, kind := infoErrText(err); kind != Plain || txt != "cannot access local variable 'response_output' where it is not associated with a value" {
		t.Errorf("null response output: %v", err)
	}
	_, err = infoCheck(t, APIs, "SearchEngine", g, infoEnv("SearchEngine", nil, nil, nil))
	if txt, _ := infoErrText(err); txt != "cannot access local variable 'groundtruth_output' where it is not associated with a value" {
		t.Errorf("null gold output: %v", err)
	}
	_, err = infoCheck(t, APIs, "SearchEngine", infoEnv("SearchEngine", nil, []any{value.MapOf("title", "t")}, nil), g)
	if txt, kind := infoErrText(err); kind != Key || txt != "'abstract'" {
		t.Errorf("result without abstract: %v", err)
	}
}

// TestInfoGoldReplay replays every gold call of the info tools through a fresh world and compares
// output and exception with the recorded result.
func TestInfoGoldReplay(t *testing.T) {
	b := infoBase(t)
	turns, err := infoGoldTurns()
	if err != nil {
		t.Skipf("../shared/apibank not found: %v", err)
	}
	mine := map[string]bool{}
	for _, tool := range infoTools() {
		mine[tool.Name] = true
	}
	n := 0
	for _, tr := range turns {
		if !mine[tr.name] {
			continue
		}
		n++
		env, err := APIs.CallNative(b.NewWorld(), tr.name, tr.params)
		if err != nil {
			t.Errorf("%s %s: escaped %v", tr.file, tr.name, err)
			continue
		}
		wo, _ := tr.result.Get("output")
		we, _ := tr.result.Get("exception")
		o, _ := env.Get("output")
		e, _ := env.Get("exception")
		if !value.Equal(o, wo) || !value.Equal(e, we) {
			t.Errorf("%s %s%s: got %s / %s, want %s / %s", tr.file, tr.name, value.Repr(tr.params),
				value.Repr(o), value.Repr(e), value.Repr(wo), value.Repr(we))
			continue
		}
		tool, _ := APIs.Lookup(tr.name)
		if ok, err := tool.Check(env, value.Clone(tr.result).(*value.Map)); !ok || err != nil {
			t.Errorf("%s %s: own check rejects the replay: %v %v", tr.file, tr.name, ok, err)
		}
	}
	if n != 49 {
		t.Errorf("%d gold turns of the info tools, want 49", n)
	}
}

// TestInfoTextCalls uses the text-semantics Call, as the call parser produces arguments.
func TestInfoTextCalls(t *testing.T) {
	b := infoBase(t)
	env, err := APIs.Call(b.NewWorld(), "QueryStock", value.MapOf("date", "2022-01-03", "stock_code", "AAPL"))
	if err != nil {
		t.Fatal(err)
	}
	infoWant(t, env, 184.5, nil)
	in, _ := env.Get("input")
	if got := strings.Join(in.(*value.Map).Keys(), ","); got != "stock_code,date" {
		t.Errorf("input in call order: %s", got)
	}
	if _, err := APIs.Call(b.NewWorld(), "QueryStock", value.MapOf("code", "AAPL")); err == nil || err.Error() != "invalid parameter name. parameter: code" {
		t.Errorf("unknown parameter: %v", err)
	}
	if _, err := APIs.Call(b.NewWorld(), "DocumentQA", value.MapOf("url", "a")); err == nil || err.Error() != "DocumentQA.call() missing 1 required positional argument: 'question'" {
		t.Errorf("missing argument: %v", err)
	}
	env, err = APIs.Call(b.NewWorld(), "Translate", value.MapOf("src", "Hello, how are you?", "tgt_lang", "fr"))
	if err != nil {
		t.Fatal(err)
	}
	infoWant(t, env, "Bonjour comment allez-vous?", nil)
}

// TestInfoOracleVerdicts replays the tool results the original runtime produced for perturbed
// predictions (oracle/verdicts.jsonl) of the info tools: same output and exception for the same
// input, and the verdict of the check against the gold call (CORRECT or not).
func TestInfoOracleVerdicts(t *testing.T) {
	b := infoBase(t)
	turns, err := infoGoldTurns()
	if err != nil {
		t.Skipf("../shared/apibank not found: %v", err)
	}
	byFile := map[string][]infoTurn{}
	for _, tr := range turns {
		k := tr.level + "/" + tr.file
		byFile[k] = append(byFile[k], tr)
	}
	data, err := os.ReadFile(filepath.Join(infoShared, "oracle", "verdicts.jsonl"))
	if err != nil {
		t.Skipf("../shared/apibank not found: %v", err)
	}
	mine := map[string]bool{}
	for _, tool := range infoTools() {
		mine[tool.Name] = true
	}
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := value.Decode(line)
		if err != nil {
			t.Fatal(err)
		}
		rec := v.(*value.Map)
		name := rec.String("api_name")
		cat := rec.String("category")
		if !mine[name] || (cat != "CORRECT" && cat != "HAS_EXCEPTION" && cat != "INPUT_MISMATCH" && cat != "OUTPUT_MISMATCH") {
			continue
		}
		d, _ := rec.Get("detail")
		detail, ok := d.(*value.Map)
		if !ok {
			continue
		}
		in, _ := detail.Get("input")
		env, err := APIs.Call(b.NewWorld(), name, in.(*value.Map))
		if err != nil {
			t.Errorf("%s %s: escaped %v", rec.String("pred"), name, err)
			continue
		}
		wo, _ := detail.Get("output")
		we, _ := detail.Get("exception")
		o, _ := env.Get("output")
		e, _ := env.Get("exception")
		if !value.Equal(o, wo) || !value.Equal(e, we) {
			t.Errorf("%s: got %s / %s, want %s / %s", rec.String("pred"), value.Repr(o), value.Repr(e), value.Repr(wo), value.Repr(we))
			continue
		}
		id, _ := rec.Get("id")
		k, _ := value.Int(id)
		// Sample 2k predicts API turn k; an odd sample whose gold is an API call (adjacent API
		// turns) predicts turn k+1.
		gi := int((k + 1) / 2)
		list := byFile[rec.String("level")+"/"+rec.String("file")]
		if gi >= len(list) {
			t.Errorf("no gold turn %d in %s", gi, rec.String("file"))
			continue
		}
		tool, _ := APIs.Lookup(name)
		ok, err = tool.Check(env, value.Clone(list[gi].result).(*value.Map))
		if err != nil || ok != (cat == "CORRECT") {
			t.Errorf("%s: check %v %v, verdict %s", rec.String("pred"), ok, err, cat)
		}
		n++
	}
	if n == 0 {
		t.Error("no verdicts replayed")
	}
	t.Logf("%d verdicts replayed", n)
}
