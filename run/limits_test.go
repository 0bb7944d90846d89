package run

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// TestCutAnswersAreJudgedWrong: a model that answers the gold, but past the size limit, gets
// every sample judged wrong, each prediction marked with the limit and empty, the responses kept as
// their head only, and the count of cut answers with the limit in the result.
func TestCutAnswersAreJudgedWrong(t *testing.T) {
	gm, err := goldmodel.LoadWith("builtin", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The perfect model's answers, each padded past the cap by a long tail of spaces: whole, each
	// would be right.
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.SetOracle(padded{gm, 8 << 10})
	const limit = 4 << 10
	chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "m", MaxResponseBytes: limit, Retries: -1})
	cfg := Config{Levels: []string{"level-1-given-desc"}, Limit: 6}
	res, err := Run(context.Background(), native(), chat, cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Predictions) != 6 || len(res.Failures) != 0 {
		t.Fatalf("%d predictions, %d failures", len(res.Predictions), len(res.Failures))
	}
	for _, p := range res.Predictions {
		if p.Cut == nil || p.Cut.By != model.CutSize || p.Cut.Limit != "4096 bytes" || p.Pred != "" {
			t.Errorf("prediction %+v: want an empty pred cut at 4096 bytes", p)
		}
	}
	for k, r := range res.Responses {
		if !r.Truncated || len(r.Content) > KeptHead {
			t.Errorf("%s: kept %d bytes of a cut answer (truncated %v), want at most %d", k, len(r.Content), r.Truncated, KeptHead)
		}
	}
	if res.Cut.Size != 6 || res.Cut.SizeLimit != "4096 bytes" || res.Cut.Timeout != 0 {
		t.Errorf("cut count %+v", res.Cut)
	}
	o := res.Batch.Report.Overall
	if o.Correct != 0 || o.Calls == 0 {
		t.Errorf("report %d of %d calls right: cut answers must be judged wrong", o.Correct, o.Calls)
	}
	if !bytes.Contains(OutJSONL(res.Predictions, nil), []byte(`"cut":{"by":"size","limit":"4096 bytes"}`)) {
		t.Error("the predictions file does not mark the cut")
	}

	// The same answers under the cap are right: the cut, not the answers, made them wrong.
	whole := model.New(model.Settings{BaseURL: srv.URL(), Model: "m", Retries: -1})
	res, err = Run(context.Background(), native(), whole, cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Batch.Report.Overall; o.Correct != o.Calls || res.Cut != (CutCount{}) {
		t.Errorf("whole answers: %d of %d right, cut %+v", o.Correct, o.Calls, res.Cut)
	}
}

// padded answers as its oracle does, with n spaces after the text of every reply.
type padded struct {
	fakemodel.Oracle
	n int
}

func (p padded) Answer(req *fakemodel.ChatRequest) (fakemodel.Reply, *fakemodel.Fault, string, bool) {
	r, f, kind, ok := p.Oracle.Answer(req)
	r.Content += strings.Repeat(" ", p.n)
	return r, f, kind, ok
}

// TestOutWritesWhatItWouldKeep: with Options.Out, a run writes the very bytes OutJSONL makes of
// what it keeps without it, judges them to the same report, and keeps none of them; a hostile
// model's run included (answers cut, dropped, trickling, nested deep).
func TestOutWritesWhatItWouldKeep(t *testing.T) {
	gm, err := goldmodel.LoadWith("builtin", goldmodel.Hostile)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.SetOracle(gm)
	for _, form := range []string{Text, Native} {
		chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "m", Retries: -1, Timeout: 3 * time.Second})
		cfg := Config{Form: form, Limit: 5, Concurrency: 8}
		kept, err := Run(context.Background(), native(), chat, cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		streamed, err := Run(context.Background(), native(), chat, cfg, Options{Out: &out})
		if err != nil {
			t.Fatal(err)
		}
		if want := OutJSONL(kept.Predictions, kept.Episodes); !bytes.Equal(out.Bytes(), want) {
			t.Errorf("%s: Out wrote %d bytes, OutJSONL of the kept run is %d", form, out.Len(), len(want))
		}
		if len(streamed.Predictions) != 0 || len(streamed.Responses) != 0 || len(streamed.Episodes) != len(kept.Episodes) {
			t.Errorf("%s: with Out the run kept %d predictions, %d responses, %d episodes", form, len(streamed.Predictions), len(streamed.Responses), len(streamed.Episodes))
		}
		for _, ep := range streamed.Episodes {
			if len(ep.Transcript) != 0 || len(ep.Calls) != 0 {
				t.Errorf("%s: an episode kept its transcript", form)
			}
		}
		if kept.Batch == nil || streamed.Batch == nil {
			t.Fatalf("%s: no batch", form)
		}
		if kept.Batch.Report.Overall != streamed.Batch.Report.Overall || len(kept.Batch.Results) != len(streamed.Batch.Results) || kept.Cut != streamed.Cut {
			t.Errorf("%s: reports differ: %+v / %+v, cut %+v / %+v", form, kept.Batch.Report.Overall, streamed.Batch.Report.Overall, kept.Cut, streamed.Cut)
		}
		if kept.Cut.Size == 0 || kept.Cut.Timeout == 0 {
			t.Errorf("%s: the hostile model's huge and trickling answers were not cut: %+v", form, kept.Cut)
		}
	}
}
