package serve

import (
	"strconv"
	"strings"
)

// Content codings a Resource may hold, besides the identity (uncompressed) form.
const (
	Brotli = "br"
	Gzip   = "gzip"
	// Identity names the uncompressed form; it is never sent as a Content-Encoding.
	Identity = "identity"
)

// Negotiate picks, from the codings a resource has (in order of preference: smallest first), the one
// the client's Accept-Encoding header ranks highest (RFC 9110, 12.5.3). An absent or empty header
// accepts only identity. Identity is acceptable unless the header excludes it ("identity;q=0", or
// "*;q=0" without an identity entry), but when the header does not name it (directly or by "*") it
// ranks below every coding the header names with a q-value above zero: "gzip;q=0.5" means "gzip,
// please", not "rather the 5.9 MB original". Among equal q-values the earlier (smaller) form wins.
// ok is false when the client accepts none of them.
func Negotiate(header string, have []string) (coding string, ok bool) {
	q := parseAcceptEncoding(header)
	best, bestQ := "", 0.0
	for _, c := range have {
		v := q.weight(c)
		if v > bestQ {
			best, bestQ = c, v
		}
	}
	return best, bestQ > 0
}

// acceptEncoding maps a lower-case coding (or "*") to its q-value.
type acceptEncoding map[string]float64

func parseAcceptEncoding(header string) acceptEncoding {
	q := acceptEncoding{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		w := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(p), "=")
			if !found || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0 // a q-value we cannot read counts as a refusal, never as a wish
			}
			w = f
		}
		if old, seen := q[name]; !seen || w < old {
			q[name] = w // a coding listed twice keeps its lowest weight
		}
	}
	return q
}

// weight is the q-value the header gives a coding: its own entry, else the "*" entry, else (identity
// only) implicitIdentity.
func (q acceptEncoding) weight(coding string) float64 {
	if v, ok := q[coding]; ok {
		return v
	}
	if v, ok := q["*"]; ok {
		return v
	}
	if coding == Identity {
		return implicitIdentity
	}
	return 0
}

// implicitIdentity is the weight of an identity the header does not mention: acceptable, yet below
// the smallest q-value a header can give (0.001).
const implicitIdentity = 0.0001
