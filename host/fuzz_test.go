package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// Steps of a FuzzSession input, which is a sequence of steps separated by NUL bytes: an engine
// request, or one of these, which kill the instance the way a host meets it dying.
const (
	stepTrap  = "\x01" // the module traps (an allocation past its 4 GiB makes its runtime abort)
	stepClose = "\x02" // the owner closes the session and then, by mistake, keeps using it
)

// FuzzSession drives the real engine under wazero with sequences of requests, traps and closes, as an
// owner does: every answer of a live session is one protocol response (its first line for the lines
// form) and never an internal error; once the instance is dead every call answers ErrSessionDead
// (the process never crashes), and the owner's fresh session answers normally.
func FuzzSession(f *testing.F) {
	for _, seed := range []string{
		`{"v":1,"op":"hello"}`,
		`{"v":1,"op":"score_start"}` + "\x00" + `{"v":1,"op":"score_lines","stream":1,"lines":"{\"file\":\"x\",\"id\":0,\"pred\":\"[A(b='c')]\"}\n{bad"}` + "\x00" + `{"v":1,"op":"score_finish","stream":1}`,
		`{"v":1,"op":"score_start"}` + "\x00" + stepTrap + "\x00" + `{"v":1,"op":"score_lines","stream":1,"lines":""}`,
		`{"v":1,"op":"rouge_lines","lines":"{\"ref\":\"a b\",\"hyp\":\"a\"}\r{\"ref\":1}","line":7}`,
		`{"v":1,"op":"call","call":"[Calculator(formula='` + string(bytes.Repeat([]byte("9"), 200_000)) + `+1')]"}`,
		stepTrap + "\x00" + `{"v":1,"op":"hello"}` + "\x00" + stepTrap,
		stepClose + "\x00" + `{"v":1,"op":"score","preds":""}`,
		`{"v":1,"op":"replay","form":"xml"}` + "\x00" + `{"v":2,"op":"hello"}` + "\x00" + `[]`,
		`{"v":1,"op":"call","call":"[GetToday()]"}` + "\x00" + stepTrap + "\x00" + stepClose + "\x00" + `{"v":1,"op":"world"}`,
	} {
		f.Add([]byte(seed))
	}
	ctx := context.Background()
	rt, err := New(ctx, loadWasm(f), Config{})
	if err != nil {
		f.Fatal(err)
	}
	defer rt.Close(ctx)
	var s *Session
	fresh := func(t *testing.T) {
		if s != nil {
			_ = s.Close(ctx)
		}
		if s, err = rt.NewSession(ctx); err != nil {
			t.Fatalf("a fresh session: %v", err)
		}
		if out, err := s.Handle(ctx, []byte(`{"v":1,"op":"hello"}`)); err != nil {
			t.Fatalf("hello to a fresh session: %v", err)
		} else {
			checkResponse(t, []byte(`hello`), out)
		}
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		if s == nil || s.Err() != nil {
			fresh(t)
		}
		for _, step := range bytes.Split(input, []byte{0}) {
			dead := false
			switch string(step) {
			case stepTrap:
				_, err := s.call(ctx, s.alloc, "alloc", 0xffff_ff00)
				if !errors.Is(err, ErrSessionDead) {
					t.Fatalf("a huge alloc did not kill the session: %v", err)
				}
				dead = true
			case stepClose:
				if err := s.Close(ctx); err != nil {
					t.Fatalf("close: %v", err)
				}
				dead = true
			default:
				out, err := s.Handle(ctx, step)
				switch {
				case errors.Is(err, ErrSessionDead):
					dead = true // the request itself was too much for the instance: the host survives
				case err != nil:
					t.Fatalf("%.200q: an error that is not ErrSessionDead: %v", step, err)
				default:
					checkResponse(t, step, out)
				}
			}
			if dead {
				for range 2 {
					if _, err := s.Handle(ctx, []byte(`{"v":1,"op":"hello"}`)); !errors.Is(err, ErrSessionDead) {
						t.Fatalf("a dead session answered: %v", err)
					}
				}
				fresh(t)
			}
		}
	})
}

// checkResponse fails unless out is one protocol response (the envelope line of the lines form)
// that is not an internal error.
func checkResponse(t *testing.T, req, out []byte) {
	t.Helper()
	head := out
	if i := bytes.IndexByte(out, '\n'); i >= 0 {
		head = out[:i]
	}
	var r protocol.Response
	if err := json.Unmarshal(head, &r); err != nil {
		t.Fatalf("%.200q: the answer is not a protocol response: %v\n%.300s", req, err, out)
	}
	if r.V != protocol.Version || r.OK == (r.Error != nil) {
		t.Fatalf("%.200q: malformed response %.300s", req, out)
	}
	if r.Error != nil && r.Error.Code == protocol.CodeInternal {
		t.Fatalf("%.200q: internal error: %s", req, r.Error.Message)
	}
}
