package run_test

import (
	"context"
	"fmt"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// A model evaluated end to end, in-process: the engine (package engine, the same code as
// web/engine.wasm) gives the samples and their prompts and judges the answers; the model is the
// tests' perfect one (testkit/goldmodel: it answers each sample's gold), served as an
// OpenAI-compatible endpoint on loopback by testkit/fakemodel. A real endpoint only changes the
// model.Settings (BaseURL, APIKey, Model).
func Example() {
	s := engine.New()
	var do protocol.Transport = func(_ context.Context, req []byte) ([]byte, error) { return s.Handle(req), nil }

	perfect, err := goldmodel.Load("builtin", false)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	srv.SetOracle(perfect)
	chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "perfect"})

	cfg := run.Config{Form: run.Native, Levels: []string{"level-1-given-desc", run.Level3}, Limit: 6}
	res, err := run.Run(context.Background(), do, chat, cfg, run.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	o := res.Batch.Report.Overall
	fmt.Printf("%d predictions: %d of %d calls right, ROUGE-L %.2f over %d replies\n", len(res.Predictions), o.Correct, o.Calls, o.RougeL, o.Replies)
	ep := run.SumEpisodes(res.Episodes)
	fmt.Printf("%d level-3 episodes: %d succeeded, %d reached the gold world, recall %.2f\n", ep.Episodes, ep.Success, ep.WorldMatch, ep.Recall)
	// Output:
	// 6 predictions: 3 of 3 calls right, ROUGE-L 1.00 over 3 replies
	// 6 level-3 episodes: 6 succeeded, 6 reached the gold world, recall 1.00
}
