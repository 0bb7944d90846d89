package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/run"
)

// ownerKeyEnv is where `apibank retract` reads an entry's owner key: never from a flag, which
// would leave it in the shell's history and the process list.
const ownerKeyEnv = "APIBANK_OWNER_KEY"

// cmdSubmit sends a run to a board: its predictions file(s) as the run wrote them and the settings
// the run recorded beside them (run.RecordPath). The board judges it again and answers the entry;
// the owner key is printed once.
func cmdSubmit(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("submit", flag.ContinueOnError)
	boardURL := fs.String("board", "", "the board's site (https://demo.example.com) or its API (.../api/v1/board)")
	asJSON := fs.Bool("json", false, "print the board's answer as JSON")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long to wait for the board's answer")
	files, err := parseFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || *boardURL == "" {
		return usageError("submit needs RUN.jsonl (as run --out wrote it) and --board URL")
	}
	endpoint, err := boardEndpoint(*boardURL)
	if err != nil {
		return usageError("submit: %v", err)
	}
	sub, files, err := readSubmission(files[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return errBadInput
	}
	body, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: *timeout}
	resp, err := client.Post(endpoint, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("submit: reading the board's answer: %w", err)
	}
	if resp.StatusCode != http.StatusCreated {
		fmt.Fprintln(stderr, boardRefusal(resp, answer, files))
		return errBadInput
	}
	var made board.Submitted
	if err := json.Unmarshal(answer, &made); err != nil {
		return fmt.Errorf("submit: the board's answer: %w", err)
	}
	if *asJSON {
		stdout.Write(answer)
		return nil
	}
	e := made.Entry
	fmt.Fprintf(stdout, "entry %s: %s, %s form, made on %s, judged on it by engine %s (data %s)\n", e.ID, e.Run.Model, e.Run.Form, board.DataWordsFor(e.Seed, made.Season), e.Engine, e.Data)
	for _, l := range append(e.Score.Levels, e.Score.Overall) {
		name := l.Level
		if name == "" {
			name = "overall"
		}
		fmt.Fprintf(stdout, "  %-22s %6.1f%% (95%% %.1f–%.1f%%) of %d", name, 100*l.Accuracy, 100*l.Low, 100*l.High, l.Judged)
		if l.Replies > 0 {
			fmt.Fprintf(stdout, ", ROUGE-L %.3f", l.RougeL)
		}
		if l.Special > 0 {
			fmt.Fprintf(stdout, ", special %d/%d", l.SpecialRight, l.Special)
		}
		if l.Episodes > 0 {
			fmt.Fprintf(stdout, ", level-3 success %d/%d, milestone credit %.3f", l.Successes, l.Episodes, l.Milestone)
		}
		fmt.Fprintln(stdout)
	}
	switch {
	case e.Seed != made.Season:
		how := "apibank run without --seed"
		if made.Season != 0 {
			how = fmt.Sprintf("apibank run --seed %d", made.Season)
		}
		fmt.Fprintf(stdout, "the board ranks %s: the entry is listed apart, not ranked (%s makes a run it ranks)\n", board.DataWords(made.Season), how)
	case !e.Score.Complete:
		fmt.Fprintf(stdout, "partial: %d tasks missing, so the entry is listed but not ranked\n", e.Score.Missing)
	case !e.RunData:
		fmt.Fprintln(stdout, "the run saw other data than the board's: the entry is listed apart, not ranked")
	}
	fmt.Fprintf(stdout, "on the board: %s\n", entryPage(endpoint, e.ID))
	fmt.Fprintf(stdout, "owner key (shown once; the board keeps only its hash; %s=KEY apibank retract %s --board ... retracts the entry):\n%s\n", ownerKeyEnv, e.ID, made.OwnerKey)
	return nil
}

// cmdRetract retracts a board entry with its owner key, read from $APIBANK_OWNER_KEY.
func cmdRetract(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("retract", flag.ContinueOnError)
	boardURL := fs.String("board", "", "the board's site or its API (.../api/v1/board)")
	ids, err := parseFiles(fs, args)
	if err != nil {
		return err
	}
	if len(ids) != 1 || *boardURL == "" || !board.ValidID(ids[0]) {
		return usageError("retract needs an entry's id (12 hex digits) and --board URL, the owner key in $%s", ownerKeyEnv)
	}
	key := strings.TrimSpace(os.Getenv(ownerKeyEnv))
	if key == "" {
		return usageError("retract: set $%s to the entry's owner key (printed once by submit)", ownerKeyEnv)
	}
	endpoint, err := boardEndpoint(*boardURL)
	if err != nil {
		return usageError("retract: %v", err)
	}
	req, err := http.NewRequest(http.MethodDelete, endpoint+"/"+ids[0], nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return fmt.Errorf("retract: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(stderr, boardRefusal(resp, answer, nil))
		return errBadInput
	}
	fmt.Fprintf(stdout, "entry %s retracted: it stays listed as retracted\n", ids[0])
	return nil
}

// boardEndpoint is the board API's URL for what the user gave: a site (its /api/v1/board added)
// or the API itself.
func boardEndpoint(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--board %q: an http(s) URL of a board's site", raw)
	}
	u.RawQuery, u.Fragment = "", ""
	path := strings.TrimSuffix(u.Path, "/")
	if !strings.HasSuffix(path, "/api/v1/board") {
		path += "/api/v1/board"
	}
	u.Path = path
	return u.String(), nil
}

// entryPage is the board page's address of an entry.
func entryPage(endpoint, id string) string {
	return strings.TrimSuffix(endpoint, "/api/v1/board") + "/board#" + id
}

// readSubmission reads the run whose predictions file is out: its record (run.RecordPath) and every
// trial's predictions file the record names, in its folder. files are the trials' paths, to name
// them in a refusal.
func readSubmission(out string) (board.Submission, []string, error) {
	recPath := run.RecordPath(out)
	raw, err := os.ReadFile(recPath)
	if errors.Is(err, os.ErrNotExist) {
		return board.Submission{}, nil, fmt.Errorf("%s: no run record beside it (%s): a board takes runs as apibank run writes them, with their settings", out, recPath)
	}
	if err != nil {
		return board.Submission{}, nil, err
	}
	var rec run.Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return board.Submission{}, nil, fmt.Errorf("%s: not a run record: %v", recPath, err)
	}
	if rec.Format != run.RecordFormat {
		return board.Submission{}, nil, fmt.Errorf("%s: format %q, want %q", recPath, rec.Format, run.RecordFormat)
	}
	if rec.Run.Source == run.SourceBatch {
		// As the Runs page refuses a batch run: the board would refuse its lines, less clearly.
		return board.Submission{}, nil, fmt.Errorf("%s: a batch run's record (apibank batch score): its level 3 is step samples, and the board judges whole level-3 episodes; submit a run made with apibank run instead", recPath)
	}
	sub := board.Submission{Format: board.Format, Run: rec.Run}
	var files []string
	for i, t := range rec.Trials {
		if t.File == "" || filepath.Base(t.File) != t.File {
			return board.Submission{}, nil, fmt.Errorf("%s: trial %d names %q, not a file beside the record", recPath, i+1, t.File)
		}
		path := filepath.Join(filepath.Dir(recPath), t.File)
		b, err := os.ReadFile(path)
		if err != nil {
			return board.Submission{}, nil, fmt.Errorf("%s: trial %d: %w", recPath, i+1, err)
		}
		sub.Trials = append(sub.Trials, board.Trial{Predictions: string(b), Failures: t.Failures})
		files = append(files, path)
	}
	return sub, files, nil
}

// boardRefusal says why the board refused: its message, at file:line when it names a trial's line,
// and when to try again after a 429.
func boardRefusal(resp *http.Response, body []byte, files []string) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
			Line    int    `json:"line"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	where := "the board"
	var trial int
	if _, err := fmt.Sscanf(msg, "trial %d", &trial); err == nil && trial >= 1 && trial <= len(files) {
		where = files[trial-1]
		if e.Error.Line > 0 {
			where = fmt.Sprintf("%s:%d", where, e.Error.Line)
		}
	}
	s := fmt.Sprintf("%s: %s (HTTP %d)", where, msg, resp.StatusCode)
	if ra := resp.Header.Get("Retry-After"); ra != "" && resp.StatusCode == http.StatusTooManyRequests {
		s += fmt.Sprintf("; the board takes more from this address in %s s", ra)
	}
	return s
}
