package model_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// BenchmarkChat measures one request's round trip against the fake on loopback, plain and
// streamed (a tool call whose arguments arrive in five-byte pieces), four at a time as a run sends.
func BenchmarkChat(b *testing.B) {
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{
		{Name: "QueryMeeting", Arguments: json.RawMessage(`{"meeting_topic":"Sales review","start_time":"2023-03-14 10:00:00"}`)},
	}}}}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	for _, stream := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "stream"}[stream], func(b *testing.B) {
			c := model.New(model.Settings{BaseURL: srv.URL(), Model: "m", Stream: stream})
			req := model.Request{Messages: user("Find the sales review meeting.")}
			b.SetParallelism(2) // with GOMAXPROCS 2: four goroutines
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.Chat(context.Background(), req); err != nil {
						b.Error(err)
						return
					}
				}
			})
			srv.Reset() // the record would grow with b.N
		})
	}
}
