package protocol_test

import (
	"context"
	"fmt"

	"github.com/apibank-playground/apibank/protocol"
)

// A host calls the engine through any transport: here a stand-in that answers one rouge request the
// way the engine does. Real hosts pass the wazero session's Handle, the in-process engine's, or the
// browser worker's.
func ExampleCall() {
	engine := func(_ context.Context, req []byte) ([]byte, error) {
		return []byte(`{"v":1,"ok":true,"result":[{"f":0.7999999950000002}]}`), nil
	}
	scores, err := protocol.Call[[]protocol.Rouge](context.Background(), engine, protocol.Request{
		Op:    protocol.OpRouge,
		Pairs: []protocol.Pair{{Ref: "the cat is on the mat", Hyp: "the cat sat on the mat"}},
	})
	fmt.Printf("%.4f %v\n", *scores[0].F, err)
	// Output: 0.8000 <nil>
}
