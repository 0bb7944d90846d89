// Package boardtest makes the board's test inputs: whole runs of the builtin data played against
// the perfect model (testkit/goldmodel, served by testkit/fakemodel) and judged by an in-process
// engine, as a submission the board takes. The board's, the API's and the CLI's tests share them.
package boardtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// Engine is a transport to a new in-process engine session (the builtin data).
func Engine() protocol.Transport {
	s := engine.New()
	var mu sync.Mutex
	return func(ctx context.Context, req []byte) ([]byte, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		return s.Handle(req), nil
	}
}

type key struct {
	seed         int64
	form, levels string
}

var (
	mu    sync.Mutex
	cache = map[key]board.Submission{}
)

// Run is a whole run of levels (every level when none) in form against the perfect model, as a
// one-trial submission with the settings the run recorded. Runs are made once a test binary and
// shared (a caller changes its copy's Trials slice, never the string).
func Run(tb testing.TB, form string, levels ...string) board.Submission {
	tb.Helper()
	return RunOn(tb, 0, form, levels...)
}

// RunOn is Run on the variant of the builtin data that seed names (0: the builtin data itself), as
// `apibank run --seed` makes it: the engine holds the variant, the perfect model knows its golds,
// and the run records the seed and the variant's data hash.
func RunOn(tb testing.TB, seed int64, form string, levels ...string) board.Submission {
	tb.Helper()
	if len(levels) == 0 {
		levels = board.Levels
	}
	k := key{seed, form, fmt.Sprint(levels)}
	mu.Lock()
	defer mu.Unlock()
	if s, ok := cache[k]; ok {
		s.Trials = append([]board.Trial(nil), s.Trials...)
		return s
	}
	m, err := goldmodel.Load("builtin", false)
	if err != nil {
		tb.Fatal(err)
	}
	do := Engine()
	if seed != 0 {
		if err := m.LearnVariants([]int64{seed}); err != nil {
			tb.Fatal(err)
		}
		if err := board.Load(context.Background(), do, seed); err != nil {
			tb.Fatal(err)
		}
	}
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		tb.Fatal(err)
	}
	defer srv.Close()
	srv.SetOracle(m)
	settings := model.Settings{BaseURL: srv.URL(), Model: "perfect", Retries: -1}
	cfg := run.Config{Form: form, Levels: levels, Concurrency: 8}
	started := time.Now().UTC()
	res, err := run.Run(context.Background(), do, model.New(settings), cfg, run.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if len(res.Failures) > 0 {
		tb.Fatalf("the perfect model's run had %d failed requests: %+v", len(res.Failures), res.Failures[0])
	}
	hash, err := run.DataHash(context.Background(), do, levels, nil)
	if err != nil {
		tb.Fatal(err)
	}
	s := board.Submission{
		Format: board.Format,
		Run: board.RunInfo{Model: "perfect", Host: "127.0.0.1", Form: form, Levels: levels, Trials: 1,
			Started: started.Format(time.RFC3339), Ended: time.Now().UTC().Format(time.RFC3339), TokensIn: res.TokensIn, TokensOut: res.TokensOut,
			Encoder: run.EncoderVersion, DataHash: hash, Source: "cli", Seed: seed},
		Trials: []board.Trial{{Predictions: string(run.OutJSONL(res.Predictions, res.Episodes))}},
	}
	cache[k] = s
	s.Trials = append([]board.Trial(nil), s.Trials...)
	return s
}

// Worse is sub with every n-th answer of each trial made wrong: a prediction's answer replaced by a
// refusal, an episode's calls dropped (its model named "worse-N"). The lines stay as many.
func Worse(tb testing.TB, sub board.Submission, n int) board.Submission {
	tb.Helper()
	out := sub
	out.Run.Model = fmt.Sprintf("worse-%d", n)
	out.Trials = nil
	for _, tr := range sub.Trials {
		var b strings.Builder
		for i, l := range strings.Split(strings.TrimSuffix(tr.Predictions, "\n"), "\n") {
			if i%n == 0 {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					tb.Fatal(err)
				}
				if run.IsEpisodeLine([]byte(l)) {
					m["calls"] = []any{}
				} else {
					m["pred"] = "Sorry, I cannot help with that."
				}
				nb, _ := json.Marshal(m)
				l = string(nb)
			}
			b.WriteString(l)
			b.WriteByte('\n')
		}
		out.Trials = append(out.Trials, board.Trial{Predictions: b.String(), Failures: tr.Failures})
	}
	return out
}
