package model

import (
	"context"
	"io"
	"strconv"
	"time"
)

// Transport sends one HTTP request and returns the answer as it starts to arrive: the body is
// read as it comes (a streamed answer is read event by event) and closed by the client.
//
// The client speaks HTTP through this small interface rather than net/http's Client so that the
// browser build stays small: in the tab it is a few calls of the page's fetch (see
// transport_js.go), natively it is net/http (transport_net.go). net/http's Client alone adds about
// 5 MB to a GOOS=js binary, nearly half of the app's size budget (RATIONALE.md).
type Transport interface {
	// Send makes the request and returns once the status and headers are in, or fails without an
	// answer (no connection, a refused cross-origin request, ctx ending). When ctx ends while the
	// body is being read, reading fails.
	Send(ctx context.Context, r *HTTPRequest) (*HTTPResponse, error)
}

// HTTPRequest is one request a Client sends.
type HTTPRequest struct {
	Method string
	URL    string
	Header []HeaderField // in the order set; names as written
	Body   []byte        // nil for none
}

// HeaderField is one request header.
type HeaderField struct{ Name, Value string }

// HTTPResponse is the start of an answer: its status and headers, and the body still to read.
type HTTPResponse struct {
	Status int
	Header HeaderReader
	Body   io.ReadCloser
}

// HeaderReader gives a response header's value by name (any case), "" when it is absent.
// net/http's Header satisfies it.
type HeaderReader interface {
	Get(name string) string
}

// WithTransport makes the client send through t (a host's own transport, a test's).
func WithTransport(t Transport) Option { return func(cl *Client) { cl.transport = t } }

// httpDate reads an HTTP date in the three forms HTTP allows (RFC 9110, section 5.6.7).
func httpDate(v string) (time.Time, bool) {
	for _, layout := range []string{
		"Mon, 02 Jan 2006 15:04:05 GMT",
		"Monday, 02-Jan-06 15:04:05 GMT",
		"Mon Jan _2 15:04:05 2006",
	} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// statusText names the statuses endpoints answer with, for an error answer without a message.
func statusText(status int) string {
	switch status {
	case 400:
		return "Bad Request"
	case 401:
		return "Unauthorized"
	case 402:
		return "Payment Required"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 408:
		return "Request Timeout"
	case 409:
		return "Conflict"
	case 413:
		return "Content Too Large"
	case 422:
		return "Unprocessable Content"
	case 429:
		return "Too Many Requests"
	case 500:
		return "Internal Server Error"
	case 502:
		return "Bad Gateway"
	case 503:
		return "Service Unavailable"
	case 504:
		return "Gateway Timeout"
	}
	return "HTTP status " + strconv.Itoa(status)
}

// DefaultTransport is the platform's transport: the page's fetch in the browser tab, net/http
// natively. Other clients of the tab (the class API's) send through it too, for the same reason.
func DefaultTransport() Transport { return defaultTransport() }
