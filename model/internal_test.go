package model

import (
	"context"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestProviderMessage(t *testing.T) {
	tests := []struct {
		body, msg, kind string
	}{
		{`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "Rate limit reached", "requests"},
		{`{"error":{"message":"Invalid key","code":"invalid_api_key"}}`, "Invalid key", "invalid_api_key"},
		{`{"error":{"message":"Upstream failed","code":502}}`, "Upstream failed", ""},
		{`{"error":"model 'x' not found"}`, "model 'x' not found", ""},
		{`{"message":"Not Found"}`, "Not Found", ""},
		{`{"detail":"Unauthorized"}`, "Unauthorized", ""},
		{`{"detail":[{"loc":["body","messages"],"msg":"field required"}]}`, `[{"loc":["body","messages"],"msg":"field required"}]`, ""},
		{"<html>\n  <body>502   Bad\tGateway</body></html>", "<html> <body>502 Bad Gateway</body></html>", ""},
		{"", "", ""},
		{strings.Repeat("x", 400), strings.Repeat("x", 300) + "…", ""},
	}
	for _, tt := range tests {
		msg, kind := providerMessage([]byte(tt.body))
		if msg != tt.msg || kind != tt.kind {
			t.Errorf("providerMessage(%.40q) = %q, %q; want %q, %q", tt.body, msg, kind, tt.msg, tt.kind)
		}
	}
}

// canned answers every request with a canned body, through the Transport interface.
type canned struct {
	status int
	body   string
}

func (r canned) Send(context.Context, *HTTPRequest) (*HTTPResponse, error) {
	return &HTTPResponse{Status: r.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(r.body))}, nil
}

// instant is a clock whose waits take no time.
type instant struct{}

func (instant) Now() time.Time                                   { return time.Unix(0, 0) }
func (instant) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// checkCanned has a client with settings s read body, answered once with 200, and checks the
// response it makes of it (want, one attempt) or its error (one starting with wantErr).
func checkCanned(t *testing.T, s Settings, body string, want Response, wantErr string) {
	t.Helper()
	c := New(s, WithTransport(canned{status: 200, body: body}), WithClock(instant{}))
	got, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}})
	if wantErr != "" {
		if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
			t.Fatalf("error %v, want %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	want.Attempts = 1
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
