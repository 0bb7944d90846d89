//go:build !js

package model

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// netTransport sends through net/http: the command line, the server, the tests.
type netTransport struct{ client *http.Client }

func defaultTransport() Transport { return netTransport{client: &http.Client{}} }

// WithHTTPClient makes the client send through h instead of a plain http.Client (a host's
// transport, a test's). Its Timeout should be 0: the client bounds attempts itself.
func WithHTTPClient(h *http.Client) Option {
	return func(cl *Client) { cl.transport = netTransport{client: h} }
}

func (t netTransport) Send(ctx context.Context, r *HTTPRequest) (*HTTPResponse, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return nil, err
	}
	for _, h := range r.Header {
		req.Header.Set(h.Name, h.Value)
	}
	res, err := t.client.Do(req)
	if err != nil {
		return nil, err
	}
	return &HTTPResponse{Status: res.StatusCode, Header: res.Header, Body: res.Body}, nil
}
