package model

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Error is a request that failed for good: after its retries, or at once when retrying could not
// help (a 4xx other than 408, 409 and 429, an answer that is not valid JSON). It is a failure of the
// endpoint, not an answer of the model: a run lists it apart and may try it again later.
//
// Nothing in an Error holds the API key: every text it carries is scrubbed of it, whatever the
// provider echoed.
type Error struct {
	// Status is the HTTP status of the last attempt; 0 when no answer came (a network error or a
	// timeout).
	Status int `json:"status"`
	// Message is the provider's message ({"error":{"message"}}) or, without one, what went wrong.
	Message string `json:"message"`
	// Type is the provider's error type or code when it gave one, e.g. "rate_limit_exceeded".
	Type string `json:"type,omitempty"`
	// Host is the endpoint's host (never a URL with credentials in it).
	Host string `json:"host"`
	// Attempts is how many requests were made.
	Attempts int `json:"attempts"`

	cause     error
	unreached bool
}

// Error says what failed, where and after how many attempts.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("model: ")
	if e.Host == "" { // the settings were refused before any request
		b.WriteString(e.Message)
		return b.String()
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d from %s", e.Status, e.Host)
	} else {
		fmt.Fprintf(&b, "no answer from %s", e.Host)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Type != "" {
		fmt.Fprintf(&b, " (%s)", e.Type)
	}
	return b.String()
}

// Unwrap gives the underlying failure for errors.Is (a timeout is context.DeadlineExceeded); its
// text is scrubbed of the key like the rest.
func (e *Error) Unwrap() error { return e.cause }

// Temporary says whether trying the request again later may succeed (a rate limit, a server error,
// no answer); a run offers to retry those.
func (e *Error) Temporary() bool { return retryableStatus(e.Status) || e.Status == 0 }

// Unreached says the endpoint was not reached: the last attempt got no HTTP answer at all, and not
// for want of time (a refused connection, an unknown host, a failed TLS handshake, a fetch the
// browser refused). Unlike a timeout or an answer broken off, it says nothing was listening there;
// a run stops asking once its first requests all end so (see run.Run).
func (e *Error) Unreached() bool { return e.unreached }

// scrubbed is an error whose text had the key removed; errors.Is still sees the original.
type scrubbed struct {
	text string
	err  error
}

func (s scrubbed) Error() string        { return s.text }
func (s scrubbed) Is(target error) bool { return errors.Is(s.err, target) }

// scrubErr wraps err so that its text no longer holds the secrets.
func scrubErr(err error, secrets []string) error { return scrubbed{redact(err.Error(), secrets), err} }

// redactedKey replaces a secret wherever it occurs in text.
const redactedKey = "[api key]"

// secrets are the texts no error may show: the API key, and the values of extra headers whose
// names say they hold one (api-key, x-api-key, Authorization, ...), as some gateways want.
func (s Settings) secrets() []string {
	var out []string
	if s.APIKey != "" {
		out = append(out, s.APIKey)
	}
	for k, v := range s.Headers {
		name := strings.ToLower(k)
		if v != "" && (strings.Contains(name, "key") || strings.Contains(name, "token") || strings.Contains(name, "auth")) {
			out = append(out, strings.TrimPrefix(v, "Bearer "))
		}
	}
	return out
}

// redact removes the secrets from text: as they are, URL-escaped (as a URL in a network error
// shows them), and in any letter case (URL parsing lowers some parts).
func redact(text string, secrets []string) string {
	for _, key := range secrets {
		for _, k := range []string{key, url.QueryEscape(key), url.PathEscape(key)} {
			text = replaceFold(text, k)
		}
	}
	return text
}

// replaceFold replaces every ASCII-case-insensitive occurrence of k in text by redactedKey.
func replaceFold(text, k string) string {
	lower, lk := strings.ToLower(text), strings.ToLower(k)
	if len(lower) != len(text) || len(lk) != len(k) { // non-ASCII case mapping changed lengths
		return strings.ReplaceAll(text, k, redactedKey)
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, lk)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		b.WriteString(redactedKey)
		text, lower = text[i+len(k):], lower[i+len(k):]
	}
}

// retryableStatus says whether a status is worth another attempt: 408 (timeout), 409 (conflict,
// e.g. a model still loading), 429 (rate limit) and any 5xx.
func retryableStatus(status int) bool {
	return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599)
}
