package serve

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ModelEndpoints are the connect-src sources that let the tab (and its workers) reach the model
// endpoint a user chooses: any HTTPS host, and plain HTTP on the loopback names a local server
// (llama.cpp, Ollama, vLLM, LM Studio) listens on, at any port. CSP cannot name IPv6 literals, so
// http://[::1] is not in it; a LAN host over plain HTTP is refused on purpose (the key would cross the
// network in clear).
var ModelEndpoints = []string{"https:", "http://localhost:*", "http://127.0.0.1:*"}

// ContentSecurityPolicy is the policy of every response. Everything is same-origin except
// connect-src (ModelEndpoints). Scripts: our files, the WebAssembly modules ('wasm-unsafe-eval'
// allows compiling wasm and nothing else: no eval, no new Function) and the inline scripts whose
// SHA-256 are in scriptHashes (ScriptHash). No inline styles, no plugins, no media, no frames, no
// <base>, and no page may frame ours. Every directive is one that Chromium, Firefox and WebKit all
// know (UnderstoodDirectives): the web app manifest is allowed by default-src 'self', not by
// manifest-src, which WebKit does not know and reports on every page.
func ContentSecurityPolicy(scriptHashes ...string) string {
	return ContentSecurityPolicyAllowing(nil, scriptHashes...)
}

// ContentSecurityPolicyAllowing is ContentSecurityPolicy whose connect-src also allows the origins
// in endpoints (EndpointOrigin's sources): the model endpoints a server's operator named, such as a
// plain-HTTP server on the LAN that ModelEndpoints leaves out.
func ContentSecurityPolicyAllowing(endpoints []string, scriptHashes ...string) string {
	script := append([]string{"'self'", "'wasm-unsafe-eval'"}, scriptHashes...)
	connect := append(append([]string{"'self'"}, ModelEndpoints...), endpoints...)
	return strings.Join([]string{
		"default-src 'self'",
		"script-src " + strings.Join(script, " "),
		"style-src 'self'",
		"img-src 'self'",
		"font-src 'self'",
		"connect-src " + strings.Join(connect, " "),
		"worker-src 'self'",
		"object-src 'none'",
		"media-src 'none'",
		"frame-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// EndpointOrigin is the connect-src source that allows a model endpoint's URL: its scheme, host
// and port (the path is left out: the client adds /chat/completions and /models to it). It says
// what is wrong with a URL that is not an absolute http or https URL.
func EndpointOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil:
		return "", fmt.Errorf("%q is not a URL: %v", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%q: an endpoint's URL starts with http:// or https://", raw)
	case u.Host == "" || strings.ContainsAny(u.Host, " ;,'*"):
		return "", fmt.Errorf("%q: an endpoint's URL names its host (and port), such as http://192.168.1.20:11434/v1", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// UnderstoodDirectives are the CSP directives that Chromium, Firefox and WebKit (Safari, WebKitGTK)
// all implement; a directive outside it is ignored, with a console error, by the engine that lacks
// it (WebKit: manifest-src, prefetch-src; Firefox: require-trusted-types-for, trusted-types).
var UnderstoodDirectives = []string{
	"default-src", "script-src", "script-src-elem", "script-src-attr", "style-src", "style-src-elem",
	"style-src-attr", "img-src", "font-src", "connect-src", "media-src", "object-src", "frame-src",
	"child-src", "worker-src", "base-uri", "form-action", "frame-ancestors", "sandbox",
	"upgrade-insecure-requests", "report-uri",
}

// ScriptHash is the CSP source for one inline script: 'sha256-' and the base64 digest of the exact
// text between <script> and </script>.
func ScriptHash(js string) string {
	sum := sha256.Sum256([]byte(js))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// SecurityHeaders are the headers Secure sets on every response, with csp as the
// Content-Security-Policy.
func SecurityHeaders(csp string) http.Header {
	return http.Header{
		"Content-Security-Policy":      {csp},
		"X-Content-Type-Options":       {"nosniff"},
		"Referrer-Policy":              {"no-referrer"},
		"X-Frame-Options":              {"DENY"},
		"Cross-Origin-Opener-Policy":   {"same-origin"},
		"Cross-Origin-Resource-Policy": {"same-origin"},
		"Permissions-Policy":           {"camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
	}
}

// Secure sets headers on every response of next before next runs, so its errors, 404s and the
// router's 405s carry them too.
func Secure(headers http.Header, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range headers {
			h[k] = slices.Clone(v)
		}
		next.ServeHTTP(w, r)
	})
}
