package docs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// The pages' commands, run or checked: every line of a ```sh block (and every inline `apibank ...` or
// `make ...` span) of README.md and docs/*.md is classified, and a line the test cannot classify fails
// it, so a new command in the pages needs a way to be tested here.
//
//   - `apibank ...` and `go run ./cmd/apibank ...`: the command and every flag shown must be ones the
//     CLI accepts. A synopsis line (with [optional] parts, a|b choices, FILE or DIR placeholders) is only
//     checked; any other line runs, in a working folder of its page, against the fake model
//     (testkit/fakemodel) and a real cmd/server, and must exit 0 with a plausible output.
//   - `go install ./cmd/apibank`: the test builds its CLI with it; `export NAME=VALUE` sets a variable
//     for the page's later lines.
//   - `go run ./cmd/server ...`: the flags must exist; a concrete line starts the server (on a free
//     port) and fetches a page.
//   - `curl ...` (also `head -N FILE | curl ... -d @-`): the same request is made from Go to a real
//     cmd/server (or the fake model, for a model endpoint), and must answer 2xx (or the status the
//     line's comment begins with) with JSON.
//   - `make ...`: the targets must exist in the Makefile; they are not run.
//   - notRun: the few lines not run, each with its reason and the test that covers it.
//
// Placeholders a runnable line may carry, and what stands in for them: URL after --base-url (the fake
// model), NAME after --model (a model's name), CODE and $KEY (a class made on the server and its
// teacher key), ID and APIBANK_OWNER_KEY=... (a board entry and its owner key), sk-... (the fake
// model's key). Hosts: localhost:8080 and demo.example.com are the test's server, api.openai.com is
// the fake model. A file a line reads that no earlier line of its page made is made by input.

// notRun lists the command lines the test does not run, with the reason and what covers them.
var notRun = map[string]string{
	"go install github.com/apibank-playground/apibank/cmd/apibank@latest": "fetches the published module; cmd/apibank's TestInstalledCLIOutsideTheRepository builds the CLI as go install does and runs it outside the repository",
	"cd worker && npm ci && npx wrangler dev":                             "starts workerd; e2e/tests/worker.test.mjs runs the Worker under wrangler dev (make test-browser)",
	"npx wrangler d1 create apibank-classes":                              "makes a database in a Cloudflare account; wrangler dev's local D1 is tested by e2e/tests/worker-class.test.mjs",
	"cd worker && npx wrangler login":                                     "logs in to a Cloudflare account",
	"npx wrangler deploy":                                                 "deploys to a Cloudflare account; make worker-size makes the same upload as a dry run",
	"go generate ./dataset":                                               "rewrites dataset/builtin.pack; dataset's TestBuiltinPackFresh fails when it is stale",
	"go generate ./engine":                                                "rewrites the builtin ceilings; engine's TestBuiltinCeilingsFresh fails when they are stale",
	"go generate ./variant":                                               "rewrites variant/builtin.learned; variant's TestBuiltinLearnedFresh fails when it is stale",
	"go test ./cmd/apibank -run Parity":                                   "the parity tests themselves, which go test ./... runs (make test)",
	"ONLY=phone node e2e/bench.mjs":                                       "a browser benchmark of minutes, which make bench-browser runs",
	"go run ./cmd/apiload":                                                "a load test of 20,000 requests, which make bench runs",
}

const (
	fakeKey   = "sk-docs-test-key"
	maxReadme = 12000
	maxReason = 60000
)

// repo is the repository's root; tmp holds everything the test makes.
var repo, tmp string

func TestMain(m *testing.M) {
	code := func() int {
		var err error
		if repo, err = filepath.Abs(".."); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if tmp, err = os.MkdirTemp("", "apibank-docs-"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		defer stopFixtures()
		return m.Run()
	}()
	os.Exit(code)
}

// TestReadmeSize keeps the front page a five-minute read.
func TestReadmeSize(t *testing.T) {
	checkSize(t, filepath.Join("..", "README.md"), maxReadme)
}

// TestRationaleSize keeps RATIONALE.md to decisions, not diaries.
func TestRationaleSize(t *testing.T) {
	checkSize(t, filepath.Join("..", "RATIONALE.md"), maxReason)
}

func checkSize(t *testing.T, path string, limit int64) {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > limit {
		t.Errorf("%s has %d bytes, more than %d", path, fi.Size(), limit)
	}
}

// TestLinks: every relative link of the pages leads to a file, and the images are small PNGs.
func TestLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, p := range pages(t) {
		for i, line := range p.lines {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				path := filepath.Join(filepath.Dir(p.path), filepath.FromSlash(target))
				fi, err := os.Stat(path)
				if err != nil {
					t.Errorf("%s:%d: link to %s: %v", p.name, i+1, m[1], err)
					continue
				}
				if strings.HasSuffix(target, ".png") {
					b, _ := os.ReadFile(path)
					if fi.Size() > 300<<10 || !bytes.HasPrefix(b, []byte("\x89PNG")) {
						t.Errorf("%s:%d: %s is %d bytes; want a PNG under 300 KiB", p.name, i+1, target, fi.Size())
					}
				}
			}
		}
	}
}

// TestCommands runs or checks every command the pages show.
func TestCommands(t *testing.T) {
	all := pages(t)
	var mu sync.Mutex
	counts := map[string]int{}
	seen := map[string]bool{}
	count := func(class string) {
		mu.Lock()
		defer mu.Unlock()
		counts[class]++
	}
	// The pages run at once, each its commands in order: most of a page's time is spent waiting for
	// commands and servers, so they need not wait for -parallel's few slots.
	t.Run("pages", func(t *testing.T) {
		var wg sync.WaitGroup
		defer wg.Wait()
		for _, p := range all {
			items, problems := extract(p)
			for _, it := range items {
				if _, ok := notRun[it.text]; ok {
					seen[it.text] = true
				}
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				t.Run(p.name, func(t *testing.T) { runPage(t, p, items, problems, count) })
			}()
		}
	})
	for line := range notRun {
		if !seen[line] {
			t.Errorf("notRun lists %q, which no page shows any more: remove it", line)
		}
	}
	var names []string
	for c := range counts {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		t.Logf("%-21s %d", c, counts[c])
	}
}

// runPage runs or checks a page's commands in order, in a working folder of its own.
func runPage(t *testing.T, p page, items []item, problems []string, count func(string)) {
	for _, problem := range problems {
		t.Error(problem)
	}
	s := newPageRun(t, p)
	for _, it := range items {
		t.Run(fmt.Sprintf("line%d", it.line), func(t *testing.T) {
			class := s.do(t, it)
			if class != "" && it.inline {
				class += " (inline)"
			}
			if class != "" {
				count(class)
			}
		})
	}
}

// The classes of command lines.
const (
	classRun    = "run"
	classFlags  = "flag-checked"
	classMake   = "make-target"
	classNotRun = "not-run"
)

// page is a Markdown file of the project's reference.
type page struct {
	name, path string
	lines      []string
}

func pages(t *testing.T) []page {
	t.Helper()
	paths, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	paths = append([]string{filepath.Join("..", "README.md")}, paths...)
	var out []page
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page{name: filepath.Base(p), path: p, lines: strings.Split(string(b), "\n")})
	}
	return out
}

// item is one command of a page.
type item struct {
	page    string
	line    int    // 1-based
	text    string // the command, its comment and line continuations removed
	comment string // the comment after it, if any
	inline  bool   // an inline code span of the prose, not a code block's line
}

func (it item) where() string { return fmt.Sprintf("%s:%d", it.page, it.line) }

// commandWords are the first words of a line that is a command.
var commandWords = map[string]bool{"go": true, "make": true, "curl": true, "apibank": true, "npx": true, "npm": true,
	"node": true, "cd": true, "head": true, "export": true, "wrangler": true, "git": true, "sh": true, "bash": true,
	"mkdir": true, "cp": true, "python3": true}

// looksLikeCommand says whether a line outside a sh block reads as a command.
func looksLikeCommand(line string) bool {
	f := strings.Fields(line)
	for len(f) > 0 && envAssign.MatchString(f[0]) {
		f = f[1:]
	}
	return len(f) > 0 && commandWords[strings.TrimPrefix(f[0], "$")]
}

var (
	envAssign  = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)
	inlineSpan = regexp.MustCompile("`([^`]+)`")
)

// extract finds a page's commands: the lines of its sh blocks and its inline apibank and make spans.
// problems are commands it shows where the test would not see them (another block, an indented one).
func extract(p page) (items []item, problems []string) {
	inFence, shell := false, false
	fence := ""
	pending, pendingLine := "", 0
	for i, raw := range p.lines {
		n := i + 1
		trimmed := strings.TrimLeft(raw, " ")
		if !inFence && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			inFence, fence = true, trimmed[:3]
			info := strings.Fields(strings.TrimLeft(trimmed, "`~"))
			shell = len(info) > 0 && (info[0] == "sh" || info[0] == "shell" || info[0] == "bash" || info[0] == "console")
			continue
		}
		if inFence && strings.HasPrefix(trimmed, fence) {
			inFence = false
			continue
		}
		if inFence && !shell {
			if looksLikeCommand(raw) {
				problems = append(problems, fmt.Sprintf("%s:%d: a command outside a ```sh block (the test reads only those): %s", p.name, n, raw))
			}
			continue
		}
		if inFence {
			if pending == "" {
				pendingLine = n
			}
			text, comment := splitComment(raw)
			if strings.HasSuffix(strings.TrimSpace(text), `\`) {
				pending += strings.TrimSuffix(strings.TrimSpace(text), `\`) + " "
				continue
			}
			text = strings.Join(strings.Fields(pending+text), " ")
			pending = ""
			if text == "" {
				continue // a blank or comment line
			}
			for _, part := range splitOutside(text, ";") {
				items = append(items, item{page: p.name, line: pendingLine, text: part, comment: comment})
			}
			continue
		}
		if strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t") {
			if looksLikeCommand(raw) {
				problems = append(problems, fmt.Sprintf("%s:%d: a command in an indented block (the test reads only ```sh blocks): %s", p.name, n, strings.TrimSpace(raw)))
			}
			continue
		}
		for _, m := range inlineSpan.FindAllStringSubmatch(raw, -1) {
			span := strings.Join(strings.Fields(m[1]), " ")
			if strings.HasPrefix(span, "apibank ") || strings.HasPrefix(span, "go run ./cmd/apibank ") || strings.HasPrefix(span, "make ") || span == "make" {
				items = append(items, item{page: p.name, line: n, text: span, inline: true})
			}
		}
	}
	return items, problems
}

// outsideQuotes returns the first index from from on, outside single and double quotes, at which
// at holds, or -1: the one quote rule of splitComment and splitOutside.
func outsideQuotes(s string, from int, at func(i int) bool) int {
	quote := byte(0)
	for i := from; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case at(i):
			return i
		}
	}
	return -1
}

// splitComment cuts a shell line at its comment ("#" at a word's start, outside quotes).
func splitComment(line string) (text, comment string) {
	i := outsideQuotes(line, 0, func(i int) bool { return line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') })
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// splitOutside splits s at sep where it is outside quotes.
func splitOutside(s, sep string) []string {
	var parts []string
	start := 0
	at := func(i int) bool { return strings.HasPrefix(s[i:], sep) }
	for i := outsideQuotes(s, 0, at); i >= 0; i = outsideQuotes(s, i+1, at) {
		parts = append(parts, strings.TrimSpace(s[start:i]))
		start = i + len(sep)
	}
	parts = append(parts, strings.TrimSpace(s[start:]))
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// word is a shell word: raw as written without its quotes, and the quoting of each part, so that $VAR
// can be expanded where the shell would.
type word struct {
	parts []wordPart
}

type wordPart struct {
	text   string
	single bool // in single quotes: no expansion
}

func (w word) raw() string {
	var b strings.Builder
	for _, p := range w.parts {
		b.WriteString(p.text)
	}
	return b.String()
}

var varRef = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)

// value expands $VAR in the word's unquoted and double-quoted parts.
func (w word) value(lookup func(string) string) string {
	var b strings.Builder
	for _, p := range w.parts {
		if p.single {
			b.WriteString(p.text)
			continue
		}
		b.WriteString(varRef.ReplaceAllStringFunc(p.text, func(m string) string {
			return lookup(varRef.FindStringSubmatch(m)[1])
		}))
	}
	return b.String()
}

// words splits a command into shell words; "|" and ">" are words of their own.
func words(s string) ([]word, error) {
	var out []word
	var cur word
	var buf strings.Builder
	in := false
	flush := func(single bool) {
		if buf.Len() > 0 || single {
			cur.parts = append(cur.parts, wordPart{text: buf.String(), single: single})
			buf.Reset()
		}
	}
	end := func() {
		flush(false)
		if in {
			out = append(out, cur)
		}
		cur, in = word{}, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			end()
		case c == '|' || c == '>':
			end()
			out = append(out, word{parts: []wordPart{{text: string(c)}}})
		case c == '\'':
			flush(false)
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("an unclosed single quote")
			}
			buf.WriteString(s[i+1 : i+1+j])
			flush(true)
			in = true
			i += j + 1
		case c == '"':
			flush(false)
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, errors.New("an unclosed double quote")
			}
			buf.WriteString(s[i+1 : i+1+j])
			cur.parts = append(cur.parts, wordPart{text: buf.String()})
			buf.Reset()
			in = true
			i += j + 1
		case c == '\\' && i+1 < len(s):
			buf.WriteByte(s[i+1])
			in = true
			i++
		default:
			buf.WriteByte(c)
			in = true
		}
	}
	end()
	return out, nil
}

func raws(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.raw()
	}
	return out
}

// placeholder matches a word that stands for a value: FILE, DIR, A.jsonl, RUN.jsonl, A,B, FILE...
var placeholder = regexp.MustCompile(`^[A-Z][A-Z0-9_]*(\.[a-z]+)?(,[A-Z][A-Z0-9_]*)*(\.\.\.)?$`)

// fillable are the placeholders the test fills in a runnable line: a model's URL and name, a board
// entry's id, a class's code. A board's URL is not one of them: a runnable line names its board
// (https://demo.example.com), so a line with --board URL is a synopsis.
func fillable(prev, a string) bool {
	switch a {
	case "URL":
		return prev == "--base-url"
	case "NAME":
		return prev == "--model"
	case "ID", "CODE":
		return true
	}
	return false
}

// synopsis says whether a command's words describe a form rather than a concrete command.
func synopsis(args []string) bool {
	for i, a := range args {
		if strings.ContainsAny(a, "[]|") || strings.HasSuffix(a, "...") {
			return true
		}
		prev := ""
		if i > 0 {
			prev = args[i-1]
		}
		if placeholder.MatchString(a) && !fillable(prev, a) {
			return true
		}
	}
	return false
}

// pageRun is a page's working folder and what its commands made: each page's commands run in order,
// as a reader would type them.
type pageRun struct {
	page page
	dir  string
	env  map[string]string // exported variables
	// A class and a board entry, made by the page's commands or, when a line needs one first, by the test.
	classCode, teacherKey string
	entryID, ownerKey     string
	// failedInBatch is how many requests the test's batch provider failed (its error file's lines).
	failedInBatch int
}

func newPageRun(t *testing.T, p page) *pageRun {
	dir := filepath.Join(tmp, "work-"+strings.TrimSuffix(p.name, ".md"))
	if err := os.MkdirAll(filepath.Join(dir, "web"), 0o755); err != nil {
		t.Fatal(err)
	}
	// As in a checkout, the CLI finds web/engine.wasm in its working folder.
	if wasm := filepath.Join(repo, "web", "engine.wasm"); exists(wasm) {
		if err := os.Symlink(wasm, filepath.Join(dir, "web", "engine.wasm")); err != nil {
			t.Fatal(err)
		}
	}
	return &pageRun{page: p, dir: dir, env: map[string]string{}}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// do classifies one command and runs or checks it; it returns the command's class.
func (s *pageRun) do(t *testing.T, it item) string {
	if reason, ok := notRun[it.text]; ok {
		t.Logf("%s: not run: %s", it.where(), reason)
		return classNotRun
	}
	ws, err := words(it.text)
	if err != nil || len(ws) == 0 {
		t.Errorf("%s: cannot read %q: %v", it.where(), it.text, err)
		return ""
	}
	// Leading NAME=VALUE words set the command's environment.
	env := map[string]string{}
	for len(ws) > 1 && envAssign.MatchString(ws[0].raw()) {
		name, value, _ := strings.Cut(ws[0].raw(), "=")
		env[name] = value
		ws = ws[1:]
	}
	r := raws(ws)
	switch {
	case r[0] == "make":
		s.makeTargets(t, it, r[1:])
		return classMake
	case r[0] == "export" && len(r) == 2 && envAssign.MatchString(r[1]) && !it.inline:
		name, value, _ := strings.Cut(r[1], "=")
		s.env[name] = s.fill(t, it, name, value)
		return classRun
	case r[0] == "apibank":
		return s.apibank(t, it, env, ws[1:])
	case len(r) >= 3 && r[0] == "go" && r[1] == "run" && r[2] == "./cmd/apibank":
		return s.apibank(t, it, env, ws[3:])
	case len(r) >= 3 && r[0] == "go" && r[1] == "run" && r[2] == "./cmd/server" && !it.inline:
		return s.server(t, it, r[3:])
	case len(r) == 3 && r[0] == "go" && r[1] == "install" && r[2] == "./cmd/apibank" && !it.inline:
		s.goInstall(t, it)
		return classRun
	case r[0] == "curl" && !it.inline:
		s.curl(t, it, ws[1:], nil)
		return classRun
	case r[0] == "head" && len(r) > 4 && r[3] == "|" && r[4] == "curl" && !it.inline:
		n, err := strconv.Atoi(strings.TrimPrefix(r[1], "-"))
		if err != nil {
			t.Errorf("%s: head %s: want head -N FILE", it.where(), r[1])
			return ""
		}
		b := s.input(t, it, r[2])
		lines := strings.SplitAfter(string(b), "\n")
		s.curl(t, it, ws[5:], []byte(strings.Join(lines[:min(n, len(lines))], "")))
		return classRun
	}
	t.Errorf("%s: the test cannot classify %q: run or check it in docs/commands_test.go, or list it in notRun with the test that covers it", it.where(), it.text)
	return ""
}

// fill gives a placeholder value of an assignment (NAME=...) its test value.
func (s *pageRun) fill(t *testing.T, it item, name, value string) string {
	if !strings.Contains(value, "...") {
		return value
	}
	switch name {
	case "OPENAI_API_KEY":
		return fakeKey
	case "APIBANK_OWNER_KEY":
		s.ensureEntry(t, it)
		return s.ownerKey
	}
	t.Fatalf("%s: no test value for %s=%s", it.where(), name, value)
	return ""
}

// lookup is a variable's value for a command: the page's exports, then the fixtures' values.
func (s *pageRun) lookup(t *testing.T, it item, name string) string {
	if v, ok := s.env[name]; ok {
		return v
	}
	switch name {
	case "OPENAI_API_KEY":
		return fakeKey
	case "KEY":
		s.ensureClass(t, it)
		return s.teacherKey
	case "APIBANK_OWNER_KEY":
		s.ensureEntry(t, it)
		return s.ownerKey
	}
	t.Fatalf("%s: $%s is neither exported by the page nor known to the test", it.where(), name)
	return ""
}

// makeTargets checks that each target named exists in the Makefile.
func (s *pageRun) makeTargets(t *testing.T, it item, args []string) {
	targets := makefileTargets(t)
	for _, a := range args {
		if strings.Contains(a, "=") {
			continue // a variable
		}
		if !targets[a] {
			t.Errorf("%s: the Makefile has no target %q", it.where(), a)
		}
	}
}

var (
	targetsOnce sync.Once
	targetSet   map[string]bool
	targetErr   error
)

func makefileTargets(t *testing.T) map[string]bool {
	targetsOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(repo, "Makefile"))
		if err != nil {
			targetErr = err
			return
		}
		targetSet = map[string]bool{}
		rule := regexp.MustCompile(`^([A-Za-z0-9_./-]+(?:\s+[A-Za-z0-9_./-]+)*)\s*:([^=]|$)`)
		for _, line := range strings.Split(string(b), "\n") {
			if m := rule.FindStringSubmatch(line); m != nil {
				for _, name := range strings.Fields(m[1]) {
					targetSet[name] = true
				}
			}
		}
	})
	if targetErr != nil {
		t.Fatal(targetErr)
	}
	return targetSet
}

// apibank checks a CLI line and, unless it is a synopsis, runs it.
func (s *pageRun) apibank(t *testing.T, it item, env map[string]string, ws []word) string {
	bin := cli(t)
	args := raws(ws)
	if len(args) == 0 {
		t.Errorf("%s: apibank without a command", it.where())
		return ""
	}
	sub, rest := subcommand(t, it, bin, args)
	if sub == nil {
		return ""
	}
	for _, a := range rest {
		name := strings.TrimLeft(strings.Trim(a, "[]."), "-")
		if !strings.HasPrefix(strings.TrimLeft(a, "["), "-") || name == "" {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if !cliHasFlag(bin, sub, name) {
			t.Errorf("%s: apibank %s has no flag --%s", it.where(), strings.Join(sub, " "), name)
		}
	}
	if it.inline || synopsis(args) {
		return classFlags
	}
	if t.Failed() {
		return "" // a flag the CLI refuses: running the line says no more
	}
	s.runCLI(t, it, env, sub, ws[len(sub):])
	return classRun
}

// subcommand finds the command a line names (one word, or two for batch and dataset).
func subcommand(t *testing.T, it item, bin string, args []string) (sub, rest []string) {
	out, code := probe(bin, args[0], "-h")
	if code == 0 {
		return args[:1], args[1:]
	}
	if strings.Contains(out, "needs a subcommand") {
		if len(args) == 1 && it.inline {
			return args, nil // prose naming a group of commands: `apibank batch`
		}
		if len(args) > 1 {
			if _, code := probe(bin, args[0], args[1], "-h"); code == 0 {
				return args[:2], args[2:]
			}
		}
	}
	t.Errorf("%s: apibank has no command %q: %s", it.where(), strings.Join(args[:min(2, len(args))], " "), firstLine(out))
	return nil, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// cliHasFlag asks the CLI itself: it parses flags before -h, and refuses one it does not define.
func cliHasFlag(bin string, sub []string, name string) bool {
	out, _ := probe(bin, append(append([]string{}, sub...), "--"+name+"=1", "-h")...)
	return !strings.Contains(out, "flag provided but not defined")
}

var probes sync.Map

// probe runs a command that answers at once (usage, flag errors) and returns its output and status.
func probe(bin string, args ...string) (string, int) {
	key := bin + "\x00" + strings.Join(args, "\x00")
	if v, ok := probes.Load(key); ok {
		r := v.([2]any)
		return r[0].(string), r[1].(int)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = tmp
	cmd.Env = cliEnv(nil)
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
		out = append(out, err.Error()...)
	}
	probes.Store(key, [2]any{string(out), code})
	return string(out), code
}

// runCLI runs a concrete apibank line in the page's folder and checks what it made.
func (s *pageRun) runCLI(t *testing.T, it item, env map[string]string, sub []string, ws []word) {
	var args []string
	outFile := ""
	for i := 0; i < len(ws); i++ {
		raw := ws[i].raw()
		if raw == ">" && i+1 < len(ws) {
			outFile = ws[i+1].raw()
			i++
			continue
		}
		if raw == "|" {
			t.Errorf("%s: a pipe after apibank: the test runs none", it.where())
			return
		}
		args = append(args, ws[i].value(func(name string) string { return s.lookup(t, it, name) }))
	}
	name := strings.Join(sub, " ")
	needsServer := name == "submit" || name == "retract"
	if needsServer {
		server(t)
	}
	// Placeholders and external hosts.
	model := gold(t)
	if name == "synth" {
		model = generator(t)
	}
	for i, a := range args {
		prev := ""
		if i > 0 {
			prev = args[i-1]
		}
		switch {
		case a == "URL" && prev == "--base-url", a == "https://api.openai.com/v1":
			args[i] = model.URL()
		case a == "https://demo.example.com":
			args[i] = server(t).url
		case a == "NAME" && prev == "--model":
			args[i] = "docs-model"
		case a == "ID":
			s.ensureEntry(t, it)
			args[i] = s.entryID
		case a == "CODE" || a == "URL" || a == "NAME":
			t.Fatalf("%s: no test value for %s here", it.where(), a)
		}
	}
	// Inputs the line reads: made here when no earlier line of the page made them.
	for i, a := range args {
		prev := ""
		if i > 0 {
			prev = args[i-1]
		}
		switch {
		case prev == "--preds" || prev == "--pairs" || prev == "--input" || prev == "--output" || prev == "--errors":
			s.input(t, it, a)
		case !strings.HasPrefix(a, "-") && (prev == "" || !strings.HasPrefix(prev, "--") || isBoolFlag(prev)) &&
			(name == "compare" || name == "submit" || name == "dataset fill"):
			s.input(t, it, a)
		}
	}
	cmdEnv := map[string]string{}
	for k, v := range s.env {
		cmdEnv[k] = v
	}
	for k, v := range env {
		cmdEnv[k] = s.fill(t, it, k, v)
	}
	stdout, stderr, code := runIn(t, s.dir, cmdEnv, nil, cli(t), append(append([]string{}, sub...), args...)...)
	if code == 1 && name == "batch score" && s.failedInBatch > 0 && strings.Count(stderr, "request failed") == s.failedInBatch {
		// As CLI.md says, a request the provider failed makes the status 1, the report printed.
		t.Logf("%s: exit 1 for the %d request(s) the test's provider failed, as documented", it.where(), s.failedInBatch)
		code = 0
	}
	if code != 0 {
		t.Fatalf("%s: %s: exit %d\nstderr:\n%s\nstdout:\n%s", it.where(), it.text, code, stderr, clip(stdout))
	}
	if outFile != "" {
		if err := os.WriteFile(filepath.Join(s.dir, outFile), []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if hasArg(args, "--json") && !json.Valid([]byte(stdout)) {
		t.Errorf("%s: --json printed no JSON:\n%s", it.where(), clip(stdout))
	}
	s.checkCLI(t, it, name, args, stdout)
}

func isBoolFlag(f string) bool { return f == "--json" || f == "--native" || f == "--stream" }

func hasArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

var (
	entryLine = regexp.MustCompile(`(?m)^entry ([0-9a-f]{12}):`)
	ownerLine = regexp.MustCompile(`(?m)^owner key .*:\n(\S+)\s*$`)
)

// checkCLI checks that a command's output is what it says it makes.
func (s *pageRun) checkCLI(t *testing.T, it item, name string, args []string, stdout string) {
	where := it.where()
	text := !hasArg(args, "--json")
	report := func() {
		if text && !strings.Contains(stdout, "accuracy") {
			t.Errorf("%s: no report on stdout:\n%s", where, clip(stdout))
		}
	}
	switch name {
	case "help":
		if !strings.Contains(stdout, "commands:") {
			t.Errorf("%s: no usage:\n%s", where, clip(stdout))
		}
	case "replay":
		if text && !strings.Contains(stdout, "accepted") {
			t.Errorf("%s: no counts:\n%s", where, clip(stdout))
		}
	case "validate":
		if text && !strings.Contains(stdout, "ok: true") {
			t.Errorf("%s: the data does not validate:\n%s", where, clip(stdout))
		}
	case "dataset stats":
		if !strings.Contains(stdout, "dialogues") {
			t.Errorf("%s: no counts:\n%s", where, clip(stdout))
		}
	case "dataset fill":
		for _, a := range args {
			if strings.HasSuffix(a, ".jsonl") {
				b, _ := os.ReadFile(filepath.Join(s.dir, a))
				if regexp.MustCompile(`"result":\s*null`).Match(b) {
					t.Errorf("%s: %s still has a null result", where, a)
				}
			}
		}
	case "score", "batch score":
		report()
		if out := flagValue(args, "--out"); out != "" {
			jsonLines(t, where, s.read(t, out))
		}
	case "rouge":
		for _, l := range jsonLines(t, where, []byte(stdout)) {
			if _, ok := l["f"]; !ok {
				t.Errorf("%s: a line without f: %v", where, l)
			}
		}
	case "prompts":
		body := []byte(stdout)
		if m := flagValue(args, "--model"); m != "" {
			for _, l := range jsonLines(t, where, body) {
				if l["model"] != m || l["messages"] == nil {
					t.Fatalf("%s: a request body without the model %s or messages: %v", where, m, l)
				}
			}
		}
	case "run":
		report()
		out := flagValue(args, "--out")
		jsonLines(t, where, s.read(t, out))
		rec := strings.TrimSuffix(out, filepath.Ext(out)) + ".run.json"
		if !json.Valid(s.read(t, rec)) {
			t.Errorf("%s: %s is not JSON", where, rec)
		}
	case "batch prepare":
		for _, l := range jsonLines(t, where, s.read(t, flagValue(args, "--out"))) {
			if l["custom_id"] == nil || l["method"] != "POST" || l["body"] == nil {
				t.Fatalf("%s: not a batch request: %v", where, l)
			}
		}
	case "compare":
		if !strings.Contains(stdout, "level") {
			t.Errorf("%s: no comparison:\n%s", where, clip(stdout))
		}
	case "synth":
		out := flagValue(args, "--out")
		if !json.Valid(s.read(t, filepath.Join(out, "funnel.json"))) {
			t.Errorf("%s: funnel.json is not JSON", where)
		}
		s.read(t, filepath.Join(out, "training.jsonl"))
		if text && !strings.Contains(stdout, "accepted") {
			t.Errorf("%s: no funnel on stdout:\n%s", where, clip(stdout))
		}
	case "submit":
		if text {
			id, key := entryLine.FindStringSubmatch(stdout), ownerLine.FindStringSubmatch(stdout)
			if id == nil || key == nil {
				t.Fatalf("%s: no entry and owner key:\n%s", where, stdout)
			}
			s.entryID, s.ownerKey = id[1], key[1]
		}
	case "retract":
	default:
		t.Errorf("%s: the test does not know what apibank %s should make: teach checkCLI", where, name)
	}
}

func (s *pageRun) read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonLines decodes JSONL (at least one line).
func jsonLines(t *testing.T, where string, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: not a JSON line: %v: %s", where, err, clip(line))
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no lines", where)
	}
	return out
}

// input makes a file a line reads when no earlier line of the page made it, and returns its bytes.
func (s *pageRun) input(t *testing.T, it item, name string) []byte {
	path := filepath.Join(s.dir, name)
	if b, err := os.ReadFile(path); err == nil {
		return b
	}
	var b []byte
	switch base := filepath.Base(name); {
	case base == "preds.jsonl" || base == "a.jsonl":
		b = goldPreds(t)
	case base == "b.jsonl":
		// The gold predictions with every third one spoiled: another run to compare.
		var lines []string
		for i, l := range strings.Split(strings.TrimSpace(string(goldPreds(t))), "\n") {
			if i%3 == 0 {
				var v map[string]any
				if err := json.Unmarshal([]byte(l), &v); err != nil {
					t.Fatal(err)
				}
				v["pred"] = ""
				nb, _ := json.Marshal(v)
				l = string(nb)
			}
			lines = append(lines, l)
		}
		b = []byte(strings.Join(lines, "\n") + "\n")
	case base == "pairs.jsonl":
		b = []byte(`{"ref":"the cat sat on the mat","hyp":"the cat sat"}` + "\n" + `{"ref":"a quiet morning","hyp":"a quiet morning"}` + "\n")
	case base == "output.jsonl" || base == "errors.jsonl":
		s.batchFiles(t, it)
		return s.read(t, name)
	case base == "answer.json":
		first := goldLines(t)[0]
		b, _ = json.Marshal(map[string]any{"student": "Ada", "level": first["level"], "file": first["file"], "id": first["id"], "answer": first["pred"]})
	case base == "request.json":
		b = scoreRequest(t)
	case base == "draft.jsonl" && (filepath.Base(filepath.Dir(name)) == "level-1-given-desc" || filepath.Base(filepath.Dir(name)) == "level-2-toolsearcher"):
		b = draftDialogue(t, filepath.Base(filepath.Dir(name)))
	default:
		t.Fatalf("%s: %s does not exist and the test knows no way to make it: show the command that makes it first, or teach docs/commands_test.go's input", it.where(), name)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return b
}

// batchFiles answers the page's batch.jsonl as a provider does: an output file, and an error file
// holding the first request's failure.
func (s *pageRun) batchFiles(t *testing.T, it item) {
	in, err := os.ReadFile(filepath.Join(s.dir, "batch.jsonl"))
	if err != nil {
		t.Fatalf("%s: the batch's output needs batch.jsonl: show batch prepare --out batch.jsonl first (%v)", it.where(), err)
	}
	out, err := gold(t).AnswerBatch(in)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(out)), "\n")
	var first struct {
		CustomID string `json:"custom_id"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	failed := fmt.Sprintf(`{"id":"batch_req_err","custom_id":%q,"response":null,"error":{"code":"server_error","message":"the provider failed it"}}`+"\n", first.CustomID)
	if err := os.WriteFile(filepath.Join(s.dir, "errors.jsonl"), []byte(failed), 0o644); err != nil {
		t.Fatal(err)
	}
	s.failedInBatch = 1
	if err := os.WriteFile(filepath.Join(s.dir, "output.jsonl"), []byte(strings.Join(lines[1:], "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scoreRequest is a score request carrying its data: the builtin world and one dialogue in the
// original layout, with the gold model's predictions for it.
func scoreRequest(t *testing.T) []byte {
	first := goldLines(t)[0]
	level, file := first["level"].(string), first["file"].(string)
	files := map[string]string{}
	dbs, err := filepath.Glob(filepath.Join(repo, "dataset", "builtin", "init_database", "*.json"))
	if err != nil || len(dbs) == 0 {
		t.Fatalf("no builtin world: %v", err)
	}
	for _, p := range dbs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files["init_database/"+filepath.Base(p)] = string(b)
	}
	rel := "lv1-lv2-samples/" + level + "/" + file
	b, err := os.ReadFile(filepath.Join(repo, "dataset", "builtin", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	files[rel] = string(b)
	var preds []map[string]any
	for _, l := range goldLines(t) {
		if l["file"] == file {
			preds = append(preds, l)
		}
	}
	body, err := json.Marshal(map[string]any{"data": map[string]any{"name": "mine", "files": files}, "predictions": preds})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// draftDialogue is a builtin dialogue of level with its API results taken out, as one writes a draft.
func draftDialogue(t *testing.T, level string) []byte {
	files, err := filepath.Glob(filepath.Join(repo, "dataset", "builtin", "lv1-lv2-samples", level, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no builtin dialogue of %s: %v", level, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var turn map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &turn); err != nil {
			t.Fatal(err)
		}
		if string(turn["role"]) == `"API"` {
			turn["result"] = json.RawMessage("null")
			nb, _ := json.Marshal(turn)
			line = string(nb)
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

// server checks a `go run ./cmd/server` line's flags and, unless it is a synopsis, starts the server
// with them (on a free port) and fetches its front page.
func (s *pageRun) server(t *testing.T, it item, args []string) string {
	flags := serverFlags(t)
	for _, a := range args {
		if name, ok := strings.CutPrefix(strings.TrimLeft(a, "["), "-"); ok {
			name, _, _ = strings.Cut(strings.TrimLeft(name, "-"), "=")
			if !flags[name] {
				t.Errorf("%s: cmd/server has no flag --%s", it.where(), name)
			}
		}
	}
	if synopsis(args) {
		return classFlags
	}
	if t.Failed() {
		return ""
	}
	needWasm(t)
	server(t) // its engines compiled into the shared cache first: this one then compiles nothing
	var run []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--addr" && i+1 < len(args) {
			i++ // the test's server listens on a free port
			continue
		}
		run = append(run, args[i])
	}
	srv := startServer(t, repo, append([]string{"--addr", "127.0.0.1:0"}, run...), false)
	defer srv.stop()
	resp, err := http.Get(srv.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Type"), "html") {
		t.Errorf("%s: GET / answered %s, %s", it.where(), resp.Status, resp.Header.Get("Content-Type"))
	}
	if ep := flagValue(args, "--allow-endpoint"); ep != "" {
		u, err := url.Parse(ep)
		if err != nil {
			t.Fatal(err)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, u.Scheme+"://"+u.Host) {
			t.Errorf("%s: the page's policy does not allow %s: %s", it.where(), u.Host, csp)
		}
	}
	return classRun
}

var (
	serverFlagsOnce sync.Once
	serverFlagSet   map[string]bool
)

// serverFlags are the flags cmd/server's -h lists.
func serverFlags(t *testing.T) map[string]bool {
	bin := serverBin(t)
	serverFlagsOnce.Do(func() {
		out, _ := probe(bin, "-h")
		serverFlagSet = map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^\s+-([a-z0-9-]+)`).FindAllStringSubmatch(out, -1) {
			serverFlagSet[m[1]] = true
		}
	})
	if len(serverFlagSet) == 0 {
		t.Fatal("cmd/server -h lists no flags")
	}
	return serverFlagSet
}

// goInstall checks `go install ./cmd/apibank`: the test's CLI is what that command installed (see
// build), and it runs.
func (s *pageRun) goInstall(t *testing.T, it item) {
	stdout, stderr, code := runIn(t, s.dir, nil, nil, cli(t), "help")
	if code != 0 || !strings.Contains(stdout, "commands:") {
		t.Errorf("%s: the installed apibank help: exit %d\n%s%s", it.where(), code, stdout, stderr)
	}
}

// curl makes a curl line's request from Go: to the test's server, or to the fake model for a model
// endpoint.
func (s *pageRun) curl(t *testing.T, it item, ws []word, stdin []byte) {
	lookup := func(name string) string { return s.lookup(t, it, name) }
	method, target := "", ""
	header := http.Header{}
	var body []byte
	hasBody := false
	data := func(v string, binary bool) {
		hasBody = true
		var b []byte
		switch {
		case v == "@-":
			b = stdin
		case strings.HasPrefix(v, "@"):
			b = s.input(t, it, v[1:])
		default:
			b = []byte(v)
		}
		if !binary && strings.HasPrefix(v, "@") {
			b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil) // as curl -d does
		}
		body = append(body, b...)
	}
	for i := 0; i < len(ws); i++ {
		a := ws[i].raw()
		next := func() string {
			if i+1 >= len(ws) {
				t.Fatalf("%s: curl %s needs a value", it.where(), a)
			}
			i++
			return ws[i].value(lookup)
		}
		switch a {
		case "-s", "-S", "-sS", "--silent", "--show-error":
		case "-X", "--request":
			method = next()
		case "-H", "--header":
			k, v, ok := strings.Cut(next(), ":")
			if !ok {
				t.Fatalf("%s: a header without a colon", it.where())
			}
			header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
		case "-d", "--data", "--data-ascii":
			data(next(), false)
		case "--data-binary":
			data(next(), true)
		default:
			if strings.HasPrefix(a, "-") {
				t.Fatalf("%s: the test does not know curl's %s: teach docs/commands_test.go's curl", it.where(), a)
			}
			if target != "" {
				t.Fatalf("%s: curl with two URLs", it.where())
			}
			target = ws[i].value(lookup)
		}
	}
	if method == "" {
		method = http.MethodGet
		if hasBody {
			method = http.MethodPost
		}
	}
	if hasBody && header.Get("Content-Type") == "" {
		header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		if u, err = url.Parse("http://" + target); err != nil {
			t.Fatalf("%s: URL %q: %v", it.where(), target, err)
		}
	}
	switch u.Host {
	case "localhost:8080", "demo.example.com":
		base, _ := url.Parse(server(t).url)
		u.Scheme, u.Host = base.Scheme, base.Host
	case "api.openai.com":
		base, _ := url.Parse(gold(t).URL())
		u.Scheme, u.Host = base.Scheme, base.Host
	default:
		t.Fatalf("%s: the test does not know the host %s", it.where(), u.Host)
	}
	segs := strings.Split(u.Path, "/")
	for i, seg := range segs {
		switch seg {
		case "CODE":
			s.ensureClass(t, it)
			segs[i] = s.classCode
		case "ID":
			s.ensureEntry(t, it)
			segs[i] = s.entryID
		}
	}
	u.Path = strings.Join(segs, "/")
	status, respHeader, answer := request(t, method, u.String(), header, body)
	want := 0
	if m := regexp.MustCompile(`^(\d{3})\b`).FindStringSubmatch(it.comment); m != nil {
		want, _ = strconv.Atoi(m[1])
	}
	if (want != 0 && status != want) || (want == 0 && (status < 200 || status > 299)) {
		t.Fatalf("%s: %s %s answered %d (want %s): %s", it.where(), method, u.Path, status, map[bool]string{true: strconv.Itoa(want), false: "2xx"}[want != 0], clip(string(answer)))
	}
	if status != http.StatusNoContent {
		if !json.Valid(answer) {
			jsonLines(t, it.where(), answer) // NDJSON or JSONL: every line JSON
		}
		if ct := respHeader.Get("Content-Type"); !strings.Contains(ct, "json") {
			t.Errorf("%s: Content-Type %q", it.where(), ct)
		}
	}
	if strings.HasSuffix(u.Path, "/api/v1/classes") && method == http.MethodPost && status == http.StatusCreated {
		var made struct {
			Class      string `json:"class"`
			TeacherKey string `json:"teacher_key"`
		}
		if err := json.Unmarshal(answer, &made); err != nil || made.Class == "" || made.TeacherKey == "" {
			t.Fatalf("%s: no class and key in %s", it.where(), answer)
		}
		s.classCode, s.teacherKey = made.Class, made.TeacherKey
	}
	if strings.Contains(u.Path, "/api/v1/classes/") && method == http.MethodDelete {
		s.classCode, s.teacherKey = "", ""
	}
}

func request(t *testing.T, method, target string, header http.Header, body []byte) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// ensureClass makes a class on the server for a line that names CODE or $KEY before any line of its
// page made one.
func (s *pageRun) ensureClass(t *testing.T, it item) {
	if s.classCode != "" {
		return
	}
	status, _, answer := request(t, http.MethodPost, server(t).url+"/api/v1/classes", http.Header{"Content-Type": {"application/json"}}, []byte(`{"name":"docs"}`))
	var made struct {
		Class      string `json:"class"`
		TeacherKey string `json:"teacher_key"`
	}
	if status != http.StatusCreated || json.Unmarshal(answer, &made) != nil {
		t.Fatalf("%s: making a class: %d %s", it.where(), status, answer)
	}
	s.classCode, s.teacherKey = made.Class, made.TeacherKey
}

// ensureEntry submits a small run to the board for a line that names ID or the owner key before any
// line of its page submitted one.
func (s *pageRun) ensureEntry(t *testing.T, it item) {
	if s.entryID != "" {
		return
	}
	out := filepath.Join(s.dir, "entry.jsonl")
	if _, stderr, code := runIn(t, s.dir, nil, nil, cli(t), "run", "--base-url", gold(t).URL(), "--model", "docs-model",
		"--level", "level-1-given-desc", "--limit", "3", "--out", out); code != 0 {
		t.Fatalf("%s: a run to submit: exit %d\n%s", it.where(), code, stderr)
	}
	stdout, stderr, code := runIn(t, s.dir, nil, nil, cli(t), "submit", out, "--board", server(t).url)
	id, key := entryLine.FindStringSubmatch(stdout), ownerLine.FindStringSubmatch(stdout)
	if code != 0 || id == nil || key == nil {
		t.Fatalf("%s: submitting a run: exit %d\n%s\n%s", it.where(), code, stdout, stderr)
	}
	s.entryID, s.ownerKey = id[1], key[1]
}

// Fixtures shared by every page: the built commands, the fake models, one server, gold predictions.
var (
	buildOnce          sync.Once
	apibankBin, srvBin string
	buildErr           error

	goldOnce, genOnce sync.Once
	goldSrv, genSrv   *fakemodel.Server
	goldErr, genErr   error

	serverOnce sync.Once
	mainServer *liveServer
	serverErr  error

	predsOnce sync.Once
	predsData []byte
	predsErr  error
)

// build builds the CLI (with `go install ./cmd/apibank`, as CLI.md shows) and the server once, and
// compiles the engine module into the test's cache. Then it starts the server the pages' curl lines
// use, so that it readies its engines while the pages run their first commands.
func build() {
	bin := filepath.Join(tmp, "bin")
	for _, args := range [][]string{{"install", "./cmd/apibank"}, {"build", "-o", bin + string(filepath.Separator), "./cmd/server"}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOBIN="+bin)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
	}
	apibankBin, srvBin = filepath.Join(bin, "apibank"), filepath.Join(bin, "server")
	// One first run compiles the module into the cache every later command reads.
	if exists(filepath.Join(repo, "web", "engine.wasm")) {
		cmd := exec.Command(apibankBin, "dataset", "stats", "--wasm", filepath.Join(repo, "web", "engine.wasm"))
		cmd.Env = cliEnv(nil)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("apibank dataset stats: %v\n%s", err, out)
			return
		}
		if exists(filepath.Join(repo, "web", "app.wasm")) {
			go serverOnce.Do(launchMain)
		}
	}
}

func cli(t *testing.T) string {
	t.Helper()
	buildOnce.Do(build)
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return apibankBin
}

func serverBin(t *testing.T) string {
	cli(t)
	return srvBin
}

// cliEnv is the environment of the commands the test runs: a home and a cache of the test's own, the
// fake model's key, and extra.
func cliEnv(extra map[string]string) []string {
	drop := map[string]bool{"HOME": true, "XDG_CACHE_HOME": true, "XDG_STATE_HOME": true, "APIBANK_WASM": true,
		"OPENAI_API_KEY": true, "APIBANK_OWNER_KEY": true, "KEY": true}
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !drop[name] {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+filepath.Join(tmp, "home"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"), "OPENAI_API_KEY="+fakeKey)
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// runIn runs a command in dir and returns its output and exit status.
func runIn(t *testing.T, dir string, env map[string]string, stdin []byte, bin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = cliEnv(env)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return stdout.String(), stderr.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", bin, err)
	}
	return stdout.String(), stderr.String(), 0
}

// goldSeeds are the variants of the builtin data the pages' runs ask: the robustness run's (seeds
// 1 to 3) and those run on a variant (seeds 7 and 42). A page that runs another one needs its seed here.
var goldSeeds = []int64{1, 2, 3, 7, 42}

// gold is the fake model answering every sample of the builtin data, and of its variants of
// goldSeeds, with its gold.
func gold(t *testing.T) *fakemodel.Server {
	goldOnce.Do(func() {
		m, err := goldmodel.Load("builtin", false)
		if err == nil {
			err = m.LearnVariants(goldSeeds)
		}
		if err != nil {
			goldErr = err
			return
		}
		if goldSrv, goldErr = fakemodel.Start(fakemodel.Script{Key: fakeKey}); goldErr == nil {
			goldSrv.SetOracle(m)
		}
	})
	if goldErr != nil {
		t.Fatal(goldErr)
	}
	return goldSrv
}

// generator is the fake model answering synthesis and judge requests.
func generator(t *testing.T) *fakemodel.Server {
	genOnce.Do(func() {
		genSrv, genErr = fakemodel.Start(fakemodel.Script{Key: fakeKey, Generator: &fakemodel.Generator{}})
	})
	if genErr != nil {
		t.Fatal(genErr)
	}
	return genSrv
}

// goldPreds are the gold model's predictions for the first samples of levels 1 and 2, as apibank run
// writes them.
func goldPreds(t *testing.T) []byte {
	bin, model := cli(t), gold(t)
	predsOnce.Do(func() {
		out := filepath.Join(tmp, "gold.jsonl")
		cmd := exec.Command(bin, "run", "--base-url", model.URL(), "--model", "docs-model", "--form", "native",
			"--level", "level-1-given-desc", "--level", "level-2-toolsearcher", "--limit", "4", "--out", out)
		cmd.Dir = tmp
		cmd.Env = cliEnv(nil)
		if b, err := cmd.CombinedOutput(); err != nil {
			predsErr = fmt.Errorf("apibank run: %v\n%s", err, b)
			return
		}
		predsData, predsErr = os.ReadFile(out)
	})
	if predsErr != nil {
		t.Fatal(predsErr)
	}
	return predsData
}

func goldLines(t *testing.T) []map[string]any {
	return jsonLines(t, "gold predictions", goldPreds(t))
}

// needWasm skips a command that needs the built modules when they are not there.
func needWasm(t *testing.T) {
	t.Helper()
	for _, f := range []string{"engine.wasm", "app.wasm"} {
		if !exists(filepath.Join(repo, "web", f)) {
			t.Skipf("web/%s is missing: run `make wasm app` first (make test does) to run the commands that need the server", f)
		}
	}
}

// liveServer is a cmd/server process.
type liveServer struct {
	url    string
	cmd    *exec.Cmd
	stderr *bytes.Buffer
}

func (l *liveServer) stop() {
	if l == nil || l.cmd.Process == nil {
		return
	}
	_ = l.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = l.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = l.cmd.Process.Kill()
		<-done
	}
}

// startServer runs cmd/server in dir with args, and returns once it serves pages (and, with api, once
// its API answers /healthz).
func startServer(t *testing.T, dir string, args []string, api bool) *liveServer {
	t.Helper()
	l, err := launchServer(serverBin(t), dir, args, api)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func launchServer(bin, dir string, args []string, api bool) (*liveServer, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = cliEnv(nil)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	l := &liveServer{cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = &syncWriter{w: l.stderr}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	announced := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), " at "); ok && strings.HasPrefix(u, "http") {
				select {
				case announced <- strings.TrimSuffix(strings.TrimSpace(u), "/"):
				default:
				}
			}
		}
	}()
	select {
	case l.url = <-announced:
	case <-time.After(60 * time.Second):
		l.stop()
		return nil, fmt.Errorf("cmd/server %v did not start in 60 s:\n%s", args, l.stderr)
	}
	if !api {
		return l, nil
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(l.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return l, nil
			}
		}
		if time.Now().After(deadline) {
			l.stop()
			return nil, fmt.Errorf("cmd/server %v: /healthz not ready in 60 s (%v)", args, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// server is the server the pages' curl lines and board commands talk to, with classes and a board.
func server(t *testing.T) *liveServer {
	t.Helper()
	needWasm(t)
	serverBin(t)
	serverOnce.Do(launchMain)
	if serverErr != nil {
		t.Fatal(serverErr)
	}
	return mainServer
}

func launchMain() {
	// One engine instance, and a request time limit for a test machine that runs the other packages'
	// tests beside this one: a page's submission re-scores a whole run, on a variant making it first.
	mainServer, serverErr = launchServer(srvBin, repo, []string{"--addr", "127.0.0.1:0", "--web", filepath.Join(repo, "web"),
		"--db", filepath.Join(tmp, "classes.db"), "--log", "json", "--api-instances", "1", "--api-timeout", "2m"}, true)
}

func stopFixtures() {
	serverOnce.Do(func() {}) // wait for a start under way

	mainServer.stop()
	if goldSrv != nil {
		goldSrv.Close()
	}
	if genSrv != nil {
		genSrv.Close()
	}
}
