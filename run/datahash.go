package run

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"

	"github.com/apibank-playground/apibank/protocol"
)

// EncoderVersion is the version of the prompts a run sends (Request, Body, Tools): raised when a
// change makes any sample's request body differ, so that a run's record says which prompts its
// model answered.
const EncoderVersion = 2

// DataHash is a short hash of the samples of levels as the engine behind do lists them (the samples
// op's answers, level after level): two runs with the same hash saw the same samples. The tab, the
// CLI and the board compute it alike. write, when not nil, writes an answer into the hash in its
// own way (the tab in steps, giving its page a turn between them).
//
// The samples of a variant of the builtin data are the builtin's (the same files, ids and tools):
// its digest, which the engine's hello names, goes into the hash first, so that every variant has a
// hash of its own and the builtin data keeps the one it had.
func DataHash(ctx context.Context, do protocol.Transport, levels []string, write func(h hash.Hash, b []byte)) (string, error) {
	h := sha256.New()
	hello, err := protocol.Call[protocol.Hello](ctx, do, protocol.Request{Op: protocol.OpHello})
	if err != nil {
		return "", err
	}
	if hello.Variant != nil {
		h.Write([]byte("variant " + hello.Variant.Digest + "\n"))
	}
	for _, l := range levels {
		req, err := protocol.Encode(protocol.Request{Op: protocol.OpSamples, Level: l})
		if err != nil {
			return "", err
		}
		resp, err := do(ctx, req)
		if err != nil {
			return "", err
		}
		if write != nil {
			write(h, resp)
		} else {
			h.Write(resp)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
