package tools

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// The original's receiver pattern, with Python's Unicode \w; validEmail must agree with it.
var emailRef = regexp.MustCompile(`^[a-z0-9]+[._]?[a-z0-9]+@[\p{L}\p{N}_]+\.[\p{L}\p{N}_]{2,3}$`)

func TestValidEmailMatchesPattern(t *testing.T) {
	fixed := []string{"a@b.com", "ab@b.com", "a.b@c.org", "a_b@c.io", "a..b@c.com", ".ab@c.com", "ab.@c.com",
		"ab@c.comm", "ab@c.d.com", "Ab@c.com", "ab@ü.de", "ab@c.１２", "a-b@c.com", "ab@@c.com", "", "ab@.com", "ab@c.", "a.b.c@d.com"}
	for _, s := range fixed {
		if got, want := validEmail(s), emailRef.MatchString(s); got != want {
			t.Errorf("validEmail(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab0._@-.Zé１")
	for i := 0; i < 200000; i++ {
		n := r.IntN(10)
		b := make([]rune, n)
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		if got, want := validEmail(s), emailRef.MatchString(s); got != want {
			t.Fatalf("validEmail(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}

func TestHomeSendEmail(t *testing.T) {
	for _, s := range []homeStep{
		{tool: "SendEmail", args: `{"receiver": " john@example.com ", "subject": "Hi", "content": "Body"}`, out: `"success"`},
		{tool: "SendEmail", args: `{"receiver": "john.doe@example.org", "subject": "Hi", "content": "Body"}`, out: `"success"`},
		{tool: "SendEmail", args: `{"receiver": "jo_hn@exämple.com", "subject": "Hi", "content": "Body"}`, out: `"success"`},
		{tool: "SendEmail", args: `{"receiver": "John@example.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "a@b.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "john@mail.example.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "john@example.info", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "jo-hn@example.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "john@example.com", "subject": " ", "content": "Body"}`, exc: "Subject cannot be empty."},
		{tool: "SendEmail", args: `{"receiver": "john@example.com", "subject": "Hi", "content": ""}`, exc: "Content cannot be empty."},
		{tool: "SendEmail", args: `{"receiver": "john@example.com", "subject": 1, "content": ""}`, exc: "'int' object has no attribute 'strip'"},
	} {
		homeRun(t, s)
	}
	homeChecks(t, []homeCheckCase{
		{name: "email normalised", tool: "SendEmail", resp: `{"input": {"receiver": " John@Example.com", "subject": "Hi ", "content": " Body"}, "output": "success", "exception": null}`,
			gold: `{"input": {"receiver": "john@example.com", "subject": "Hi", "content": "Body"}, "output": "success", "exception": null}`, want: true},
		{name: "email content", tool: "SendEmail", resp: `{"input": {"receiver": "john@example.com", "subject": "Hi", "content": "Don"}, "output": "success", "exception": null}`,
			gold: `{"input": {"receiver": "john@example.com", "subject": "Hi", "content": "Don't"}, "output": "success", "exception": null}`, want: false},
		{name: "email missing content", tool: "SendEmail", resp: `{"input": {"receiver": "a", "subject": "b"}, "output": null, "exception": null}`,
			gold: `{"input": {"receiver": "x", "subject": "y", "content": "z"}, "output": null, "exception": null}`, errKind: Key, errText: "'content'"},
	})
}
